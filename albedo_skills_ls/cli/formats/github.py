"""GitHub Actions annotations.

Workflow commands: https://docs.github.com/actions/reference/workflow-commands-for-github-actions (the
escaping is that of @actions/core's `escapeData` and `escapeProperty`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...skills.core.codes import CODES, SECURITY
from ...skills.core.undecodable import undecodable_escaped
from ..output import display_path, shown_message

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ...skills.core.model import Diagnostic

# The engine's severities as GitHub workflow commands.
GITHUB_COMMAND = {"error": "error", "warning": "warning", "information": "notice"}


def github_escape_data(text: str) -> str:
    return undecodable_escaped(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_escape_property(text: str) -> str:
    return github_escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation_title(code_id: str) -> str:
    """The annotation's title: the code, and for the security category its name and GitHub's 0-10 score
    (`security-fetch-and-run (security, severity 8.0)`), so a reader of the log tells the two kinds apart."""
    code = CODES.get(code_id)
    if code is None or code.category != SECURITY:
        return code_id
    return f"{code_id} ({SECURITY}, severity {code.security_severity})"


def github_annotation(diagnostic: Diagnostic) -> str:
    """`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE::MESSAGE`.

    Columns are 1-based; GitHub shows columns only within one line, so `endColumn` (the last character,
    inclusive) is given only for a single-line range.
    """
    start, end = diagnostic.range.start, diagnostic.range.end
    properties = [
        ("file", display_path(diagnostic.path)),
        ("line", str(start.line + 1)),
        ("col", str(start.character + 1)),
        ("endLine", str(end.line + 1)),
    ]
    if end.line == start.line:
        properties.append(("endColumn", str(max(end.character, start.character + 1))))
    properties.append(("title", annotation_title(diagnostic.code)))
    joined = ",".join(f"{key}={github_escape_property(value)}" for key, value in properties)
    command = GITHUB_COMMAND.get(diagnostic.severity, "notice")
    return f"::{command} {joined}::{github_escape_data(shown_message(diagnostic.message))}"
