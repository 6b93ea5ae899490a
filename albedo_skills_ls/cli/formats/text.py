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
    """`3 skills, 1 error, 70 warnings (7 not shown), 0 information`: every diagnostic found, by severity,
    including those the 64-diagnostic bound left out of the list, and how many of each were not shown."""
    counts, hidden = catalog.diagnostic_counts, catalog.not_shown

    def part(severity: str, text: str) -> str:
        return text + (f" ({hidden[severity]} not shown)" if hidden[severity] else "")

    return ", ".join(
        (
            plural(len(catalog.skills), "skill"),
            part("error", plural(counts["error"], "error")),
            part("warning", plural(counts["warning"], "warning")),
            part("information", f"{counts['information']} information"),
        )
    )


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
