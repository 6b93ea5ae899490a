"""What `check` examines and every finding it reports, whatever the target (see targets.py).

The catalog keeps Albedo's bounds (128 skill folders in the catalog, 64 diagnostics in its list) because an
editor and a model read it; `check` is what CI trusts, so it examines the folders past the first 128 too
(for their own findings: they stay out of the catalog, and `candidate-limit` says so) and reports every
finding of every file, in every format, from the catalog's per-file view, never from its bounded list.
"""

from __future__ import annotations

import argparse
import os
import sys
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from .targets import Target
from .workspace import UsageError, folder_argument

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..skills.core.model import Catalog, Diagnostic, Scope


class CheckReport(NamedTuple):
    """Everything one `check` reports: every finding, sorted, and what the summary counts."""

    diagnostics: tuple[Diagnostic, ...]
    counts: dict[str, int]  # by severity
    folders_examined: int
    in_catalog: int


def findings_of(catalog: Catalog) -> CheckReport:
    """Every finding of every file the catalog examined (its per-file view is never bounded)."""
    from ..skills.core.model import count_severities

    every = sorted(
        (diagnostic for found in catalog.file_diagnostics.values() for diagnostic in found), key=lambda d: d.sort_key
    )
    return CheckReport(tuple(every), dict(count_severities(every)), catalog.folders_examined, len(catalog.skills))


def with_added(catalog: Catalog, added: list[Diagnostic]) -> Catalog:
    """The catalog with findings `added` to its per-file view and its counts (the skills are untouched)."""
    from ..skills.core.model import count_severities

    per_file = dict(catalog.file_diagnostics)
    for diagnostic in added:
        per_file[diagnostic.path] = per_file.get(diagnostic.path, ()) + (diagnostic,)
    more = count_severities(added)
    counts = {key: catalog.diagnostic_counts[key] + more[key] for key in catalog.diagnostic_counts}
    return catalog._replace(file_diagnostics=MappingProxyType(per_file), diagnostic_counts=MappingProxyType(counts))


def with_command_findings(catalog: Catalog, target: Target) -> Catalog:
    """`command-unknown` over the catalog's skills and, for a workspace, its `AGENTS.md`, `CLAUDE.md`,
    `GEMINI.md` and chat files. Not for files checked alone (pre-commit): without the skills beside them a
    command of the workspace would look unknown."""
    if target.kind == "files":
        return catalog
    from ..skills.language.unknown_commands import check_catalog, commands_of
    from .program import PROG

    found, truncated = check_catalog(catalog, commands_of(catalog))
    if truncated:
        print(f"{PROG}: {truncated}", file=sys.stderr)
    return with_added(catalog, [diagnostic for items in found.values() for diagnostic in items])


def load_target(target: Target, args: argparse.Namespace) -> Catalog:
    """Discovery (or the single-skill check) of what `target` names, with the shared options."""
    from ..skills.catalog.discovery import DEFAULT_BUILTINS, discover

    if target.kind == "files":
        return check_files(list(target.files))
    builtins = DEFAULT_BUILTINS if args.builtins is None else tuple(name for name in args.builtins if name)
    workspace = target.path if target.kind == "workspace" else None
    return discover(workspace, builtins=builtins, roots=target_roots(target, args), examine_all=True)


def target_roots(target: Target, args: argparse.Namespace) -> list[tuple[str, Scope]]:
    """The roots discovery walks for a workspace, root or folder target, in precedence order."""
    from ..skills.catalog.candidates import root_paths

    assert target.path is not None
    if target.kind == "workspace":
        home = folder_argument(args.home, "home") if args.home is not None and args.user_roots else args.home
        return root_paths(target.path, home, args.user_roots)
    return [(target.path, target.scope)]


def folders_to_read(target: Target, args: argparse.Namespace) -> list[str]:
    """The skill folders the security reading will read, listed before discovery (as its first step lists
    them) so that a helper process can start reading them (reading_ahead.py)."""
    if target.kind == "files":
        return [os.path.dirname(path) for path in target.files]
    from ..skills.catalog.candidates import list_candidates

    _roots, candidates = list_candidates(target_roots(target, args), [])
    return [os.path.abspath(candidate.folder) for candidate in candidates]


def check_files(given: list[str]) -> Catalog:
    """Several `SKILL.md` files (as pre-commit passes them), each checked as `check_file` checks one, in
    one report. They are not a catalog: no collision rule applies between them."""
    from ..skills.core.model import Catalog, count_severities

    parts = [check_file(path) for path in dict.fromkeys(given)]
    per_file = {path: found for part in parts for path, found in part.file_diagnostics.items()}
    found = [diagnostic for diagnostics in per_file.values() for diagnostic in diagnostics]
    skills = sorted((skill for part in parts for skill in part.skills), key=lambda skill: (skill.name, skill.path))
    return Catalog(
        None,
        (),
        tuple(skills),
        tuple(sorted(found, key=lambda d: d.sort_key)),
        0,
        parts[0].builtins,
        MappingProxyType(per_file),
        count_severities(found),
        count_severities([]),
        len(parts),
    )


def check_file(path: str) -> Catalog:
    """One `SKILL.md` (an absolute path; its folder may lack it) checked as a single skill, as an editor
    checks a file outside every root: its folder's name is the expected name and no collision rule
    applies. Read as safely as discovery reads; a folder without the file gets discovery's finding."""
    from ..skills.catalog.session import check_buffer
    from ..skills.catalog.discovery import discover
    from ..skills.document.frontmatter import decode
    from ..skills.core.model import Catalog, Skill, count_severities
    from ..skills.document.rules import check_document
    from ..skills.document.skill_file import read_skill_bytes

    folder = os.path.dirname(path)
    nothing = discover(None, user_roots=False)  # no roots: the file is a skill of its own
    data, _info, problem = read_skill_bytes(path, folder)
    text, problem = decode(data, path) if data is not None else (None, problem)
    skills: tuple[Skill, ...] = ()
    if text is None:
        assert problem is not None
        diagnostics: tuple = (problem,)
    else:
        diagnostics = check_buffer(nothing, path, text)
        parsed = check_document(text, path, os.path.basename(folder))
        if parsed.valid and parsed.name is not None:
            description = (parsed.description or "").removesuffix("\n")
            skills = (Skill(parsed.name, description, path, f"/{parsed.name}", "workspace", os.path.dirname(folder)),)
    return Catalog(
        None,
        (),
        skills,
        diagnostics,
        0,
        nothing.builtins,
        MappingProxyType({problem.path if text is None and problem is not None else path: diagnostics}),
        count_severities(diagnostics),
        count_severities([]),
        1,
    )


def examined_paths(catalog: Catalog) -> list[str]:
    """The files and folders the run examined or found something on (for `targets.require_examined`)."""
    return list(catalog.file_diagnostics)


def reject_usage(args: argparse.Namespace) -> None:
    """The combinations of `check`'s own options that mean nothing."""
    if args.unsafe and not (args.fix or args.diff):
        raise UsageError("--unsafe goes with --fix or --diff")
    if args.diff and args.format != "text":
        raise UsageError("--diff prints a unified diff; it takes no --format")
    if args.diff and args.fix:
        raise UsageError("--diff prints the fixes and writes nothing; --fix writes them: choose one")
