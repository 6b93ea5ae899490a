"""Every `SKILL.md` beneath a folder, found the way skill scanners find them: `check PATH` on a folder that is
neither a skills root nor a workspace (a downloaded collection keeps its skills at `skills/*/SKILL.md`,
`plugins/*/skills/*/SKILL.md` or deeper).

The walk is bounded and says where it stopped: at most `MAX_SKILL_TREE_ENTRIES` directory entries read and
`MAX_SKILL_TREE_DEPTH` folder levels below the folder named. It skips what holds no one's skills (`.git`,
`node_modules`, `__pycache__`, and virtual environments: a folder holding `pyvenv.cfg`), follows no link to a
folder (a link may lead anywhere; the skills inside the folder named are what was asked for), and keeps
hidden folders (collections keep skills in `.github/skills` and `skills/.curated`). A file named `SKILL.md`
exactly is a skill, links included: reading it is `check_file`'s job, which reads a link only inside its
folder. Folders are walked in name order, so two runs list the same skills in the same order.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from ..core import limits
from ..document.skill_file import SKILL_FILE

SKIPPED_FOLDERS = frozenset({".git", "node_modules", "__pycache__"})
_VIRTUALENV_MARK = "pyvenv.cfg"


class SkillTree(NamedTuple):
    """The `SKILL.md` files found (absolute, in walk order), and, when a bound cut the walk, what it left
    out, in words (None: every folder was read)."""

    files: tuple[str, ...]
    cut: str | None


def find_skill_files(folder: str) -> SkillTree:
    """Every `SKILL.md` beneath `folder` (itself included), within the bounds."""
    max_entries, max_depth = limits.MAX_SKILL_TREE_ENTRIES, limits.MAX_SKILL_TREE_DEPTH  # read when called
    found: list[str] = []
    entries = 0
    deeper: list[str] = []  # folders past the depth bound: not read
    stack: list[tuple[str, int]] = [(os.path.abspath(folder), 0)]
    while stack:
        current, depth = stack.pop()
        try:
            with os.scandir(current) as listing:
                items = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            continue  # a folder that cannot be listed holds nothing this walk can read
        if any(item.name == _VIRTUALENV_MARK for item in items) and depth > 0:
            continue
        entries += len(items)
        if entries > max_entries:
            return SkillTree(tuple(found), f"the walk stopped after {max_entries:,} entries "
                                           f"(MAX_SKILL_TREE_ENTRIES), in {current}")
        folders = []
        for item in items:
            try:
                if item.name == SKILL_FILE and not item.is_dir(follow_symlinks=False):
                    found.append(item.path)
                elif item.is_dir(follow_symlinks=False) and item.name not in SKIPPED_FOLDERS:
                    folders.append(item.path)
            except OSError:
                continue
        if folders and depth + 1 > max_depth:
            deeper.extend(folders)
            continue
        stack.extend((path, depth + 1) for path in reversed(folders))
    if deeper:
        more = f" (and {len(deeper) - 1} more)" if len(deeper) > 1 else ""
        return SkillTree(tuple(found), f"the walk stops {max_depth} levels below the folder named "
                                       f"(MAX_SKILL_TREE_DEPTH), at {deeper[0]}{more}")
    return SkillTree(tuple(found), None)
