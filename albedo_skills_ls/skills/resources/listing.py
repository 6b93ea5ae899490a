"""`skills.resources`: list the regular files beneath one skill's folder, without opening any of them.

The safety rules are folder.py's. Diagnostic codes produced by `list_resources` (all with `range` at the
file start):
- `resource-limit` (warning): a bound of `limits.py` stopped or shortened the walk; `truncated` is true.
- `symlink-escape` (warning): a link resolves outside the skill folder; skipped.
- `resource-loop` (warning): a link loop, or a folder reached a second time through a link; skipped.
- `unreadable` (warning): a broken link or a folder/entry the OS would not let us examine; the OS reason.
- `resource-not-regular` (information): a FIFO, socket or device; skipped.
- `resource-name` (warning): a name that is not valid UTF-8, which no request could name; skipped.
"""

from __future__ import annotations

import errno
import os
import stat
from collections import deque
from itertools import islice
from typing import Any, NamedTuple

from ..core import codes
from ..core.codes import Code
from ..core.limits import MAX_RESOURCE_DEPTH, MAX_RESOURCE_ENTRIES, MAX_RESOURCE_FILES
from ..core.model import WARNING, Diagnostic
from ..core.paths import is_within, resolved_beneath
from .folder import file_kind, printable, require_str, resolve_skill_folder


class _Dir(NamedTuple):  # not a dataclass: importing `dataclasses` (and `inspect`) costs `check` ~5 ms a start
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
        target = resolved_beneath(self.root, folder.rel)
        if not is_within(target, self.root):
            self._warn(
                folder.path,
                codes.SYMLINK_ESCAPE,
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
                printable(path),
                codes.RESOURCE_NAME,
                f"the name {printable(entry.name)!r} is not valid UTF-8, so it cannot be read; rename it",
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
                path, f"skipped: {file_kind(mode)}, not a regular file; only regular files are resources"
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
    require_str("name", name)
    root = resolve_skill_folder(skill_root, discovery_root)[1]
    walk = _Walk(root)
    walk.run()
    diagnostics = sorted(walk.diagnostics, key=lambda d: d.sort_key)
    return {
        "name": name,
        "resources": sorted(walk.files),
        "diagnostics": [d.to_json() for d in diagnostics],
        "truncated": walk.truncated,
    }
