"""The one walk every agent model shares: each file named SKILL.md, in any letter case, under any agent's roots.

Every root of every agent (workspace and home) is walked once, depth first, sorted by name. Folders are
reached through links as the agents reach them, and a file keeps the path it has as seen from its root (a
linked folder keeps its link path), because that is the path the agents print. The walk only descends from a
root: it never climbs to a parent, never re-enters a folder it is already inside (a link loop), and stops at
the bounds of `limits` (levels, entries, files), saying so in `WalkResult.truncated` (a `Cut`).
"""

from __future__ import annotations

import os
import stat
from typing import Iterable, NamedTuple

from ..core import limits
from ..core.paths import child
from ..document.skill_file import SKILL_FILE


class Cut(NamedTuple):
    """Where a bound of `limits` cut the walk: which bound (its name in `limits`), its value, the first path
    not walked (a file past the file bound; the folder whose listing ran past the entry bound; a folder past
    the depth bound), and how many more places the depth bound cut (the other two end the whole walk)."""

    limit: str  # "MAX_HOST_SKILL_FILES", "MAX_HOST_WALK_ENTRIES" or "MAX_HOST_WALK_DEPTH"
    value: int
    first_not_walked: str
    more: int = 0

    @property
    def ends_walk(self) -> bool:
        return self.limit != "MAX_HOST_WALK_DEPTH"

    def sentence(self, shown=lambda path: path) -> str:  # type: ignore[no-untyped-def]
        """The cut said in words, `shown` turning a path into what the reader sees."""
        where = shown(self.first_not_walked)
        said = {
            "MAX_HOST_SKILL_FILES": f"the walk stopped after {self.value:,} skill files, at {where}",
            "MAX_HOST_WALK_ENTRIES": f"the walk stopped after {self.value:,} entries, in {where}",
            "MAX_HOST_WALK_DEPTH": f"the walk stops {self.value} levels below a root, at {where}",
        }[self.limit]
        return said if not self.more else f"{said} (and {self.more} more)"

    def to_json(self) -> dict[str, object]:
        return {"limit": self.limit, "value": self.value, "first_not_walked": self.first_not_walked,
                "more": self.more}


class Found(NamedTuple):
    """One file named SKILL.md (any letter case) under a root."""

    path: str  # absolute, as seen from the root
    root: str  # the root it was found under (absolute, normalised)
    parts: tuple[str, ...]  # the components below the root, the file name last
    file_link: bool  # the file itself is a symbolic link
    folder_link: bool  # a folder between the root and the file is a symbolic link
    info: os.stat_result  # the file's lstat

    @property
    def levels(self) -> int:
        """Folder levels between the root and the file: 1 for root/x/SKILL.md, 0 for a file in the root."""
        return len(self.parts) - 1

    @property
    def folder_name(self) -> str:
        return self.parts[-2] if len(self.parts) > 1 else os.path.basename(self.root)


class WalkResult(NamedTuple):
    files: tuple[Found, ...]
    existing_roots: frozenset[str]
    truncated: Cut | None  # where a bound cut the walk, or None


def walk(roots: Iterable[str]) -> WalkResult:
    """Every SKILL.md (any letter case) under `roots` (absolute, normalised paths), roots in sorted order."""
    found: list[Found] = []
    existing: set[str] = set()
    budget = [limits.MAX_HOST_WALK_ENTRIES]
    truncated: list[Cut] = []
    for root in sorted(set(roots)):
        if not os.path.isdir(root):
            continue
        existing.add(root)
        _walk_folder(root, root, (), False, (os.path.realpath(root),), found, budget, truncated)
        if _stopped(truncated):
            break
    return WalkResult(tuple(found), frozenset(existing), _summary(truncated))


def _summary(notes: list[Cut]) -> Cut | None:
    """The cut that ended the walk, else the first place the depth bound cut, with how many more there were."""
    if not notes:
        return None
    first = notes[-1] if _stopped(notes) else notes[0]
    return first._replace(more=len(notes) - 1)


def _walk_folder(
    root: str,
    folder: str,
    parts: tuple[str, ...],
    through_link: bool,
    inside: tuple[str, ...],
    found: list[Found],
    budget: list[int],
    truncated: list[Cut],
) -> None:
    try:
        with os.scandir(folder) as scan:
            entries = []
            for entry in scan:
                if budget[0] == 0:
                    truncated.append(Cut("MAX_HOST_WALK_ENTRIES", limits.MAX_HOST_WALK_ENTRIES, folder))
                    return
                budget[0] -= 1
                entries.append(entry)
    except OSError:
        return  # unreadable folders hide their skills from every agent alike; Albedo's own check reports roots
    for entry in sorted(entries, key=lambda e: e.name):
        path = child(folder, entry.name)
        try:
            is_link = entry.is_symlink()
            is_dir = entry.is_dir()  # through a link, as the agents that follow links see it
            is_file = not is_dir and entry.is_file()
        except OSError:
            continue
        if is_file and entry.name.lower() == SKILL_FILE.lower():
            if len(found) == limits.MAX_HOST_SKILL_FILES:
                truncated.append(Cut("MAX_HOST_SKILL_FILES", limits.MAX_HOST_SKILL_FILES, path))
                return
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if is_link or stat.S_ISREG(info.st_mode):
                found.append(Found(path, root, parts + (entry.name,), is_link, through_link, info))
            continue
        if not is_dir:
            continue
        if len(parts) + 1 > limits.MAX_HOST_WALK_DEPTH:
            truncated.append(Cut("MAX_HOST_WALK_DEPTH", limits.MAX_HOST_WALK_DEPTH, path))
            continue
        real = os.path.realpath(path)
        if real in inside:  # a link back to a folder the walk is already in
            continue
        _walk_folder(root, path, parts + (entry.name,), through_link or is_link, inside + (real,), found, budget, truncated)
        if _stopped(truncated):
            return



def _stopped(notes: list[Cut]) -> bool:
    return bool(notes) and notes[-1].ends_walk
