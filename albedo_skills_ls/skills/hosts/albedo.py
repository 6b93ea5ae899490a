"""Albedo itself: its verdicts are read off discovery's own catalog, never re-derived."""

from __future__ import annotations

import os

from ... import __version__
from ..catalog.candidates import USER_ROOTS, WORKSPACE_ROOTS
from ..catalog.discovery import discover
from ..core.model import ERROR, WARNING
from ..core.paths import child
from .model import LOADS, NOT_SEEN, SKIPPED, WARNS, Duplicates, Evidence, HostModel, Rule, Verdict, Walk
from .walker import Found

LABEL = "Albedo"


def verdicts(files: tuple[Found, ...], workspace: str | None, home: str) -> dict[str, Verdict]:
    catalog = discover(workspace, home)
    roots = {os.path.normpath(root.path) for root in catalog.roots}
    loaded = {skill.path: skill for skill in catalog.skills}
    found: dict[str, Verdict] = {}
    for file in files:
        if file.root not in roots:
            found[file.path] = Verdict(NOT_SEEN, reason=f"Albedo does not read {file.root}; {MODEL.advice}")
            continue
        skill = loaded.get(file.path)
        own = catalog.file_diagnostics.get(file.path, ())
        if skill is not None:
            warning = next((d.message for d in own if d.severity == WARNING), None)
            found[file.path] = Verdict(WARNS if warning else LOADS, skill.command.lstrip("/"), skill.description, warning)
            continue
        # why not: the file's own error or collision, else what discovery said about its candidate folder
        folder = child(file.root, file.parts[0]) if file.levels > 0 else file.root
        said = [d for d in own if d.severity in (ERROR, WARNING)] or list(catalog.file_diagnostics.get(folder, ()))
        reason = said[0].message if said else f"Albedo reads only {file.root}/<folder>/SKILL.md"
        found[file.path] = Verdict(SKIPPED, reason=reason)
    return found


MODEL = HostModel(
    id="albedo",
    short="al",
    label=LABEL,
    evidence=Evidence(__version__, f"this program's own discovery (albedo-skills {__version__}), the spec's rules", "this program"),
    roots=tuple(("workspace", relative) for relative, _scope in WORKSPACE_ROOTS)
    + tuple(("home", relative) for relative, _scope in USER_ROOTS),
    walk=Walk(max_levels=1),
    duplicates=Duplicates(
        "first", "skill `{name}` is hidden by {winner} (collision)", "spec: the first root wins, with a warning"
    ),
    budget=None,
    rules=(Rule("the Albedo skills specification, as `albedo-skills check` applies it", "this program"),),
    judge=None,
    advice="put the skill in .agents/skills or .albedo/skills",
    verdicts=verdicts,
)
