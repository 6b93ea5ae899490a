"""SARIF 2.1.0: https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ... import __version__
from ...skills.core.codes import CODES, SECURITY, Code
from ..program import PROG

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ...skills.core.model import Diagnostic

# The engine's severities as SARIF levels.
SARIF_LEVEL = {"error": "error", "warning": "warning", "information": "note"}

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_BASE_ID = "%SRCROOT%"



def sarif_rule(code_id: str) -> dict[str, Any]:
    """A rule's metadata, from the engine's registry of codes (skills/core/codes.py): its one-line summary, when
    it fires, what to do, its registered level, and whether an editor quick fix exists."""
    code = CODES[code_id]
    return {
        "id": code.id,
        "name": code.id,
        "shortDescription": {"text": code.summary},
        "fullDescription": {"text": f"Reported when {code.when}.", "markdown": f"Reported when {code.when}."},
        "help": {"text": code.help, "markdown": code.help},
        "defaultConfiguration": {"level": SARIF_LEVEL[code.severity]},
        "properties": rule_properties(code),
    }


def rule_properties(code: Code) -> dict[str, Any]:
    """A rule's property bag. A security code is tagged `security` with its `security-severity`, the two
    properties GitHub code scanning reads to file the alert as a security one and score it."""
    properties: dict[str, Any] = {"quickFix": code.fixable}
    if code.category == SECURITY:
        properties["tags"] = [SECURITY]
        properties["security-severity"] = code.security_severity
    return properties


def sarif_log(diagnostics: tuple[Diagnostic, ...], workspace: str | None) -> dict[str, Any]:
    """One SARIF run: the rules for the codes used, one result per diagnostic (`check` passes every one).
    Silenced security findings are not passed: GitHub code scanning does not read SARIF's `suppressions` (the
    advanced-security/dismiss-alerts Action exists to apply them, says its README), so a suppressed result
    would open an alert all the same.

    Paths inside the workspace are URIs relative to `%SRCROOT%` (the workspace folder); others (the user
    roots) are absolute `file:` URIs. Messages name paths as the text format does (relative to the
    workspace, `~/` under the home folder). Columns count Unicode code points, as the engine does.
    """
    from pathlib import PurePath
    from urllib.parse import quote

    from ..output import shown_message

    base = workspace.rstrip(os.sep) + os.sep if workspace else None

    def location(path: str, region: Any) -> dict[str, Any]:
        if base is not None and path.startswith(base):
            relative = PurePath(os.path.relpath(path, workspace)).as_posix()
            # the file system's bytes, percent-encoded: a name that is not UTF-8 keeps its true bytes (%FF)
            artifact = {"uri": quote(os.fsencode(relative)), "uriBaseId": SARIF_BASE_ID}
        else:
            artifact = {"uri": PurePath(os.path.abspath(path)).as_uri()}
        return {"physicalLocation": {"artifactLocation": artifact, "region": sarif_region(region)}}

    codes = sorted({diagnostic.code for diagnostic in diagnostics})
    rule_index = {code: index for index, code in enumerate(codes)}
    results = []
    for diagnostic in diagnostics:
        result: dict[str, Any] = {
            "ruleId": diagnostic.code,
            "ruleIndex": rule_index[diagnostic.code],
            "level": SARIF_LEVEL.get(diagnostic.severity, "note"),
            "message": {"text": shown_message(diagnostic.message)},
            "locations": [location(diagnostic.path, diagnostic.range)],
        }
        if diagnostic.related:
            result["relatedLocations"] = [
                {"id": index, **location(related.path, related.range), "message": {"text": shown_message(related.message)}}
                for index, related in enumerate(diagnostic.related)
            ]
        results.append(result)

    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": PROG,
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [sarif_rule(code) for code in codes],
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    if base is not None:
        run["originalUriBaseIds"] = {SARIF_BASE_ID: {"uri": PurePath(base).as_uri() + "/"}}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def sarif_region(range_: Any) -> dict[str, int]:
    """A SARIF region from an engine range: 1-based lines and columns, `endColumn` just past the end."""
    return {
        "startLine": range_.start.line + 1,
        "startColumn": range_.start.character + 1,
        "endLine": range_.end.line + 1,
        "endColumn": range_.end.character + 1,
    }
