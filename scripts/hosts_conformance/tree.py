"""A tree the agents are run over (`project/`, `home/`, ...) and the mapping of their answers back to it.

Every observation is keyed by a file's path relative to the tree's base, as seen through its root (a
linked folder keeps its link path), for every file named `SKILL.md` in any letter case: an agent that does
not list a file has `loads: false` for it.
"""

from __future__ import annotations

import os
import shutil

from . import fixture

# Folders the agents write into HOME at run time (Codex's system skills, Copilot's unpacked package,
# caches): never part of what is compared.
AGENT_WRITTEN = (".codex/skills/.system", ".cache", ".gemini/tmp", ".gemini/history", ".claude/projects")
MAX_WALK_DEPTH = 16  # folders below project/ or home/; the fixture's deepest file is 10 below home


class Tree:
    def __init__(self, base: str) -> None:
        self.base = os.path.abspath(base)
        self.project = os.path.join(self.base, fixture.PROJECT)
        self.home = os.path.join(self.base, fixture.HOME)

    def rel(self, path: str) -> str:
        return os.path.relpath(path, self.base)

    def inventory(self) -> list[str]:
        """Every file named `skill.md` in any letter case under project/ and home/, relative to the base,
        following linked folders but never into a folder the walk is already inside (a link loop)."""
        found: list[str] = []
        for top in (self.project, self.home):
            self._walk(top, (os.path.realpath(top),), found)
        return sorted(found)

    def _walk(self, folder: str, inside: tuple[str, ...], found: list[str]) -> None:
        if len(inside) > MAX_WALK_DEPTH:
            return
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            return
        for entry in entries:
            rel = self.rel(entry.path)
            if entry.name == ".git" or any(_under(rel, part) for part in AGENT_WRITTEN):
                continue
            try:
                is_dir = entry.is_dir(follow_symlinks=True)
                is_file = not is_dir and entry.is_file(follow_symlinks=True)
            except OSError:  # a link to itself (ELOOP): nothing is behind it
                continue
            if is_dir:
                real = os.path.realpath(entry.path)
                if real not in inside:
                    self._walk(entry.path, inside + (real,), found)
            elif entry.name.lower() == "skill.md" and is_file:
                found.append(rel)

    def copy_to(self, dest: str) -> "Tree":
        """A copy of the whole tree (links kept as links: they are relative), for one agent to write into."""
        shutil.copytree(self.base, dest, symlinks=True)
        return Tree(dest)


def _under(rel: str, part: str) -> bool:
    """True when `rel` (e.g. `home/.cache/x`) is inside `<top>/<part>`."""
    inner = rel.split("/", 1)[1] if "/" in rel else ""
    return inner == part or inner.startswith(part + "/")


class PathMap:
    """Maps the paths an agent reports (absolute, perhaps resolved through links, perhaps relative to the
    project, perhaps a skill folder rather than its file) to inventory paths."""

    def __init__(self, tree: Tree, inventory: list[str]) -> None:
        self.tree = tree
        self.known = set(inventory)
        self.by_real: dict[str, str] = {}
        for rel in inventory:
            self.by_real.setdefault(os.path.realpath(os.path.join(tree.base, rel)), rel)

    def file(self, reported: str, relative_to: str | None = None) -> str | None:
        """The inventory path of a reported SKILL.md path, or None when it is not one of the tree's."""
        path = reported if os.path.isabs(reported) else os.path.join(relative_to or self.tree.project, reported)
        path = os.path.normpath(path)
        rel = self.tree.rel(path)
        if rel in self.known:
            return rel
        return self.by_real.get(os.path.realpath(path))

    def folder(self, reported: str) -> str | None:
        """The inventory path of the skill file in a reported skill folder (exact `SKILL.md` first)."""
        rel = self.tree.rel(os.path.normpath(reported))
        candidates = [known for known in self.known if os.path.dirname(known) == rel]
        if not candidates:
            real = os.path.realpath(reported)
            candidates = [known for known, path in ((k, os.path.join(self.tree.base, k)) for k in self.known)
                          if os.path.dirname(os.path.realpath(path)) == real]
        candidates.sort(key=lambda known: (os.path.basename(known) != "SKILL.md", known))
        return candidates[0] if candidates else None
