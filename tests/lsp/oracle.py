"""What an editor should show, computed from scratch: a fresh engine session on the tree as it is now, the
open buffers' texts, and positions converted to UTF-16 here, independently of the server's own conversion.

The server keeps state between events (snapshots, a parse cache, what it last published, open buffers);
the oracle keeps none. The sequence tests compare the two after every step.

The conversion follows what the engine's values mean: a diagnostic's range is counted in code points of the
text it was computed from, the open buffer's text for an open file and the disk's otherwise; a collision's
related location is the winner's `name` on the winner's disk text (the engine reads the winner from disk,
whether or not it is open).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from albedo_skills_ls.skills.activation import commands as activation
from albedo_skills_ls.skills.catalog.session import SkillsSession, bounded_file_diagnostics, check_buffer
from albedo_skills_ls.skills.core.model import Diagnostic, Position, Range

from .editor_client import uri

SEVERITY = {"error": 1, "warning": 2, "information": 3}


def disk_text(path: str) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError:
        return ""
    return data.decode("utf-8", "replace").removeprefix("\ufeff")


def utf16_position(text: str, position: Position) -> dict[str, int]:
    lines = text.split("\n")
    line = lines[position.line].removesuffix("\r") if position.line < len(lines) else ""
    return {"line": position.line, "character": len(line[: position.character].encode("utf-16-le")) // 2}


def utf16_range(text: str, where: Range) -> dict[str, Any]:
    return {"start": utf16_position(text, where.start), "end": utf16_position(text, where.end)}


def lsp_json(found: Diagnostic, text: str) -> dict[str, Any]:
    """One diagnostic as the JSON a client receives."""
    value: dict[str, Any] = {
        "range": utf16_range(text, found.range),
        "message": found.message,
        "severity": SEVERITY[found.severity],
        "code": found.code,
        "source": "albedo-skills",
    }
    if found.related:
        value["relatedInformation"] = [
            {"location": {"uri": uri(item.path), "range": utf16_range(disk_text(item.path), item.range)},
             "message": item.message}
            for item in found.related
        ]
    return value


class Expected:
    """The diagnostics of every file (by URI, JSON as sent) and the command catalog, from scratch."""

    def __init__(self, workspace: Path, home: Path, buffers: dict[str, tuple[str, int]]) -> None:
        snapshot = SkillsSession(str(workspace), str(home)).snapshot
        self.catalog = activation.command_catalog(snapshot)
        found: dict[str, tuple[Diagnostic, ...]] = dict(snapshot.file_diagnostics)
        for path, (text, _version) in buffers.items():
            found[path] = check_buffer(snapshot, path, text)
        self.diagnostics: dict[str, list[dict[str, Any]]] = {}
        self.versions: dict[str, int | None] = {}
        for path, items in found.items():
            opened = buffers.get(path)
            text = opened[0] if opened else disk_text(path)
            self.diagnostics[uri(path)] = [lsp_json(item, text) for item in bounded_file_diagnostics(path, items)]
            self.versions[uri(path)] = opened[1] if opened else None


def published_json(params: dict[str, Any]) -> list[dict[str, Any]]:
    """A publish's diagnostics with the keys the oracle computes (the server adds no others today)."""
    return [
        {key: value for key, value in item.items() if key in ("range", "message", "severity", "code", "source", "relatedInformation")}
        for item in params.get("diagnostics", [])
    ]


def differences(expected: Expected, published: dict[str, dict[str, Any]], catalog: list[dict[str, Any]]) -> list[str]:
    """Every way what the client holds differs from the oracle, as readable lines (empty when equal)."""
    problems = []
    for file_uri in sorted(set(expected.diagnostics) | set(published)):
        want = expected.diagnostics.get(file_uri, [])
        got_params = published.get(file_uri, {})
        got = published_json(got_params)
        if got != want:
            problems.append(f"{file_uri}:\n  published {got}\n  expected  {want}")
        elif want and got_params.get("version") != expected.versions.get(file_uri):
            problems.append(f"{file_uri}: published version {got_params.get('version')}, "
                            f"expected {expected.versions.get(file_uri)}")
    if catalog != expected.catalog:
        problems.append(f"commands.catalog:\n  server   {catalog}\n  expected {expected.catalog}")
    return problems
