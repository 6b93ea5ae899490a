"""Discovery: the five roots, their candidate folders, collisions, the bounds, and the frozen `Catalog`.

Follows decisions.md section 3. Every path that reaches the catalog is absolute and spelled as found under
its root (links are resolved only to check that they stay inside). Files are opened only after `stat` says
they are regular, and then with O_NONBLOCK, so a FIFO named `SKILL.md` can never block a read.
"""

from __future__ import annotations

import os
import stat
from types import MappingProxyType
from typing import Iterable, NamedTuple

from . import codes, limits
from .model import FILE_START, SEVERITY_RANK, Catalog, Diagnostic, Related, Root, Scope, Skill, count_severities
from .paths import child, is_within, resolves_within
from .references import check_references
from .rules import ParsedSkill, check_document

SKILL_FILE = "SKILL.md"
DEFAULT_BUILTINS = ("help", "model", "reload")

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


def _os_reason(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


_READ_CHUNK_BYTES = 64 * 1024  # what each further read asks for, when a file grew after fstat


def read_skill_bytes(
    path: str, folder: str, link: os.stat_result | None = None
) -> tuple[bytes | None, os.stat_result | None, Diagnostic | None]:
    """Read one `SKILL.md` safely: never a FIFO, never outside `folder`, never more than the bound + 1.
    `link` is the path's `lstat` when the caller has just taken it (discovery does, for its cache).

    Returns (bytes, stat, None) or (None, stat-or-None, the diagnostic that explains why not).
    """
    if link is None:
        try:
            link = os.lstat(path)
        except FileNotFoundError:
            return None, None, codes.SKILL_FILE_MISSING.at(folder, missing_skill_file_message(folder))
        except OSError as exc:
            return None, None, _unreadable(path, exc)
    try:
        info = os.stat(path) if stat.S_ISLNK(link.st_mode) else link
        if stat.S_ISLNK(link.st_mode) and not resolves_within(path, folder):
            return None, info, codes.SKILL_FILE_NOT_REGULAR.at(
                path,
                f"{SKILL_FILE} is a link that resolves outside its skill folder: "
                "replace it with the file itself",
            )
    except FileNotFoundError:
        return None, None, codes.SKILL_FILE_NOT_REGULAR.at(
            path,
            f"{SKILL_FILE} is a broken link: point it at a file or replace it",
        )
    except OSError as exc:
        return None, None, _unreadable(path, exc)
    if not stat.S_ISREG(info.st_mode):
        return None, info, _not_regular(path, info)
    if info.st_size > limits.MAX_SKILL_FILE_BYTES:
        return None, info, _too_large(path, info.st_size)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        return None, info, _unreadable(path, exc)
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # swapped between stat and open
            return None, opened, _not_regular(path, opened)
        chunks = []
        remaining = limits.MAX_SKILL_FILE_BYTES + 1
        # Ask for the size fstat gave (plus one, to see growth) rather than the whole bound: os.read
        # allocates what it is asked for, and a 1 MiB buffer per file cost more than the rest of the read.
        want = min(remaining, opened.st_size + 1)
        while remaining > 0:
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
            want = min(remaining, _READ_CHUNK_BYTES)
        data = b"".join(chunks)
    except OSError as exc:
        return None, info, _unreadable(path, exc)
    finally:
        os.close(fd)
    if len(data) > limits.MAX_SKILL_FILE_BYTES:  # grew after stat
        return None, info, _too_large(path, len(data))
    return data, opened, None


def missing_skill_file_message(folder: str) -> str:
    """Why a candidate folder has no `SKILL.md`, with the fix, for the traps that hide real skills
    (decisions.md section 7): the file named in other letter case, or skills nested a level too deep."""
    name = os.path.basename(folder)
    found = traps(folder)
    if found.wrong_case is not None:
        return (
            f"`{name}` has `{found.wrong_case}` but no `{SKILL_FILE}`: the name is case-sensitive; "
            f"rename it to `{SKILL_FILE}`"
        )
    if found.nested:
        shown = ", ".join(f"`{path}`" for path in found.nested[: limits.MAX_NESTED_NAMED])
        hidden = len(found.nested) - limits.MAX_NESTED_NAMED
        more = f" and {hidden} more" if hidden > 0 else ""
        if found.truncated:
            more += f", perhaps others (the search stops after {limits.MAX_NESTED_SCAN_ENTRIES} entries)"
        return (
            f"`{name}` has no {SKILL_FILE} but holds skills in subfolders ({shown}{more}): skills must be "
            "immediate children of the skills root; move each skill folder up into the root"
        )
    return (
        f"`{name}` has no {SKILL_FILE}: add one with `name` and `description` frontmatter, or move the folder "
        "out of the skills root"
    )


class Traps(NamedTuple):
    """What a folder without `SKILL.md` holds instead: `wrong_case` the name of a `skill.md` in other letter
    case, `nested` the relative paths of skill folders below it (sorted), `truncated` when the bound on
    entries read stopped the search."""

    wrong_case: str | None
    nested: tuple[str, ...]
    truncated: bool


def traps(folder: str) -> Traps:
    """Look inside a candidate folder with no `SKILL.md`: its entries, and those of its subfolders that
    hold no `SKILL.md` themselves (a plugin bundles skills as `plugin/skills/x/SKILL.md`). At most
    limits.MAX_NESTED_SCAN_ENTRIES directory entries are read in all; links are not followed."""
    budget = [limits.MAX_NESTED_SCAN_ENTRIES]
    entries, truncated = _listing(folder, budget)
    wrong_case = next((e.name for e in entries if e.name.lower() == SKILL_FILE.lower() and _is_file(e)), None)
    nested: list[str] = []
    for child in entries:
        if not _is_folder(child):
            continue
        if os.path.lexists(os.path.join(child.path, SKILL_FILE)):
            nested.append(child.name)
            continue
        grandchildren, cut = _listing(child.path, budget)
        truncated = truncated or cut
        nested += [
            f"{child.name}/{grandchild.name}"
            for grandchild in grandchildren
            if _is_folder(grandchild) and os.path.lexists(os.path.join(grandchild.path, SKILL_FILE))
        ]
    return Traps(wrong_case, tuple(nested), truncated)


def _listing(folder: str, budget: list[int]) -> tuple[list[os.DirEntry[str]], bool]:
    """The visible entries of `folder`, sorted by name, reading at most `budget[0]` entries (spent from
    the shared budget); True when the folder held more."""
    found: list[os.DirEntry[str]] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if budget[0] == 0:
                    return sorted(found, key=lambda e: e.name), True
                budget[0] -= 1
                if not entry.name.startswith("."):
                    found.append(entry)
    except OSError:
        pass
    return sorted(found, key=lambda e: e.name), False


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def read_skill_text(path: str) -> str | None:
    """A `SKILL.md`'s text (BOM skipped), read as safely as discovery reads it; None when it cannot be read
    or is not UTF-8. For features that need a file's text quietly (positions, a winner's range)."""
    from .frontmatter import decode

    data, _info, _problem = read_skill_bytes(path, os.path.dirname(path))
    return decode(data, path)[0] if data is not None else None


def _broken_link(path: str) -> Diagnostic | None:
    """A link in a root that cannot be followed (dangling, or a loop) is most likely a skill whose install
    went wrong: say so rather than let it disappear. A link to a regular file is just a file."""
    try:
        os.stat(path)
    except OSError as exc:
        return codes.UNREADABLE.at(
            path,
            f"`{os.path.basename(path)}` is a link that cannot be followed ({_os_reason(exc)}): "
            "point it at a skill folder or remove it",
        )
    return None


def _unreadable(path: str, exc: OSError) -> Diagnostic:
    return codes.UNREADABLE.at(
        path,
        f"cannot read {path}: {_os_reason(exc)}; check its permissions",
    )


def _not_regular(path: str, info: os.stat_result) -> Diagnostic:
    kind = (
        "a folder"
        if stat.S_ISDIR(info.st_mode)
        else "a FIFO"
        if stat.S_ISFIFO(info.st_mode)
        else "a device or socket"
    )
    return codes.SKILL_FILE_NOT_REGULAR.at(
        path,
        f"{SKILL_FILE} is {kind}, not a regular file: replace it with a file",
    )


def _too_large(path: str, size: int) -> Diagnostic:
    return codes.SKILL_FILE_TOO_LARGE.at(
        path,
        f"{SKILL_FILE} is {size:,} bytes, over the {limits.MAX_SKILL_FILE_BYTES:,}-byte limit: "
        "move long material into files under references/",
    )


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
            if cached is not None and (not linked or resolves_within(path, folder)):
                return cached
    data, info, problem = read_skill_bytes(path, folder, link)
    if problem is not None or data is None or info is None:
        assert problem is not None
        return problem
    parsed = check_document(data, path, os.path.basename(folder))
    if cache is not None:
        cache.put(path, info, parsed)
    return parsed


class _Candidate(NamedTuple):
    folder: str
    scope: Scope
    root: str
    real_folder: str  # links resolved, computed once per root rather than once per skill and reload


def _candidates(roots: list[tuple[str, Scope]], found: list[Diagnostic]) -> tuple[list[Root], list[_Candidate]]:
    """List candidate folders of every root in precedence order; check that linked folders stay inside."""
    described: list[Root] = []
    candidates: list[_Candidate] = []
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
            found.append(_unreadable(root, exc))
            continue
        described.append(Root(root, scope, True))
        real_root = os.path.realpath(root)
        for entry in entries:
            try:
                if not entry.is_dir():  # files beside skills are ignored; a link that leads nowhere is not
                    if entry.is_symlink():
                        broken = _broken_link(entry.path)
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
                found.append(_unreadable(entry.path, exc))
                continue
            candidates.append(_Candidate(entry.path, scope, root, target))
    return described, candidates


def discover(
    workspace: str | None,
    home: str | None = None,
    *,
    user_roots: bool = True,
    builtins: Iterable[str] = DEFAULT_BUILTINS,
    cache: ParseCache | None = None,
) -> Catalog:
    """Run discovery over the roots and return the immutable snapshot.

    `workspace` None means no workspace roots (a session with no folder). `home` defaults to the user's.
    A `cache` makes a rebuild reuse parses of unchanged files.

    The steps: list the candidates of every root, examine each (at most MAX_CANDIDATES), pick the
    winner of each name, then bound the diagnostics into the snapshot.
    """
    builtin_names = tuple(dict.fromkeys(builtins))
    found: list[Diagnostic] = []  # every finding, from every step
    roots, candidates = _candidates(root_paths(workspace, home, user_roots), found)
    notes_path = limit_note_path(workspace, roots)
    candidates, limit_notes = _bound_candidates(candidates, notes_path)
    valid, examined = _examine(candidates, cache, found)
    if cache is not None:
        cache.keep_only(examined)
    skills = _winners(valid, builtin_names, found)
    return _bounded_catalog(workspace, roots, skills, builtin_names, found, examined, limit_notes, notes_path)


def _bound_candidates(candidates: list[_Candidate], notes_path: str) -> tuple[list[_Candidate], list[Diagnostic]]:
    """The first MAX_CANDIDATES candidates, and the `candidate-limit` note (on `notes_path`) when there were
    more."""
    if len(candidates) <= limits.MAX_CANDIDATES:
        return candidates, []
    skipped = candidates[limits.MAX_CANDIDATES :]
    note = codes.CANDIDATE_LIMIT.at(
        notes_path,
        f"{len(skipped)} skill folder(s) were not examined, from {skipped[0].folder} on: discovery stops after "
        f"{limits.MAX_CANDIDATES} candidates; remove unused skills",
    )
    return candidates[: limits.MAX_CANDIDATES], [note]


def _examine(
    candidates: list[_Candidate], cache: ParseCache | None, found: list[Diagnostic]
) -> tuple[list[tuple[ParsedSkill, _Candidate]], list[str]]:
    """Examine every candidate in precedence order: the valid, named skills (still in that order), and the
    path of every `SKILL.md` that was parsed. Findings go to `found`."""
    valid: list[tuple[ParsedSkill, _Candidate]] = []
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


def _winners(
    valid: list[tuple[ParsedSkill, _Candidate]], builtin_names: tuple[str, ...], found: list[Diagnostic]
) -> list[Skill]:
    """The first skill of each name wins (a `collision` on the others); winners named like a built-in are
    reached as `/skill:NAME`. Returned sorted by name, as the catalog lists them."""
    winners: dict[str, tuple[ParsedSkill, _Candidate]] = {}
    for parsed, candidate in valid:
        assert parsed.name is not None
        winner = winners.get(parsed.name)
        if winner is None:
            winners[parsed.name] = (parsed, candidate)
        else:
            found.append(collision(parsed, candidate.scope, winner[0], winner[1].scope))
    skills = []
    for name, (parsed, candidate) in sorted(winners.items()):
        command = f"/{name}"
        if name in builtin_names:
            command = f"/skill:{name}"
            found.append(command_collision(parsed))
        # Advertised without the final line break a folded or literal block scalar ends with.
        description = (parsed.description or "").removesuffix("\n")
        skills.append(Skill(name, description, parsed.path, command, candidate.scope, candidate.root))
    return skills


def _bounded_catalog(
    workspace: str | None,
    roots: list[Root],
    skills: list[Skill],
    builtin_names: tuple[str, ...],
    found: list[Diagnostic],
    examined: list[str],
    limit_notes: list[Diagnostic],
    notes_path: str,
) -> Catalog:
    """The snapshot: every finding per file, and the catalog's list sorted and cut at MAX_DIAGNOSTICS
    (plus the limit notes, which are never cut and sit on `notes_path`), with the counts by severity."""
    found.sort(key=lambda d: d.sort_key)
    per_file: dict[str, list[Diagnostic]] = {}
    for diagnostic in found:
        per_file.setdefault(diagnostic.path, []).append(diagnostic)
    for path in examined:
        per_file.setdefault(path, [])
    kept, dropped = bound_diagnostics(found)
    for note in limit_notes:
        per_file.setdefault(note.path, []).append(note)
    if dropped:
        limit_notes.append(
            codes.DIAGNOSTIC_LIMIT.at(
                notes_path,
                f"{len(dropped)} more diagnostic(s) were not shown after the first {limits.MAX_DIAGNOSTICS} "
                "(errors are kept first): fix these and reload to see the rest",
            )
        )
    return Catalog(
        workspace=os.path.abspath(workspace) if workspace is not None else None,
        roots=tuple(roots),
        skills=tuple(skills),
        diagnostics=tuple(sorted(kept + limit_notes, key=lambda d: d.sort_key)),
        diagnostics_dropped=len(dropped),
        builtins=builtin_names,
        file_diagnostics=MappingProxyType({path: tuple(items) for path, items in per_file.items()}),
        diagnostic_counts=count_severities(found + limit_notes),
        not_shown=count_severities(dropped),
    )


def bound_diagnostics(found: list[Diagnostic]) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """(kept, dropped): the MAX_DIAGNOSTICS kept are errors first, then warnings, then information, and
    within a severity the first in section 3's order (decisions.md section 7), so an error is never hidden
    behind notes. Both lists come back in section 3's order."""
    if len(found) <= limits.MAX_DIAGNOSTICS:
        return sorted(found, key=lambda d: d.sort_key), []
    ranked = sorted(found, key=lambda d: (SEVERITY_RANK[d.severity], d.sort_key))
    kept, dropped = ranked[: limits.MAX_DIAGNOSTICS], ranked[limits.MAX_DIAGNOSTICS :]
    return sorted(kept, key=lambda d: d.sort_key), sorted(dropped, key=lambda d: d.sort_key)


def limit_note_path(workspace: str | None, roots: list[Root]) -> str:
    """Where the limit notes sit: the workspace folder, or without one the first root that exists (never a
    root that does not: an editor or a CI annotation would point at nothing)."""
    if workspace is not None:
        return os.path.abspath(workspace)
    return next((root.path for root in roots if root.exists), roots[0].path if roots else "")


def collision(loser: ParsedSkill, loser_scope: Scope, winner: ParsedSkill, winner_scope: Scope) -> Diagnostic:
    """The warning on a valid skill whose name a skill of higher precedence already holds."""
    why = (
        "workspace skills win over user skills"
        if winner_scope == "workspace" and loser_scope == "user"
        else "an earlier root wins"
    )
    return codes.COLLISION.at(
        loser.path,
        f"skill `{loser.name}` is hidden by {winner.path} ({why}): rename one of them",
        loser.name_range or FILE_START,
        (Related(winner.path, f"`{winner.name}` is defined here and wins", winner.name_range or FILE_START),),
    )


def command_collision(skill: ParsedSkill) -> Diagnostic:
    """The note on a valid skill named like a built-in command: it is reached as `/skill:NAME`."""
    return codes.COMMAND_COLLISION.at(
        skill.path,
        f"`/{skill.name}` is a built-in command, so this skill is reachable as `/skill:{skill.name}`",
        skill.name_range or FILE_START,
    )
