"""The figures an editor shows inline for one `SKILL.md`, taken from the agents' report (`hosts.report`, the
values `albedo-skills hosts --format json` prints): how many of the chosen agents load it, which do not and
why, and where an agent cuts its description.

A file reached through several paths (a mirror link in another agent's root) is one skill: an agent loads it
when it loads any of those paths, and its cut is the one on the path it loads.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, NamedTuple

from ..core import limits

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..hosts import Report
    from ..hosts.model import Verdict


class AgentFigures(NamedTuple):
    total: int  # agents judged
    loading: tuple[str, ...]  # labels of the agents that load it
    not_loading: tuple[tuple[str, str], ...]  # (label, why)
    cuts: tuple[tuple[str, int], ...]  # (label, characters of the description its model is shown), when shorter


def _same_file(report: Report, path: str) -> list[str]:
    real = os.path.realpath(path)
    return [found.path for found in report.files if found.path == path or os.path.realpath(found.path) == real]


def figures_for(report: Report, path: str, description_length: int) -> AgentFigures:
    """The chosen agents' verdicts on the file at `path` (whose description is `description_length` long)."""
    paths = _same_file(report, path)
    loading: list[str] = []
    not_loading: list[tuple[str, str]] = []
    cuts: list[tuple[str, int]] = []
    for entry in report.hosts:
        verdicts: list[Verdict] = [entry.verdicts[p] for p in paths if p in entry.verdicts]
        loaded = next((verdict for verdict in verdicts if verdict.loads), None)
        label = entry.host.label
        if loaded is None:
            why = next((verdict.reason for verdict in verdicts if verdict.reason), None) or "not under any folder it reads"
            not_loading.append((label, why))
            continue
        loading.append(label)
        seen = loaded.description_seen
        if seen is not None and len(seen) < description_length:
            cuts.append((label, len(seen)))
    return AgentFigures(len(report.hosts), tuple(loading), tuple(not_loading), tuple(cuts))


def lens_title(figures: AgentFigures) -> str:
    """`loads in 4 of 5 agents · not in Gemini CLI`."""
    title = f"loads in {len(figures.loading)} of {figures.total} agent{'s' if figures.total != 1 else ''}"
    if figures.not_loading:
        title += " · not in " + ", ".join(label for label, _why in figures.not_loading)
    return title


def description_hint(length: int, figures: AgentFigures | None) -> str:
    """`412 / 1,024 · cut to 90 in Codex CLI`: the description's length against the spec's limit, then each
    chosen agent that shows its model less."""
    text = f"{length:,} / {limits.MAX_DESCRIPTION_CHARS:,}"
    for label, shown in figures.cuts if figures else ():
        text += f" · cut to {shown:,} in {label}"
    return text


def hint_position(text: str, key: str) -> tuple[int, int] | None:
    """(line, character) at the end of the line holding the top-level `key:` of a frontmatter, where an
    inline hint about its value goes; None without that key."""
    from .fields import frontmatter_lines, top_key
    from ..document.frontmatter import lines_of

    lines = lines_of(text)
    span = frontmatter_lines(lines)
    if span is None:
        return None
    for number in range(span[0], min(span[1], len(lines))):
        line = lines[number].rstrip("\r\n")
        if top_key(line) == key:
            return number, len(line)
    return None
