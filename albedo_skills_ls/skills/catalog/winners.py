"""From the examined candidates to the snapshot: the winner of each name, the collisions, and the bounds on
what the catalog lists (docs/design.md#3-discovery and
docs/design.md#7-what-real-skills-taught)."""

from __future__ import annotations

import os
from types import MappingProxyType

from ..core import codes, limits
from .candidates import Candidate
from ..core.model import FILE_START, SEVERITIES, Catalog, Diagnostic, Related, Root, Scope, Skill, count_severities
from ..document.rules import ParsedSkill


def pick_winners(
    valid: list[tuple[ParsedSkill, Candidate]], builtin_names: tuple[str, ...], found: list[Diagnostic]
) -> list[Skill]:
    """The first skill of each name wins (a `collision` on the others); winners named like a built-in are
    reached as `/skill:NAME`. Returned sorted by name, as the catalog lists them."""
    winners: dict[str, tuple[ParsedSkill, Candidate]] = {}
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


def bounded_catalog(
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
    within a severity the first in section 3's order (docs/design.md#7-what-real-skills-taught), so an error is never hidden
    behind notes. Both lists come back in section 3's order."""
    in_order = sorted(found, key=lambda d: d.sort_key)  # each key built once: a file may give 30,000
    if len(in_order) <= limits.MAX_DIAGNOSTICS:
        return in_order, []
    # the first MAX_DIAGNOSTICS by (severity, order): each severity's places, already in order, end to end
    ranked = [place for severity in SEVERITIES for place, d in enumerate(in_order) if d.severity == severity]
    kept = set(ranked[: limits.MAX_DIAGNOSTICS])
    return [d for place, d in enumerate(in_order) if place in kept], [
        d for place, d in enumerate(in_order) if place not in kept
    ]


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
