"""The JSON formats: the catalog snapshot is the engine's own `to_json()`; `check` prints its diagnostics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..checking import Findings


def check_report(findings: Findings) -> dict[str, Any]:
    """`check --format json`: every diagnostic (each as the catalog's JSON has it: absolute paths, 0-based
    positions), then the counts the text summary prints."""
    return {
        "diagnostics": [d.to_json() for d in findings.diagnostics],
        "diagnostic_counts": dict(findings.counts),
        "skill_folders_examined": findings.folders_examined,
        "skills_in_catalog": findings.in_catalog,
    }
