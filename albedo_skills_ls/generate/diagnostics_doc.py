"""docs/diagnostics.md, rendered whole from the registry of codes (skills/core/codes.py, with the security
codes of skills/core/security_codes.py): one table for the skill codes, one for the security category with
its security-severity."""

from __future__ import annotations

from ..skills.core import security_codes  # noqa: F401  (registers the security codes, after the skill format's)
from ..skills.core.codes import CODES, SECURITY, Code
from .sections import COMMAND

_DOC_HEAD = """\
# Diagnostic codes

<!-- Generated from albedo_skills_ls/skills/core/codes.py by `{command}`: edit the registry, then run the
     command; a test fails when this file differs. -->

Every diagnostic has a stable `code`, a severity, a message that says what to do, and an exact range
(0-based code points in the engine; UTF-16, or the negotiated `positionEncoding`, over LSP; 1-based on the
command line). An `error` leaves the skill out of the catalog; a `warning` or `information` keeps it.
A code whose "what to do" ends in "Quick fix." has an editor code action that applies it.

| code | severity | when | what to do |
| --- | --- | --- | --- |
"""

_DOC_TAIL = """
`skills.resources` reports skipped entries with `symlink-escape`, `resource-loop`, `unreadable`,
`resource-not-regular` (FIFOs, sockets, devices), `resource-name` (a file name that is not UTF-8) and
`resource-limit` (512 files, 2,048 entries or 16 levels reached); there `symlink-escape` and `unreadable`
are warnings about one entry, not errors of the skill.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


_SECURITY_HEAD = """
## Security codes

The `security` category: what a skill would have the model or a script do, read from `SKILL.md` and every
file it bundles and never run (docs/security.md explains each and its limits). `security-severity` is the
0.0-10.0 score GitHub code scanning reads from SARIF.

| code | severity | security-severity | when | what to do |
| --- | --- | --- | --- | --- |
"""


def _row(entry: Code) -> str:
    fix = " Quick fix." if entry.fixable else ""
    score = f" {entry.security_severity} |" if entry.category == SECURITY else ""
    return (
        f'| <a id="{entry.id}"></a>`{entry.id}` | {entry.severity} |{score} {_cell(entry.when)} | '
        f"{_cell(entry.help)}{fix} |\n"
    )


def markdown() -> str:
    """The whole of docs/diagnostics.md: one row per code in registry order, each with its anchor; the
    skill codes in one table, the security category in its own with its security-severity."""
    skill_rows = "".join(_row(entry) for entry in CODES.values() if entry.category != SECURITY)
    security_rows = "".join(_row(entry) for entry in CODES.values() if entry.category == SECURITY)
    return _DOC_HEAD.format(command=COMMAND) + skill_rows + _DOC_TAIL + _SECURITY_HEAD + security_rows


def render(_current: str) -> str:
    return markdown()
