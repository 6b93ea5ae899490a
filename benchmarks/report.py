"""The numbers and the table: timing loops, one `Row` per measurement, goals, ratios and the Markdown table."""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(0.95 * len(ordered)) - 1))]


def bench(fn: Callable[[], Any], runs: int, warmup: int, setup: Callable[[], Any] | None = None) -> list[float]:
    """`runs` timings of `fn()` in ms, after `warmup` untimed calls; `setup()` runs untimed before each."""
    for _ in range(warmup):
        if setup:
            setup()
        fn()
    samples = []
    for _ in range(runs):
        if setup:
            setup()
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


@dataclass
class Row:
    group: str
    name: str
    samples: list[float] | None = None  # ms
    value: str | None = None  # shown instead of median when set (ratios, MiB, n/a)
    goal: str = "—"
    met: bool | None = None
    note: str = ""

    @property
    def median(self) -> float | None:
        return statistics.median(self.samples) if self.samples else None

    def cells(self) -> list[str]:
        if self.value is not None:
            median, high, low, runs = self.value, "—", "—", str(len(self.samples)) if self.samples else "—"
        elif self.samples:
            median, high, low = fmt_ms(self.median), fmt_ms(p95(self.samples)), fmt_ms(min(self.samples))
            runs = str(len(self.samples))
        else:
            median, high, low, runs = "n/a", "—", "—", "—"
        met = "—" if self.met is None else ("yes" if self.met else "**no**")
        return [self.group, self.name, median, high, low, runs, self.goal, met, self.note]


def fmt_ms(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value < 1:
        return f"{value:.3f} ms"
    if value < 10:
        return f"{value:.2f} ms"
    return f"{value:.1f} ms"


def goal_ms(row: Row, limit: float, p95_limit: float | None = None) -> Row:
    """The goal on the median, and also on the p95 when `p95_limit` is given."""
    row.goal = f"≤ {limit:g} ms" + (f", p95 ≤ {p95_limit:g} ms" if p95_limit is not None else "")
    row.met = row.median is not None and row.median <= limit
    if p95_limit is not None and row.samples:
        row.met = row.met and p95(row.samples) <= p95_limit
    return row


def ratio_row(group: str, name: str, ours: Row, theirs: Row, limit: float | None, note: str = "") -> Row:
    """The ratio of the medians, judged against `limit` (None: context, no goal)."""
    goal = "—" if limit is None else f"≤ {limit:g}×"
    if ours.median is None or theirs.median is None:
        return Row(group, name, value="n/a", goal=goal, note=note)
    ratio = ours.median / theirs.median
    return Row(group, name, value=f"{ratio:.2f}×", goal=goal, met=None if limit is None else ratio <= limit, note=note)


def minima_ratio(ours: Row, theirs: Row) -> str:
    """The ratio of the minima, as a note: on a shared machine the minimum is the steadiest figure."""
    if not ours.samples or not theirs.samples:
        return ""
    return f"ratio of the minima {min(ours.samples) / min(theirs.samples):.2f}×"


def paired_ratios(ours: Row, theirs: Row) -> str:
    """The ratio of the medians, the median of the round-by-round ratios and the ratio of the minima, as a
    note: the samples must come in rounds (the i-th of each taken in the same round), so each round's ratio
    compares two runs made moments apart, under the same load."""
    if not ours.samples or not theirs.samples or len(ours.samples) != len(theirs.samples):
        return minima_ratio(ours, theirs)
    per_round = statistics.median(a / b for a, b in zip(ours.samples, theirs.samples))
    return f"median of the per-round ratios {per_round:.2f}×; {minima_ratio(ours, theirs)}"


def table(rows: list[Row]) -> str:
    head = ["group", "measurement", "median", "p95", "min", "runs", "goal", "met?", "note"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row.cells()) + " |" for row in rows]
    return "\n".join(lines)
