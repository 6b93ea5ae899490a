"""`skills.resources` and `skills.read`: list and page through the files beneath one skill's folder.

Both functions take the skill's folder (the directory holding its `SKILL.md`) and its discovery root from
the caller, which has already looked the skill up in the catalog; neither trusts that lookup as proof of a
path (decisions.md section 8, confinement.py). Everything here is plain Python: stat, lstat, scandir and one
read of one regular file. Nothing is executed, imported, fetched or written (spec "Trust and execution").

Safety rules shared by both functions:
- At every request the skill folder is resolved with `os.path.realpath` and must lie strictly inside its
  resolved discovery root; "inside the skill" always means inside that resolved folder. Each folder the
  listing walks is re-resolved just before it is scanned, and a read opens its file from the resolved
  root down without following links.
- A link may point anywhere inside the skill folder. A link that resolves outside it is never followed:
  listing reports it (`symlink-escape`), reading refuses it.
- Only regular files are resources. FIFOs, sockets and devices are reported, never opened.

Diagnostic codes produced by `list_resources` (all with `range` at the file start):
- `resource-limit` (warning): a bound of `limits.py` stopped or shortened the walk; `truncated` is true.
- `symlink-escape` (warning): a link resolves outside the skill folder; skipped.
- `resource-loop` (warning): a link loop, or a folder reached a second time through a link; skipped.
- `unreadable` (warning): a broken link or a folder/entry the OS would not let us examine; the OS reason.
- `resource-not-regular` (information): a FIFO, socket or device; skipped.
- `resource-name` (warning): a name that is not valid UTF-8, which no request could name; skipped.
"""

from __future__ import annotations

import base64
import codecs
import errno
import os
import re
import stat
from collections import deque
from dataclasses import dataclass
from itertools import islice
from typing import Any

from . import codes
from .codes import Code
from .confinement import confined_folder, open_beneath
from .errors import InvalidArguments, Refused
from .limits import (
    DEFAULT_READ_LIMIT,
    MAX_READ_LIMIT,
    MAX_ENCODING_VERDICTS,
    MAX_RESOURCE_BYTES,
    MAX_RESOURCE_DEPTH,
    MAX_RESOURCE_ENTRIES,
    MAX_RESOURCE_FILES,
)
from .model import WARNING, Diagnostic
from .paths import is_within

__all__ = ["EncodingVerdicts", "list_resources", "read_resource"]

# The bytes read from the OS per read() call when loading a resource; only a buffer size, not a bound.
_READ_CHUNK = 1024 * 1024


# --------------------------------------------------------------------------------------------- helpers


def _require_str(what: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidArguments(f"{what} must be a string, not {type(value).__name__}")
    return value


def _require_count(what: str, value: object) -> int:
    # bool is an int subclass; `offset=True` is a caller bug, not the offset 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArguments(f"{what} must be a whole number of bytes, not {type(value).__name__}")
    if value < 0:
        raise InvalidArguments(f"{what} must be 0 or more, not {value}")
    return value


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def _printable(name: str) -> str:
    """A file name that may hold undecodable bytes (surrogate escapes), made safe for JSON."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def _resolve_root(skill_root: str, discovery_root: str) -> tuple[str, str]:
    """(resolved discovery root, resolved skill folder), the folder re-confined inside the root now."""
    _require_str("skill_root", skill_root)
    real_root, root = confined_folder(skill_root, _require_str("discovery_root", discovery_root))
    try:
        st = os.stat(root)
    except OSError as exc:
        raise Refused(
            f"the skill folder {root} cannot be opened ({exc.strerror}); reload the catalog with skills.reload"
        ) from None
    if not stat.S_ISDIR(st.st_mode):
        raise Refused(f"the skill folder {root} is not a folder any more; reload the catalog with skills.reload")
    return real_root, root


# ------------------------------------------------------------------------------------- skills.resources


@dataclass(frozen=True, slots=True)
class _Dir:
    path: str  # absolute, as seen under the resolved root (link names kept, not resolved)
    rel: str  # relative POSIX path below the root; "" for the root itself
    depth: int  # 0 for the root; a folder `a/b` is at depth 2


class _Walk:
    """One bounded, iterative, breadth-first walk. State lives here so the steps stay small."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.files: list[str] = []
        self.diagnostics: list[Diagnostic] = []
        self.entries_left = MAX_RESOURCE_ENTRIES
        # (st_dev, st_ino) of every folder scanned -> its relative path, to name it in loop diagnostics.
        self.visited: dict[tuple[int, int], str] = {}
        # Folders reached without crossing a folder link are walked before folders reached through one, so
        # that when a link and the real folder name the same place, the real folder is the one listed and
        # the link is the one reported (it is the duplicate).
        self.queue: deque[_Dir] = deque()
        self.linked: deque[_Dir] = deque()
        self.too_deep: list[str] = []
        self.truncated = False
        self.stopped = False

    # -- the loop

    def run(self) -> None:
        self.queue.append(_Dir(self.root, "", 0))
        while not self.stopped:
            if self.queue:
                folder = self.queue.popleft()
            elif self.linked:
                folder = self.linked.popleft()
            else:
                break
            self._scan(folder)
        if self.too_deep:
            # The depth bound does not stop the walk, it only leaves some folders out: one diagnostic for
            # all of them, on the first one met (traversal order is deterministic).
            self.truncated = True
            count = len(self.too_deep)
            self._warn(
                self.too_deep[0],
                codes.RESOURCE_LIMIT,
                f"{count} folder{'s' if count != 1 else ''} more than {MAX_RESOURCE_DEPTH} levels below the "
                f"skill folder {'were' if count != 1 else 'was'} not entered (the first is this one); "
                "files inside them are not listed",
            )

    def _scan(self, folder: _Dir) -> None:
        # The entry was examined earlier in the walk; it may have been swapped for a link since.
        target = os.path.realpath(folder.path)
        if not is_within(target, self.root):
            self._warn(
                folder.path,
                "symlink-escape",
                f"the folder {folder.rel or '.'} now resolves outside the skill folder (to {target}); not listed",
            )
            return
        try:
            st = os.stat(folder.path)
        except OSError as exc:
            self._warn(folder.path, codes.UNREADABLE, f"cannot examine this folder: {exc.strerror}")
            return
        key = (st.st_dev, st.st_ino)
        if key in self.visited:
            self._loop_or_duplicate(folder, self.visited[key])
            return
        self.visited[key] = folder.rel

        # Pull at most MAX_RESOURCE_ENTRIES + 1 names from the OS for one folder and sort them, so the
        # entries examined are the first ones by name (not in whatever order the file system yields them)
        # whenever the folder holds no more than that. The walk as a whole never pulls more than
        # 2 * MAX_RESOURCE_ENTRIES + 1 names: every folder scanned before the cut was examined in full.
        try:
            with os.scandir(folder.path) as it:
                batch = list(islice(it, MAX_RESOURCE_ENTRIES + 1))
        except OSError as exc:
            self._warn(folder.path, codes.UNREADABLE, f"cannot list this folder: {exc.strerror}")
            return
        batch.sort(key=lambda entry: entry.name)

        cut = len(batch) > self.entries_left
        examined = batch[: self.entries_left] if cut else batch
        self.entries_left -= len(examined)
        for entry in examined:
            self._examine(entry, folder)
            if self.stopped:
                return
        if cut:
            self._stop_for_entries(folder, len(batch) - len(examined), len(batch) > MAX_RESOURCE_ENTRIES)

    # -- one entry

    def _examine(self, entry: os.DirEntry[str], folder: _Dir) -> None:
        path = entry.path
        rel = f"{folder.rel}/{entry.name}" if folder.rel else entry.name
        try:
            entry.name.encode("utf-8")
        except UnicodeEncodeError:
            # The OS gave bytes that are not UTF-8 (decoded with surrogate escapes). No JSON request could
            # name it back, so it is reported instead of listed.
            self._warn(
                _printable(path),
                codes.RESOURCE_NAME,
                f"the name {_printable(entry.name)!r} is not valid UTF-8, so it cannot be read; rename it",
            )
            return
        try:
            if entry.is_symlink():
                self._examine_link(path, rel, folder.depth)
            elif entry.is_dir(follow_symlinks=False):
                self._enter(_Dir(path, rel, folder.depth + 1), self.queue)
            elif entry.is_file(follow_symlinks=False):
                self._add_file(path, rel)
            else:
                mode = entry.stat(follow_symlinks=False).st_mode
                self._not_regular(path, mode)
        except OSError as exc:
            self._warn(path, codes.UNREADABLE, f"cannot examine this entry: {exc.strerror}")

    def _examine_link(self, path: str, rel: str, parent_depth: int) -> None:
        # Escape first: realpath needs no target to exist, and a link leaving the skill is the finding
        # that matters whatever it points at (even nothing).
        target = os.path.realpath(path)
        if not is_within(target, self.root):
            self._warn(
                path,
                codes.SYMLINK_ESCAPE,
                f"the link {rel} resolves outside the skill folder (to {target}); it is not a resource",
            )
            return
        try:
            st = os.stat(path)  # follows the link; stat never opens, so a FIFO target cannot block
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                self._warn(path, codes.RESOURCE_LOOP, f"the link {rel} is a link loop: {exc.strerror}")
            else:
                self._warn(path, codes.UNREADABLE, f"the link {rel} is broken: {exc.strerror}")
            return
        if stat.S_ISDIR(st.st_mode):
            self._enter(_Dir(path, rel, parent_depth + 1), self.linked)
        elif stat.S_ISREG(st.st_mode):
            self._add_file(path, rel)  # an internal file link is listed under its own (link) name
        else:
            self._not_regular(path, st.st_mode)

    def _enter(self, folder: _Dir, queue: deque[_Dir]) -> None:
        if folder.depth > MAX_RESOURCE_DEPTH:
            self.too_deep.append(folder.path)
            return
        queue.append(folder)

    def _add_file(self, path: str, rel: str) -> None:
        if len(self.files) >= MAX_RESOURCE_FILES:
            # Found one file more than may be listed: stop the whole walk here.
            self.truncated = True
            self.stopped = True
            self._warn(
                path,
                codes.RESOURCE_LIMIT,
                f"stopped after listing {MAX_RESOURCE_FILES} files (the limit); this file and any after it "
                "are not listed",
            )
            return
        self.files.append(rel)

    def _not_regular(self, path: str, mode: int) -> None:
        self.diagnostics.append(
            codes.RESOURCE_NOT_REGULAR.at(
                path, f"skipped: {_kind(mode)}, not a regular file; only regular files are resources"
            )
        )

    def _loop_or_duplicate(self, folder: _Dir, first: str) -> None:
        first_name = first or "the skill folder itself"
        if first == "" or (folder.rel + "/").startswith(first + "/"):
            reason = f"it leads back to {first_name}, which contains it (a loop)"
        else:
            reason = f"its files are already listed under {first_name}"
        self._warn(folder.path, codes.RESOURCE_LOOP, f"the folder {folder.rel} is not walked again: {reason}")

    def _stop_for_entries(self, folder: _Dir, left_here: int, maybe_more: bool) -> None:
        self.truncated = True
        self.stopped = True
        waiting = len(self.queue) + len(self.linked)
        # `maybe_more`: the folder yielded as many names as were pulled, so it may hold still more.
        here = f"{'at least ' if maybe_more else ''}{left_here} entr{'ies' if left_here != 1 else 'y'} of this folder"
        later = f" and {waiting} folder{'s' if waiting != 1 else ''} not yet entered" if waiting else ""
        verb = "was" if left_here == 1 and not maybe_more and not waiting else "were"
        self._warn(
            folder.path,
            codes.RESOURCE_LIMIT,
            f"stopped after examining {MAX_RESOURCE_ENTRIES} folder entries (the limit); {here}{later} "
            f"{verb} left out",
        )

    def _warn(self, path: str, code: Code, message: str) -> None:
        # one skipped entry, not an error of the skill: `symlink-escape` and `unreadable` soften to warnings
        self.diagnostics.append(code.at(path, message, severity=WARNING))


def list_resources(name: str, skill_root: str, *, discovery_root: str) -> dict[str, Any]:
    """List the regular files beneath one skill's folder, without opening any of them.

    `discovery_root` is the skills root the folder was discovered in: the folder must still resolve
    strictly inside it now (Refused otherwise), whatever the snapshot said.

    Returns `{"name", "resources", "diagnostics", "truncated"}`:
    - `resources`: relative POSIX paths of every regular file found (after following links that stay
      inside the skill), sorted by code point. `SKILL.md` itself is listed, as are hidden files: they are
      ordinary resources. A link to a file is listed under the link's own path.
    - `diagnostics`: `Diagnostic.to_json()` dicts (codes in the module docstring), sorted; `path` is the
      absolute path of the entry as seen under the resolved skill folder (links not resolved).
    - `truncated`: true when a bound left something out; exactly one `resource-limit` diagnostic per bound
      that did so says which bound and what was left out.

    The walk is iterative and breadth-first: the skill folder first, then each folder it contains in the
    order met, each folder's entries sorted by name. Folders reached through a link are walked after all
    others, and a folder already walked (same device and inode) is not walked again (`resource-loop`).

    Bounds (limits.py):
    - MAX_RESOURCE_ENTRIES: every entry scandir yields counts (files, folders, links, FIFOs, hidden or
      not). After that many the walk stops.
    - MAX_RESOURCE_DEPTH: the skill folder is level 0; a folder in it is level 1; `a/b/c.txt` lies in a
      folder 2 levels deep. Folders up to MAX_RESOURCE_DEPTH levels deep are entered; deeper ones are
      counted as entries but not entered (the walk goes on elsewhere).
    - MAX_RESOURCE_FILES: the first that many files met in walk order are listed; on meeting one more the
      walk stops.
    When the entry bound cuts a single folder holding more than MAX_RESOURCE_ENTRIES + 1 entries, which of
    its entries were examined depends on the file system's order; in every other case the result is the
    same on every run.
    """
    _require_str("name", name)
    root = _resolve_root(skill_root, discovery_root)[1]
    walk = _Walk(root)
    walk.run()
    diagnostics = sorted(walk.diagnostics, key=lambda d: d.sort_key)
    return {
        "name": name,
        "resources": sorted(walk.files),
        "diagnostics": [d.to_json() for d in diagnostics],
        "truncated": walk.truncated,
    }


# ----------------------------------------------------------------------------------------- skills.read

_DRIVE = re.compile(r"[A-Za-z]:")
_EXAMPLE = "use a path relative to the skill folder, such as SKILL.md or references/x.md"


def _normalize(resource: str) -> str:
    """Refuse every traversal form, then drop empty and `.` segments: `./a//b.md` -> `a/b.md`."""
    if resource == "":
        raise Refused(f"the resource path is empty; {_EXAMPLE}")
    try:
        # A name that is not UTF-8 arrives from a command line as surrogate escapes and still names its file;
        # any other lone surrogate names nothing (the server refuses both before this: decisions.md 8).
        os.fsencode(resource)
    except UnicodeEncodeError as exc:
        raise InvalidArguments(
            f"the resource path is not valid Unicode (a lone surrogate at character {exc.start}); send UTF-8 text"
        ) from None
    if "\0" in resource:
        raise Refused(f"the resource path {resource!r} contains a NUL byte; {_EXAMPLE}")
    if "\\" in resource:
        raise Refused(f"the resource path {resource!r} contains a backslash; separate folders with '/'; {_EXAMPLE}")
    if resource.startswith("/"):
        raise Refused(f"the resource path {resource!r} is absolute; {_EXAMPLE}")
    if _DRIVE.match(resource):
        raise Refused(f"the resource path {resource!r} starts with a drive; {_EXAMPLE}")
    segments = resource.split("/")
    if ".." in segments:
        raise Refused(f"the resource path {resource!r} contains '..'; {_EXAMPLE}")
    parts = [s for s in segments if s not in ("", ".")]
    if not parts:
        raise Refused(f"the resource path {resource!r} names the skill folder itself; {_EXAMPLE}")
    return "/".join(parts)


def _open_checked(real_root: str, real: str, shown: str, expected: os.stat_result) -> int:
    """Open the checked file `real` beneath the resolved discovery root without following any link, and
    confirm on the open descriptor that it is the regular file that was checked (same device and inode)."""
    fd = open_beneath(real_root, real, shown)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"the resource {shown} is {_kind(st.st_mode)}; only regular files can be read")
        if (st.st_dev, st.st_ino) != (expected.st_dev, expected.st_ino):
            raise Refused(f"the resource {shown} changed while it was being opened; read it again")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_resource(real_root: str, root: str, rel: str) -> tuple[int, os.stat_result]:
    """The open descriptor and fstat of resource `rel` (already normalized) of the resolved skill folder
    `root`, after every safety check; `real_root` is its resolved discovery root, from which it is opened."""
    real = os.path.realpath(os.path.join(root, rel))
    if not is_within(real, root):
        raise Refused(
            f"the resource {rel} resolves outside the skill folder; only files inside it can be read "
            "(list them with skills.resources)"
        )
    try:
        st = os.stat(real)  # never opens: a FIFO is refused here without ever being opened
    except (FileNotFoundError, NotADirectoryError):
        raise Refused(f"the skill has no resource {rel}; list its resources with skills.resources") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Refused(
                f"the resource {rel} is a link loop; list the readable resources with skills.resources"
            ) from None
        raise Refused(f"the resource {rel} cannot be examined ({exc.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise Refused(f"the resource {rel} is a folder; list the files in it with skills.resources")
    if not stat.S_ISREG(st.st_mode):
        raise Refused(f"the resource {rel} is {_kind(st.st_mode)}; only regular files can be read")
    fd = _open_checked(real_root, real, rel, st)
    opened = os.fstat(fd)
    if opened.st_size > MAX_RESOURCE_BYTES:
        os.close(fd)
        raise Refused(
            f"the resource {rel} is {opened.st_size} bytes, over the {MAX_RESOURCE_BYTES // (1024 * 1024)} MiB "
            f"limit ({MAX_RESOURCE_BYTES} bytes) for skills.read"
        )
    return fd, opened


def _read_at(fd: int, count: int, offset: int, rel: str) -> bytes:
    """Exactly `count` bytes from `offset`; Refused when the file ends sooner (it shrank since its fstat)."""
    chunks: list[bytes] = []
    got = 0
    while got < count:
        chunk = os.pread(fd, min(_READ_CHUNK, count - got), offset + got)
        if not chunk:
            raise Refused(f"the resource {rel} changed while it was read; read it again")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _encoding_of(fd: int, size: int, rel: str) -> str:
    """"utf-8" when the whole file is valid UTF-8, else "base64": one pass, a chunk at a time."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, size, _READ_CHUNK):
            decoder.decode(_read_at(fd, min(_READ_CHUNK, size - start), start, rel))
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return "base64"
    return "utf-8"


FileIdentity = tuple[int, int, int, int]  # device, inode, size, modification time (ns)


class EncodingVerdicts:
    """Which files were found to be UTF-8, by file identity, for one session (issue 11 item 11).

    Deciding the encoding reads the whole file; remembering the verdict makes every later page of the same
    file cost only the page. A file that changes gets a new identity (size or modification time), so a
    stale verdict is never used. At most MAX_ENCODING_VERDICTS are kept, the oldest forgotten first.
    """

    def __init__(self) -> None:
        self._verdicts: dict[FileIdentity, str] = {}

    def get(self, identity: FileIdentity) -> str | None:
        return self._verdicts.get(identity)

    def remember(self, identity: FileIdentity, encoding: str) -> None:
        self._verdicts.pop(identity, None)
        self._verdicts[identity] = encoding
        while len(self._verdicts) > MAX_ENCODING_VERDICTS:
            del self._verdicts[next(iter(self._verdicts))]

    def forget(self, identity: FileIdentity) -> None:
        self._verdicts.pop(identity, None)

    def __len__(self) -> int:
        return len(self._verdicts)


def _is_continuation(byte: int) -> bool:
    return 0x80 <= byte <= 0xBF


def read_resource(
    name: str,
    skill_root: str,
    resource: str = "SKILL.md",
    offset: int = 0,
    limit: int = DEFAULT_READ_LIMIT,
    *,
    discovery_root: str,
    verdicts: EncodingVerdicts | None = None,
) -> dict[str, Any]:
    """Read one page of one regular file beneath the skill folder.

    `discovery_root` is the skills root the folder was discovered in. At the time of the request the
    folder must resolve strictly inside it and the resource inside the folder, and the file is opened from
    the resolved root down without following any link (confinement.py), so a folder or path swapped for a
    link after discovery is refused rather than read.

    Returns `{"name", "resource", "offset", "size", "next_offset", "truncated", "encoding", "content"}`;
    `resource` is the normalized relative path (`./a//b.md` -> `a/b.md`), `size` the whole file's bytes.

    Arguments (InvalidArguments when wrong): `resource` a str; `offset` and `limit` ints, not bools, 0 or
    more. `limit` above MAX_READ_LIMIT is served as MAX_READ_LIMIT. `limit` 0 is allowed and returns an
    empty page (`next_offset == offset`). `offset == size` returns an empty page with `truncated` false;
    `offset > size` is InvalidArguments.

    Refused: an empty, absolute, backslashed, NUL-holding, drive-prefixed or `..`-holding path; a path that
    resolves outside the skill folder (links inside it are fine); a missing resource; a folder, FIFO,
    socket or device; a file over MAX_RESOURCE_BYTES.

    `encoding` is "utf-8" when the whole file is valid UTF-8 (a BOM is kept as content). Then the page is
    bytes [offset, offset + limit) shortened to end on a character boundary, so it may be up to 3 bytes
    short of the limit, and `offset` must itself be a character boundary (0 or a `next_offset` returned
    earlier), else InvalidArguments. When the character at `offset` is longer than a positive `limit`,
    the page is empty with `next_offset == offset` and `truncated` true: a reader that pages through a
    UTF-8 file must use a limit of at least 4. Otherwise `encoding` is "base64" and `content` is the
    base64 of exactly bytes [offset, offset + limit). Either way `next_offset` is `offset` plus the bytes
    in the page and `truncated` is `next_offset < size`; joining every page from 0 gives the file exactly.

    Deciding the encoding reads the whole file once; with `verdicts` (a session's EncodingVerdicts) that
    decision is remembered per file identity, so each later page reads only its own bytes.
    """
    _require_str("name", name)
    if not isinstance(resource, str):
        raise InvalidArguments(f"resource must be a string; {_EXAMPLE}")
    offset = _require_count("offset", offset)
    limit = min(_require_count("limit", limit), MAX_READ_LIMIT)
    rel = _normalize(resource)
    real_root, root = _resolve_root(skill_root, discovery_root)
    fd, st = _open_resource(real_root, root, rel)
    try:
        size = st.st_size
        if offset > size:
            raise InvalidArguments(f"offset {offset} is past the end (size {size}); the last page ends at {size}")
        identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        encoding = verdicts.get(identity) if verdicts is not None else None
        if encoding is None:
            encoding = _encoding_of(fd, size, rel)
            if verdicts is not None:
                verdicts.remember(identity, encoding)
        end = min(offset + limit, size)
        # The page, plus the byte after it: where the next character starts decides where a UTF-8 page ends.
        window = _read_at(fd, end - offset + (1 if end < size else 0), offset, rel)
    finally:
        os.close(fd)

    if encoding == "utf-8":
        if offset < size and _is_continuation(window[0]):
            raise InvalidArguments(
                f"offset {offset} falls inside a UTF-8 character of {rel}; start at 0 or at a next_offset value"
            )
        # Step back over continuation bytes so the page ends where a character starts (at most 3 steps:
        # the data is valid UTF-8). Never below offset, so a page never exceeds the limit.
        while offset < end < size and _is_continuation(window[end - offset]):
            end -= 1
        try:
            content = window[: end - offset].decode("utf-8")
        except UnicodeDecodeError:  # rewritten in place with the same size and time: decide again next call
            if verdicts is not None:
                verdicts.forget(identity)
            raise Refused(f"the resource {rel} changed while it was read; read it again") from None
    else:
        content = base64.b64encode(window[: end - offset]).decode("ascii")

    return {
        "name": name,
        "resource": rel,
        "offset": offset,
        "size": size,
        "next_offset": end,
        "truncated": end < size,
        "encoding": encoding,
        "content": content,
    }
