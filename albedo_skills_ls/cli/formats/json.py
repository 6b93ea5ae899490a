"""The JSON formats: the catalog snapshot is the engine's own `to_json()`; `check` prints its diagnostics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ...skills.security.suppression import Silenced
    from ..checking import CheckReport


def check_report(findings: CheckReport, silenced: tuple[Silenced, ...] = ()) -> dict[str, Any]:
    """`check --format json`: every diagnostic (each as the catalog's JSON has it: absolute paths, 0-based
    positions), the security reading's among them; the counts the text summary prints; then the security
    findings silenced, each with `silenced: {by, reason}` (by a marker, the baseline, or turned off), which
    the counts leave out."""
    return {
        "diagnostics": [d.to_json() for d in findings.diagnostics],
        "diagnostic_counts": dict(findings.counts),
        "skill_folders_examined": findings.folders_examined,
        "skills_in_catalog": findings.in_catalog,
        "silenced": [item.to_json() for item in silenced],
    }
