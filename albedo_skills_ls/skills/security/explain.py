"""What the editor's hover says about a security finding: what the text does, what to check, and how to
silence it with a reason when it is intended."""

from __future__ import annotations

from ..core import codes
from ..core.model import Diagnostic, Position
from .suppression import MARKER, is_markdown


def covers(diagnostic: Diagnostic, line: int, character: int) -> bool:
    """Whether the position lies within the finding's range (its ends included, so a hover on the last
    character of a one-character range still finds it)."""
    start, end = diagnostic.range
    return (start.line, start.character) <= (line, character) <= (end.line, end.character)


def findings_at(found: tuple[Diagnostic, ...], position: Position) -> list[Diagnostic]:
    return [
        diagnostic
        for diagnostic in found
        if diagnostic.code in codes.CODES
        and codes.CODES[diagnostic.code].category == codes.SECURITY
        and covers(diagnostic, position.line, position.character)
    ]


def marker_example(code_id: str, path: str) -> str:
    if is_markdown(path):
        return f"<!-- {MARKER} {code_id}: why this is safe -->"
    return f"# {MARKER} {code_id}: why this is safe"


def hover_markdown(found: list[Diagnostic]) -> str:
    """One section per finding under the pointer: the message, the code's summary and what to check, and the
    three ways to silence it (a marker with a reason, the setting, the baseline in CI)."""
    sections = []
    for diagnostic in found:
        code = codes.CODES[diagnostic.code]
        sections.append(
            "\n\n".join(
                (
                    f"**Security: `{code.id}`** (severity {code.security_severity} of 10)",
                    diagnostic.message,
                    f"{code.summary} What to check: {code.help}",
                    "If it is intended, silence this one finding with a reason on the line above (the reason is "
                    f"shown wherever the finding is listed):\n\n```\n{marker_example(code.id, diagnostic.path)}\n```",
                    f"`albedoSkills.security.disabledCodes` turns `{code.id}` off in the editor; "
                    "`albedoSkills.security.enable` the whole reading. In CI, `albedo-skills check --baseline FILE` "
                    "accepts the findings a team has reviewed.",
                )
            )
        )
    return "\n\n---\n\n".join(sections)
