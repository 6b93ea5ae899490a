"""The human formats: `path:line:col: severity code message`, the summary line, and the catalog table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..output import display_path, plural, printable, shown_message

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ...skills.core.model import Catalog, Diagnostic
    from ..checking import CheckReport


def format_location(diagnostic: Diagnostic) -> str:
    """`path:line:col`, with the engine's 0-based position shown 1-based."""
    start = diagnostic.range.start
    return f"{printable(display_path(diagnostic.path))}:{start.line + 1}:{start.character + 1}"


def format_diagnostic(diagnostic: Diagnostic) -> str:
    """`path:line:col: severity code message`."""
    message = printable(shown_message(diagnostic.message))
    return f"{format_location(diagnostic)}: {diagnostic.severity} {diagnostic.code} {message}"


def summary(findings: CheckReport) -> str:
    """`12 skill folders examined, 2 in the catalog, 9 errors, 0 warnings`, then `, 3 information` when
    there is any: what `check` examined, what would enter the catalog, and every finding by severity."""
    counts = findings.counts
    parts = [
        f"{plural(findings.folders_examined, 'skill folder')} examined",
        f"{findings.in_catalog} in the catalog",
        plural(counts["error"], "error"),
        plural(counts["warning"], "warning"),
    ]
    if counts["information"]:
        parts.append(f"{counts['information']} information")
    return ", ".join(parts)


def catalog_summary(catalog: Catalog) -> str:
    """The catalog table's last line: `3 skills, 1 error, 70 warnings (7 not shown), 0 information`: every
    diagnostic found, by severity, and how many of each the catalog's 64-diagnostic bound left out of it."""
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
    lines.append(catalog_summary(catalog))
    return "\n".join(lines) + "\n"
