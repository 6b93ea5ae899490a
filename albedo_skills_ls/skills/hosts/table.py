"""The verdicts as people read them: a table skill × agent, the reasons under it, the budgets, one skill's story.

The command line prints `text_report` (the table) and `why_report` (`hosts --why SKILL`); the editor's hover
shows `markdown_for_file`. All come from here so that they say the same thing in the same words. Paths are
written relative to the workspace (`~/` for the home folder) in the table and in the reasons alike; the
table fits `columns` (the terminal's `COLUMNS`, else 100): agents are two-letter column heads, with a legend.
"""

from __future__ import annotations

import os
import textwrap
from typing import TYPE_CHECKING, Callable

from .model import LOADS, NOT_SEEN, SKIPPED, UNKNOWN, WARNS, Verdict

if TYPE_CHECKING:  # pragma: no cover - typing only
    from . import Report
    from .verdicts import HostReport

MARKS = {LOADS: "✓", WARNS: "!", SKIPPED: "✗", NOT_SEEN: "·", UNKNOWN: "?"}
LEGEND = "✓ loads  ! loads, with a warning  ✗ skipped  · not seen (its root is not read)  ? not known"
DEFAULT_COLUMNS = 100
MIN_COLUMNS = 40
STATUS_WORDS = {LOADS: "loads", WARNS: "loads", SKIPPED: "skipped", NOT_SEEN: "not seen", UNKNOWN: "not known"}
Show = Callable[[str], str]


def cell(verdict: Verdict) -> str:
    return MARKS[verdict.status]


class Paths:
    """Paths as the reader sees them: relative to the workspace, `~/…` under the home folder."""

    def __init__(self, report: Report, printable: Show = lambda text: text) -> None:
        self.workspace, self.home, self.printable = report.workspace, report.home, printable

    def path(self, path: str) -> str:
        return self.printable(self._relative(path))

    def _relative(self, path: str) -> str:
        if self.workspace and (path == self.workspace or path.startswith(self.workspace + os.sep)):
            return os.path.relpath(path, self.workspace)
        if path == self.home or path.startswith(self.home + os.sep):
            return "~/" + os.path.relpath(path, self.home)
        return path

    def text(self, text: str) -> str:
        """A reason with the workspace's and home's absolute paths written as the table writes them."""
        if self.workspace:
            text = text.replace(self.workspace + os.sep, "")
        return self.printable(text.replace(self.home + os.sep, "~/"))


def text_report(report: Report, printable: Show = lambda text: text, columns: int = DEFAULT_COLUMNS) -> list[str]:
    """The lines `albedo-skills hosts` prints, none wider than `columns` (paths are shortened from the left)."""
    width = max(columns, MIN_COLUMNS)
    paths = Paths(report, printable)
    heads = [entry.host.short for entry in report.hosts]
    marks_width = 3 * len(heads)
    shown = [paths.path(found.path) for found in report.files]
    path_width = max(8, min(max(len(text) for text in shown + ["SKILL.md"]), width - marks_width - 1))
    lines = _packed("Agents:", [f"{e.host.short} {e.host.title}" for e in report.hosts], width)
    lines += _wrap(LEGEND, width) + [""]
    lines.append(_fit("SKILL.md", path_width) + " " + "".join(head.ljust(3) for head in heads).rstrip())
    for found, text in zip(report.files, shown):
        marks = "".join(cell(entry.verdicts[found.path]).ljust(3) for entry in report.hosts)
        lines.append(_fit(text, path_width) + " " + marks.rstrip())
    for found, text in zip(report.files, shown):
        said = skill_lines(report, found.path, found.folder_name, paths)
        if said:
            lines += ["", text[-width:]] + [wrapped for line in said for wrapped in _wrap(line, width, "    ")]
    budgets = [budget_line(entry) for entry in report.hosts if entry.budget is not None]
    if budgets:
        lines += ["", "Catalog budgets:"] + [w for line in budgets for w in _wrap("  " + line, width, "    ")]
    lines += ["", "Evidence:"]
    for entry in report.hosts:
        lines += _wrap(f"  {entry.host.short} {entry.host.evidence}", width, "     ")
    if report.truncated:
        lines += [""] + _wrap(f"Not every file was judged: {report.truncated.sentence(paths.path)}.", width)
    return lines


def skill_lines(report: Report, path: str, folder: str, paths: Paths) -> list[str]:
    """Under a skill's row: the names agents give it where they differ from the folder, then one line per
    distinct reason with the agents that give it ("all" when every agent judged gives it), no clause twice."""
    lines: list[str] = []
    names: dict[str, list[str]] = {}
    for entry in report.hosts:
        verdict = entry.verdicts[path]
        if verdict.loads and verdict.name is not None and verdict.name != folder:
            names.setdefault(verdict.name, []).append(entry.host.short)
    if names:
        lines.append("  named " + "; ".join(f"{_quoted(name)} by {', '.join(ids)}" for name, ids in names.items())
                     + f" (the folder is {_quoted(folder)})")
    groups: dict[tuple[str, str], list[str]] = {}
    for entry in report.hosts:
        verdict = entry.verdicts[path]
        if verdict.reason is None or verdict.status == NOT_SEEN:
            continue
        groups.setdefault((cell(verdict), paths.text(verdict.reason)), []).append(entry.host.short)
    said: set[str] = set()
    for (mark, reason), ids in groups.items():
        clauses = [clause for clause in _clauses(reason) if clause not in said]
        said.update(clauses)
        who = "all" if len(ids) == len(report.hosts) > 1 else ", ".join(ids)
        lines.append(f"  {mark} {who}: " + ("; ".join(clauses) if clauses else "as said above"))
    return lines


def _clauses(reason: str) -> list[str]:
    return [clause.strip().rstrip(".") for clause in reason.split("; ") if clause.strip()]


def _quoted(name: str) -> str:
    return "`" + name.replace("\n", "\\n") + "`" if name else "an empty name"


def _fit(text: str, width: int) -> str:
    return text.ljust(width) if len(text) <= width else "…" + text[-(width - 1):]


def _packed(head: str, items: list[str], width: int) -> list[str]:
    """`head` then the items, two spaces apart, a line broken only between items."""
    lines, line = [], head
    for item in items:
        if len(line) + 2 + len(item) > width and line.strip():
            lines.append(line)
            line = " " * (len(head) - 1)
        line += "  " + item
    return lines + [line]


def _wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False) or [""]


def why_report(report: Report, path: str, printable: Show = lambda text: text, columns: int = DEFAULT_COLUMNS) -> list[str]:
    """One skill's full story, agent by agent: the verdict, the name, what its model reads, why, and how known."""
    width = max(columns, MIN_COLUMNS)
    paths = Paths(report, printable)
    lines = [paths.path(path)]
    for entry in report.hosts:
        verdict = entry.verdicts[path]
        named = f" as {_quoted(verdict.name)}" if verdict.loads and verdict.name is not None else ""
        lines += ["", f"{cell(verdict)} {entry.host.title}: {STATUS_WORDS[verdict.status]}{named}"]
        if verdict.loads:
            lines += _wrap("    the model reads: " + seen_words(verdict), width, "      ")
        if verdict.reason:
            lines += _wrap("    why: " + paths.text(verdict.reason), width, "      ")
        lines += _wrap(f"    known: {entry.host.evidence}", width, "      ")
    return lines


def seen_words(verdict: Verdict) -> str:
    """What the agent's model is shown of the description: whole, cut (to what), or none."""
    text = verdict.description_seen
    if not text:
        return "the name alone, no description"
    flat = " ".join(text.split())
    return f"\"{flat[:120]}…\" ({len(text):,} characters)" if len(flat) > 120 else f"\"{flat}\""


def budget_line(entry: HostReport) -> str:
    budget = entry.budget
    assert budget is not None
    head = entry.host.short
    if budget.total is None:
        return f"{head}: {budget.used:,} {budget.unit} ({budget.figure})"
    share = 100 * budget.used / budget.total
    over = ""
    if budget.over:
        over = f"; over: {len(budget.cut)} description(s) cut, {len(budget.left_out)} skill(s) left out"
    return f"{head}: {budget.used:,} of {budget.total:,} {budget.unit} ({share:.0f}%; {budget.figure}){over}"


def budget_brief(entry: HostReport) -> str:
    """The budget in a few words, for the hover: used of total, and what the overflow does."""
    budget = entry.budget
    assert budget is not None
    if budget.total is None:
        return f"{budget.used:,} {budget.unit}"
    over = f", over: {len(budget.cut)} cut, {len(budget.left_out)} left out" if budget.over else ""
    return f"{budget.used:,} of {budget.total:,} {budget.unit} ({100 * budget.used / budget.total:.0f}%{over})"


def markdown_for_file(report: Report, path: str) -> str | None:
    """The hover on a SKILL.md's opening `---`: how many agents load it, the exceptions with one line each,
    and the command that prints the whole story."""
    rows = [(entry, entry.verdicts[path]) for entry in report.hosts if path in entry.verdicts]
    if not rows:
        return None
    paths = Paths(report)
    loading = sum(1 for _entry, verdict in rows if verdict.loads)
    head = f"**Loads in {loading} of {len(rows)} agents**"
    exceptions = []
    for entry, verdict in rows:
        if verdict.status == LOADS:
            continue
        reason = _clauses(paths.text(verdict.reason or ""))[:1]
        one = (reason[0][:140] + "…" if len(reason[0]) > 140 else reason[0]) if reason else ""
        one = one.replace("|", "\\|").replace("\n", " ")
        exceptions.append(f"- {cell(verdict)} {entry.host.title}: {STATUS_WORDS[verdict.status]}" + (f" — {one}" if one else ""))
    budgets = [f"- {entry.host.title}: {budget_brief(entry)}" for entry, _v in rows if entry.budget is not None]
    folder = os.path.basename(os.path.dirname(path))
    parts = [head, "\n".join(exceptions)] if exceptions else [head]
    if budgets:
        parts.append("Catalog budgets:\n" + "\n".join(budgets))
    parts.append(f"{LEGEND}\n\nThe whole story, agent by agent: `albedo-skills hosts --why {folder}`")
    return "\n\n".join(parts)
