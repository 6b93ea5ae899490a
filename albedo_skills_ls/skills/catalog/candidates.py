"""The discovery roots and their candidate folders (docs/design.md#3-discovery).

Every candidate path is absolute and spelled as found under its root; a linked folder is resolved only to
check that it stays inside its root. Which candidate of a name wins is winners.py's.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from ..core import codes, limits
from ..core.model import Diagnostic, Root, Scope
from ..core.paths import child, is_within
from ..document.skill_file import SKILL_FILE, os_reason, unreadable

# (relative location, scope), in precedence order
WORKSPACE_ROOTS: tuple[tuple[str, Scope], ...] = ((".albedo/skills", "workspace"), (".agents/skills", "workspace"))
USER_ROOTS: tuple[tuple[str, Scope], ...] = (
    (".albedo/skills", "user"),
    (".agents/skills", "user"),
    (".prime/agent/skills", "user"),
)


def root_paths(workspace: str | None, home: str | None, user_roots: bool = True) -> list[tuple[str, Scope]]:
    """The discovery roots in precedence order: workspace roots first, then (optionally) user roots."""
    found: list[tuple[str, Scope]] = []
    if workspace is not None:
        base = os.path.abspath(workspace)
        found += [(os.path.join(base, rel), scope) for rel, scope in WORKSPACE_ROOTS]
    if user_roots:
        base = os.path.abspath(home if home is not None else os.path.expanduser("~"))
        found += [(os.path.join(base, rel), scope) for rel, scope in USER_ROOTS]
    # A workspace that is the home folder has `~/.agents/skills` as both a workspace and a user root:
    # list it once (as the workspace root it is first) or every skill there would collide with itself.
    unique: dict[str, Scope] = {}
    for path, scope in found:
        unique.setdefault(os.path.normpath(path), scope)
    return list(unique.items())


class Candidate(NamedTuple):
    folder: str
    scope: Scope
    root: str
    real_folder: str  # links resolved, computed once per root rather than once per skill and reload


def list_candidates(roots: list[tuple[str, Scope]], found: list[Diagnostic]) -> tuple[list[Root], list[Candidate]]:
    """List candidate folders of every root in precedence order; check that linked folders stay inside."""
    described: list[Root] = []
    candidates: list[Candidate] = []
    for root, scope in roots:
        try:
            entries = sorted(
                (entry for entry in os.scandir(root) if not entry.name.startswith(".")), key=lambda e: e.name
            )
        except (FileNotFoundError, NotADirectoryError):
            described.append(Root(root, scope, False))
            continue
        except OSError as exc:
            described.append(Root(root, scope, True))
            found.append(unreadable(root, exc))
            continue
        described.append(Root(root, scope, True))
        real_root = os.path.realpath(root)
        for entry in entries:
            try:
                if not entry.is_dir():  # files beside skills are ignored; a link that leads nowhere is not
                    if entry.is_symlink():
                        broken = broken_link(entry.path)
                        if broken is not None:
                            found.append(broken)
                    continue
                target = child(real_root, entry.name)
                if entry.is_symlink():
                    target = os.path.realpath(entry.path)
                    if not is_within(target, real_root) or target == real_root:
                        found.append(
                            codes.SYMLINK_ESCAPE.at(
                                entry.path,
                                f"skill folder `{entry.name}` is a link to {target}, outside its root {root}: "
                                "move the skill into the root instead of linking it",
                            )
                        )
                        continue
            except OSError as exc:
                found.append(unreadable(entry.path, exc))
                continue
            candidates.append(Candidate(entry.path, scope, root, target))
    return described, candidates


def bound_candidates(candidates: list[Candidate]) -> tuple[list[Candidate], list[Candidate], list[Diagnostic]]:
    """(in the catalog, left out, notes): the first MAX_CANDIDATES candidates, the others, and the
    `candidate-limit` note when there were more. The note sits on the first folder left out (its `SKILL.md`
    when it has one), where a reader sees which skill the bound cut."""
    if len(candidates) <= limits.MAX_CANDIDATES:
        return candidates, [], []
    skipped = candidates[limits.MAX_CANDIDATES :]
    first = skipped[0].folder
    skill_file = child(first, SKILL_FILE)
    note = codes.CANDIDATE_LIMIT.at(
        skill_file if os.path.lexists(skill_file) else first,
        f"{len(skipped)} skill folder(s) are left out of the catalog, from this one on: Albedo's catalog "
        f"holds the first {limits.MAX_CANDIDATES} skill folders of its roots; remove unused skills "
        "(`albedo-skills check` still validates every one)",
    )
    return candidates[: limits.MAX_CANDIDATES], skipped, [note]


def broken_link(path: str) -> Diagnostic | None:
    """A link in a root that cannot be followed (dangling, or a loop) is most likely a skill whose install
    went wrong: say so rather than let it disappear. A link to a regular file is just a file."""
    try:
        os.stat(path)
    except OSError as exc:
        return codes.UNREADABLE.at(
            path,
            f"`{os.path.basename(path)}` is a link that cannot be followed ({os_reason(exc)}): "
            "point it at a skill folder or remove it",
        )
    return None
