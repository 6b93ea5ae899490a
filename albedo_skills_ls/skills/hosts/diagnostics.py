"""The chosen agents' refusals as diagnostics, for `check --hosts` and the `albedoSkills.hosts` setting.

These are extra findings, shown beside Albedo's own: they never enter the catalog nor change its verdicts
(docs/design.md#9-other-chats-and-other-agents). The `albedo` model gives none (its findings are already Albedo's diagnostics), and
a file's loads-with-a-warning verdicts stay in the table, not in the problems list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import codes
from ..core.model import Diagnostic
from .common import SILENT
from .model import NOT_SEEN, SKIPPED

if TYPE_CHECKING:  # pragma: no cover - typing only
    from . import Report

OWN = "albedo"


def host_diagnostics(report: Report) -> dict[str, tuple[Diagnostic, ...]]:
    """Per file: each chosen agent's refusal (skipped, not seen, or cut by its budget), in the report's order."""
    found: dict[str, list[Diagnostic]] = {}
    for entry in report.hosts:
        host = entry.host
        if host.id == OWN:
            continue
        budget = entry.budget
        squeezed = set(budget.cut + budget.left_out) if budget is not None else set()
        for path, verdict in entry.verdicts.items():
            said = host.title
            how = f" ({host.evidence.short})"
            if path in squeezed:
                diagnostic = codes.HOST_BUDGET.at(path, f"{said}: {verdict.reason}{how}")
            elif verdict.status == SKIPPED:
                reason = verdict.reason or ""
                quietly = reason.startswith(SILENT + ": ")
                skips = "skips this skill silently" if quietly else "skips this skill"
                reason = reason.removeprefix(SILENT + ": ")
                diagnostic = codes.HOST_SKIPPED.at(path, f"{said} {skips}: {reason}{how}")
            elif verdict.status == NOT_SEEN:
                diagnostic = codes.HOST_NOT_SEEN.at(path, f"{said}: {verdict.reason}{how}")
            else:
                continue
            found.setdefault(path, []).append(diagnostic)
    return {path: tuple(items) for path, items in found.items()}
