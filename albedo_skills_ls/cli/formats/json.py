"""The JSON formats: the catalog snapshot is the engine's own `to_json()`; `check` prints its diagnostics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ...skills.model import Catalog
    from ...skills.security.suppression import Silenced


def check_report(catalog: Catalog, silenced: tuple[Silenced, ...] = ()) -> dict[str, Any]:
    """`check --format json`: the catalog's diagnostics, exactly as `catalog --format json` has them, with
    the security reading's among them (which `catalog` does not run); how many of each severity were found
    in all and how many of those the 64-diagnostic bound left out; then the security findings silenced, each
    with `silenced: {by, reason}` (by a marker, the baseline, or turned off), which the counts leave out."""
    return {
        "diagnostics": [d.to_json() for d in catalog.diagnostics],
        "diagnostics_dropped": catalog.diagnostics_dropped,
        "diagnostic_counts": dict(catalog.diagnostic_counts),
        "not_shown": dict(catalog.not_shown),
        "silenced": [item.to_json() for item in silenced],
    }
