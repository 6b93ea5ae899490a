"""The verdicts as people read them: a table skill × agent, the reasons under it, the budgets.

The command line prints `text_report`; the editor's hover shows `markdown_for_file`. Both come from here so
that they say the same thing in the same words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import LOADS, NOT_SEEN, SKIPPED, WARNS, Verdict

if TYPE_CHECKING:  # pragma: no cover - typing only
    from . import Report
    from .verdicts import HostReport

MARKS = {LOADS: "✓", WARNS: "!", SKIPPED: "✗", NOT_SEEN: "·"}
LEGEND = "✓ loads   ! loads, with a warning   ✗ skipped   · not seen (its root is not read)"


def cell(verdict: Verdict) -> str:
    return MARKS[verdict.status]


def text_report(report: Report, shown: callable) -> list[str]:  # type: ignore[valid-type]
    """The lines `albedo-skills hosts` prints. `shown` turns a path into what the terminal shows."""
    ids = [entry.host.id for entry in report.hosts]
    names = [shown(found.path) for found in report.files]
    width = max([len(name) for name in names] + [len("SKILL.md")])
    header = "SKILL.md".ljust(width) + "  " + "  ".join(ids)
    lines = [header]
    for found, name in zip(report.files, names):
        marks = []
        for entry in report.hosts:
            marks.append(cell(entry.verdicts[found.path]).center(len(entry.host.id)))
        lines.append(name.ljust(width) + "  " + "  ".join(marks))
    lines += ["", LEGEND]
    for found, name in zip(report.files, names):
        said = [
            f"  {entry.host.id}: {_phrase(entry.verdicts[found.path])}"
            for entry in report.hosts
            if entry.verdicts[found.path].reason is not None and entry.verdicts[found.path].status != NOT_SEEN
        ]
        if said:
            lines += ["", name] + said
    budgets = [budget_line(entry) for entry in report.hosts if entry.budget is not None]
    if budgets:
        lines += ["", "Catalog budgets:"] + [f"  {line}" for line in budgets]
    lines += ["", "Evidence:"] + [f"  {entry.host.id} {entry.host.version}: {entry.host.evidence}" for entry in report.hosts]
    if report.truncated:
        lines += ["", f"Not every file was judged: {report.truncated.sentence(shown)}."]
    return lines


def _phrase(verdict: Verdict) -> str:
    what = {LOADS: "loads", WARNS: "loads", SKIPPED: "skipped", NOT_SEEN: "not seen"}[verdict.status]
    named = f" as {verdict.name}" if verdict.loads and verdict.name else ""
    reason = verdict.reason or ""
    if reason.startswith(what):  # "skipped silently: ..." says it already
        return reason
    return f"{what}{named}: {reason}"


def budget_line(entry: HostReport) -> str:
    budget = entry.budget
    assert budget is not None
    if budget.total is None:
        return f"{entry.host.id}: {budget.used:,} {budget.unit} ({budget.figure})"
    share = 100 * budget.used / budget.total
    over = ""
    if budget.over:
        over = f"; over: {len(budget.cut)} description(s) cut, {len(budget.left_out)} skill(s) left out"
    return f"{entry.host.id}: {budget.used:,} of {budget.total:,} {budget.unit} ({share:.0f}%; {budget.figure}){over}"


def markdown_for_file(report: Report, path: str) -> str | None:
    """The hover on a SKILL.md's opening `---`: one row per agent, with its verdict, name and reason."""
    rows = []
    for entry in report.hosts:
        verdict = entry.verdicts.get(path)
        if verdict is None:
            continue
        reason = (verdict.reason or "").replace("|", "\\|").replace("\n", " ")
        name = f"`{verdict.name}`" if verdict.loads and verdict.name else ""
        rows.append(f"| {entry.host.title} | {cell(verdict)} | {name} | {reason} |")
    if not rows:
        return None
    head = "**Which agents load this skill**\n\n| agent | | name | why |\n| --- | --- | --- | --- |\n"
    evidence = "; ".join(f"{entry.host.id}: {entry.host.evidence}" for entry in report.hosts)
    return head + "\n".join(rows) + f"\n\n{LEGEND}\n\n_Evidence_: {evidence}"
