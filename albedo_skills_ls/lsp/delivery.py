"""What a client receives for one file's diagnostics, and what that depends on.

Part of the server core. The engine's ranges count code points in the text they were computed from; the
client's count UTF-16 units (or what it negotiated), so what is sent depends on more than the engine's
values: on the text each range is converted on. Two files with equal engine values can need different
ranges (`😀 See [guide](...)` rewritten as `x See [guide](...)` on disk moves a link's UTF-16 columns, not its
code-point ones). So the decision to send a file again never compares engine values alone: it compares a
`Rendering`'s key, everything the converted diagnostics depend on, and when that moved, the converted
diagnostics themselves.

Which text each range is converted on is decided here, once, after what the engine computed it from:

- a file's own ranges: its open buffer's text (the engine checks an open `SKILL.md` from its buffer), else
  the file on disk;
- a related location (a collision's winner): the winner's text on disk, even when the winner is open with
  unsaved changes, because the engine takes the winner's `name` range from disk (the snapshot, or
  `check_buffer`'s re-read).
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

from lsprotocol import types

from ..skills.core.model import Diagnostic
from .buffers import Buffers
from .convert import LineSource, to_lsp_diagnostic

# A text's identity: an open buffer's version and content hash, or the file's stat identity on disk (the
# parse cache's own test of "unchanged"); None for a file that is not there.
TextIdentity = tuple[Any, ...] | None


class Rendering(NamedTuple):
    """One file's diagnostics as sent: the converted items and the key they were computed from."""

    key: tuple[Any, ...]
    items: list[types.Diagnostic]


def disk_identity(path: str) -> TextIdentity:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return ("disk", info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def buffer_identity(text: str, version: int | None) -> TextIdentity:
    return ("buffer", version, len(text), hash(text))


class Converter:
    """Converts one file's engine diagnostics for a client, on the open buffers' texts of one snapshot."""

    def __init__(self, encoding: str, buffers: Buffers) -> None:
        self.encoding = encoding
        self.buffers = buffers

    def key(self, path: str, found: tuple[Diagnostic, ...]) -> tuple[Any, ...]:
        """Everything `items` depends on: the engine's values, the encoding, and the identity of each text
        the conversion reads (the file's own, each related file's on disk)."""
        opened = self.buffers.text(path)
        own = buffer_identity(*opened) if opened else disk_identity(path)
        related = sorted({item.path for diagnostic in found for item in diagnostic.related})
        return (self.encoding, found, own, tuple((other, disk_identity(other)) for other in related))

    def items(self, path: str, found: tuple[Diagnostic, ...]) -> list[types.Diagnostic]:
        opened = self.buffers.text(path)
        source = LineSource(path, opened[0] if opened else None)
        on_disk: dict[str, LineSource] = {}

        def related(other: str) -> LineSource:
            if other not in on_disk:
                on_disk[other] = LineSource(other)  # the disk's text, whether or not it is open
            return on_disk[other]

        return [to_lsp_diagnostic(item, source, self.encoding, related) for item in found]

    def render(self, path: str, found: tuple[Diagnostic, ...]) -> Rendering:
        return Rendering(self.key(path, found), self.items(path, found))

    def refreshed(self, path: str, found: tuple[Diagnostic, ...], last: Rendering | None) -> tuple[Rendering, bool]:
        """What the client should hold for `path` now, given what it was sent last (`last`; None: nothing),
        and whether that must be sent. Converts only when the key moved."""
        if last is None and not found:
            return Rendering((), []), False
        key = self.key(path, found)
        if last is not None and key == last.key:
            return last, False
        rendering = Rendering(key, self.items(path, found))
        return rendering, rendering.items != (last.items if last is not None else [])


def result_id(key: tuple[Any, ...]) -> str:
    """A pull report's id, from the rendering's key: a report is unchanged only when what it would send is."""
    # imported at the first pull, not at start: hashlib loads OpenSSL (about 1.5 ms before `initialize`)
    # and only pull-diagnostics clients ever need it
    import hashlib

    return hashlib.blake2b(repr(key).encode(), digest_size=12).hexdigest()


class Delivered:
    """What the client holds now, so only changes are sent and stale files are cleared.

    Push mode: each file's last `Rendering` (a file with no items is not kept). Pull mode: the files whose
    last workspace report had items, so the next report clears those that have none now."""

    def __init__(self) -> None:
        self.published: dict[str, Rendering] = {}
        self.pulled_paths: set[str] = set()

    def remember(self, path: str, rendering: Rendering) -> None:
        if rendering.items:
            self.published[path] = rendering
        else:
            self.published.pop(path, None)

    def changes(self, wanted: dict[str, tuple[Diagnostic, ...]], converter: Converter) -> list[tuple[str, Rendering]]:
        """Push mode: the files whose rendering must be sent (a file that had items and has none is sent
        empty), in path order. The others are remembered as they are now."""
        to_send = []
        for path in sorted(set(wanted) | set(self.published)):
            rendering, changed = converter.refreshed(path, wanted.get(path, ()), self.published.get(path))
            if changed:
                to_send.append((path, rendering))
            else:
                self.remember(path, rendering)
        return to_send

    def pulled(self, current: dict[str, tuple[Diagnostic, ...]]) -> dict[str, tuple[Diagnostic, ...]]:
        """Pull mode: the workspace report's files, `current` plus an empty report for each file reported
        with items last time that has none now (so the client clears it)."""
        gone: dict[str, tuple[Diagnostic, ...]] = {path: () for path in self.pulled_paths - current.keys()}
        self.pulled_paths = {path for path, found in current.items() if found}
        return {**current, **gone}
