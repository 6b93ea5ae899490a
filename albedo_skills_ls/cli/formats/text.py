"""The human formats: `path:line:col: severity code message`, the summary line, and the catalog table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..output import display_path, plural, printable

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ...skills.model import Catalog, Diagnostic


def format_location(diagnostic: Diagnostic) -> str:
    """`path:line:col`, with the engine's 0-based position shown 1-based."""
    start = diagnostic.range.start
    return f"{printable(display_path(diagnostic.path))}:{start.line + 1}:{start.character + 1}"


def format_diagnostic(diagnostic: Diagnostic) -> str:
    """`path:line:col: severity code message`."""
    return f"{format_location(diagnostic)}: {diagnostic.severity} {diagnostic.code} {printable(diagnostic.message)}"


def summary(catalog: Catalog) -> str:
    """`3 skills, 1 error, 2 warnings, 0 information` (plus how many diagnostics were dropped)."""
    counts = {"error": 0, "warning": 0, "information": 0}
    for diagnostic in catalog.diagnostics:
        counts[diagnostic.severity] = counts.get(diagnostic.severity, 0) + 1
    line = ", ".join(
        (
            plural(len(catalog.skills), "skill"),
            plural(counts["error"], "error"),
            plural(counts["warning"], "warning"),
            f"{counts['information']} information",
        )
    )
    if catalog.diagnostics_dropped:
        line += f" ({catalog.diagnostics_dropped} more dropped)"
    return line


def _first_line(text: str, width: int = 72) -> str:
    line = text.strip().split("\n", 1)[0].strip()
    return line if len(line) <= width else line[: width - 3].rstrip() + "..."


def catalog_table(catalog: Catalog) -> str:
    """Skills as aligned columns (command, scope, path, first line of the description), then diagnostics."""
    header = ("COMMAND", "SCOPE", "PATH", "DESCRIPTION")
    rows = [
        (
            printable(skill.command),
            skill.scope,
            printable(display_path(skill.path)),
            printable(_first_line(skill.description)),
        )
        for skill in catalog.skills
    ]
    lines = []
    if rows:
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(3)]
        for row in [header, *rows]:
            lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])
    else:
        lines.append("no skills found")
    if catalog.diagnostics:
        lines.append("")
        lines.extend(format_diagnostic(d) for d in catalog.diagnostics)
    lines.append("")
    lines.append(summary(catalog))
    return "\n".join(lines) + "\n"
