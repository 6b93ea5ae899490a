"""Discovery: the five roots, their candidate folders, collisions, the bounds, and the frozen `Catalog`.

Follows docs/design.md#3-discovery. `discover` runs the steps in order: list the candidates of every root
(candidates.py), examine each candidate's `SKILL.md` (read by skill_file.py, parsed by rules.py, reused
through a `ParseCache`), pick the winner of each name and bound the findings (winners.py). Callers import
those modules' names from them: this one offers only what it defines.
"""

from __future__ import annotations

import os
import stat
from typing import Iterable

from .candidates import Candidate, bound_candidates, list_candidates, root_paths
from ..core.model import Catalog, Diagnostic, Scope
from ..core.paths import child, resolves_within
from .references import check_references
from ..document.rules import ParsedSkill, check_document
from ..document.skill_file import SKILL_FILE, read_skill_bytes, stored_as_named
from .winners import bounded_catalog, limit_note_path, pick_winners

DEFAULT_BUILTINS = ("help", "model", "reload")


class ParseCache:
    """Parses of `SKILL.md` files keyed by path, reused while size, mtime, inode and device are unchanged.

    Owned by one session and mutated only by its reloads; the catalogs it feeds stay immutable.
    """

    def __init__(self) -> None:
        self._entries: dict[str, tuple[tuple[int, int, int, int], ParsedSkill]] = {}
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(info: os.stat_result) -> tuple[int, int, int, int]:
        return (info.st_size, info.st_mtime_ns, info.st_ino, info.st_dev)

    def get(self, path: str, info: os.stat_result) -> ParsedSkill | None:
        entry = self._entries.get(path)
        if entry is not None and entry[0] == self.key(info):
            self.hits += 1
            return entry[1]
        self.misses += 1
        return None

    def put(self, path: str, info: os.stat_result, parsed: ParsedSkill) -> None:
        self._entries[path] = (self.key(info), parsed)

    def keep_only(self, paths: Iterable[str]) -> None:
        keep = set(paths)
        for path in list(self._entries):
            if path not in keep:
                del self._entries[path]


def examine_candidate(folder: str, cache: ParseCache | None, real_folder: str | None = None) -> ParsedSkill | Diagnostic:
    """`_examine_candidate`, plus the body's file references checked on disk now: referenced files change
    without `SKILL.md` changing, so these findings are never cached (only the references themselves are).
    `real_folder` is the folder with links resolved, when the caller already knows it."""
    result = _examine_candidate(folder, cache)
    if isinstance(result, ParsedSkill) and result.references:
        problems = check_references(result.path, result.references, real_folder)
        if problems:  # most skills' references all resolve: then the cached parse is returned as it is
            result = result._replace(diagnostics=result.diagnostics + problems)
    return result


def _examine_candidate(folder: str, cache: ParseCache | None) -> ParsedSkill | Diagnostic:
    """Parse one candidate folder's `SKILL.md` (or say why it can't be), reusing an unchanged parse."""
    path = child(folder, SKILL_FILE)
    link: os.stat_result | None = None
    if cache is not None:
        # lstat first: for the usual regular file it is the stat the cache compares, and it tells a link
        # apart without a second call (a reload of an unchanged tree is mostly these calls); a miss
        # hands it on to the read
        try:
            link = info = os.lstat(path)
            linked = stat.S_ISLNK(info.st_mode)
            if linked:
                info = os.stat(path)
        except OSError:
            info = None
        if info is not None and stat.S_ISREG(info.st_mode):
            cached = cache.get(path, info)
            if cached is not None and (not linked or resolves_within(path, folder)) and stored_as_named(path, link):
                return cached
    data, info, problem = read_skill_bytes(path, folder, link)
    if problem is not None or data is None or info is None:
        assert problem is not None
        return problem
    parsed = check_document(data, path, os.path.basename(folder))
    if cache is not None:
        cache.put(path, info, parsed)
    return parsed


def discover(
    workspace: str | None,
    home: str | None = None,
    *,
    user_roots: bool = True,
    builtins: Iterable[str] = DEFAULT_BUILTINS,
    cache: ParseCache | None = None,
    roots: list[tuple[str, Scope]] | None = None,
    examine_all: bool = False,
) -> Catalog:
    """Run discovery over the roots and return the immutable snapshot.

    `workspace` None means no workspace roots (a session with no folder). `home` defaults to the user's.
    A `cache` makes a rebuild reuse parses of unchanged files. `roots` replaces the five roots with the
    folders given (`check PATH` on one skills root, or on any folder of skill folders).

    The steps: list the candidates of every root, examine each (at most MAX_CANDIDATES), pick the
    winner of each name, then bound the diagnostics into the snapshot. `examine_all` (the command line's
    `check`) also examines the candidates past MAX_CANDIDATES, for their own findings: they stay out of
    the catalog (no winner, no collision), so the bound keeps meaning what the catalog holds, but no skill
    passes unexamined.
    """
    builtin_names = tuple(dict.fromkeys(builtins))
    found: list[Diagnostic] = []  # every finding, from every step
    listed, candidates = list_candidates(root_paths(workspace, home, user_roots) if roots is None else roots, found)
    notes_path = limit_note_path(workspace, listed)
    in_catalog, left_out, limit_notes = bound_candidates(candidates)
    valid, examined = _examine(in_catalog, cache, found)
    if examine_all and left_out:
        examined += _examine(left_out, cache, found)[1]
    if cache is not None:
        cache.keep_only(examined)
    skills = pick_winners(valid, builtin_names, found)
    folders = len(in_catalog) + (len(left_out) if examine_all else 0)
    return bounded_catalog(workspace, listed, skills, builtin_names, found, examined, limit_notes, notes_path)._replace(
        folders_examined=folders
    )


def _examine(
    candidates: list[Candidate], cache: ParseCache | None, found: list[Diagnostic]
) -> tuple[list[tuple[ParsedSkill, Candidate]], list[str]]:
    """Examine every candidate in precedence order: the valid, named skills (still in that order), and the
    path of every `SKILL.md` that was parsed. Findings go to `found`."""
    valid: list[tuple[ParsedSkill, Candidate]] = []
    examined: list[str] = []
    for candidate in candidates:
        result = examine_candidate(candidate.folder, cache, candidate.real_folder)
        if isinstance(result, Diagnostic):
            found.append(result)
            continue
        examined.append(result.path)
        found.extend(result.diagnostics)
        if result.valid and result.name is not None:
            valid.append((result, candidate))
    return valid, examined
