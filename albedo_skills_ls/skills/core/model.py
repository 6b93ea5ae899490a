"""The engine's plain, frozen values.

Positions are 0-based; `character` counts Unicode code points within the line (a Python string index).
The language server converts them to UTF-16 (or UTF-8/UTF-32) at its edge; the command line prints them
1-based. Every value here is immutable, so a snapshot can be shared by any number of readers.

The values are NamedTuples rather than frozen dataclasses: just as immutable, about three times cheaper to
build (the YAML reader makes a Range per node), and the command line does not pay for importing
`dataclasses` at every start (see benchmarks/). Assigning to a field raises AttributeError.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Literal, NamedTuple

Severity = Literal["error", "warning", "information"]
Scope = Literal["workspace", "user"]

ERROR: Severity = "error"
WARNING: Severity = "warning"
INFORMATION: Severity = "information"

SEVERITY_RANK = {ERROR: 0, WARNING: 1, INFORMATION: 2}
SEVERITIES: tuple[Severity, ...] = (ERROR, WARNING, INFORMATION)
NO_COUNTS: MappingProxyType[str, int] = MappingProxyType({severity: 0 for severity in SEVERITIES})


def count_severities(diagnostics: Any) -> MappingProxyType[str, int]:
    """How many diagnostics of each severity, every severity present (in SEVERITIES order)."""
    counts = {severity: 0 for severity in SEVERITIES}
    for diagnostic in diagnostics:
        counts[diagnostic.severity] += 1
    return MappingProxyType(counts)


_new = tuple.__new__  # builds a NamedTuple from a tuple of its fields, without a Python-level call


class Position(NamedTuple):
    line: int
    character: int

    def to_json(self) -> dict[str, int]:
        return {"line": self.line, "character": self.character}


class Range(NamedTuple):
    start: Position
    end: Position

    @staticmethod
    def of(line: int, start: int, end_line: int | None = None, end: int | None = None) -> Range:
        # tuple.__new__ directly: a NamedTuple's generated __new__ is a Python call, and ranges are built
        # for every node and diagnostic discovery makes
        return _new(
            Range,
            (
                _new(Position, (line, start)),
                _new(Position, (line if end_line is None else end_line, start if end is None else end)),
            ),
        )

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start.to_json(), "end": self.end.to_json()}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Range:
        start, end = data["start"], data["end"]
        return Range.of(start["line"], start["character"], end["line"], end["character"])


FILE_START = Range.of(0, 0)


class Related(NamedTuple):
    """A second location a diagnostic points at (the winner of a collision)."""

    path: str
    message: str
    range: Range

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "message": self.message, "range": self.range.to_json()}


class Diagnostic(NamedTuple):
    """One finding. `path` is a `SKILL.md`, or a folder when the finding is about the folder itself."""

    path: str
    code: str
    severity: Severity
    message: str
    range: Range = FILE_START
    related: tuple[Related, ...] = ()

    @property
    def sort_key(self) -> tuple[str, int, str, int, str]:
        return (self.path, self.range.start.line, self.code, self.range.start.character, self.message)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "range": self.range.to_json(),
            "related": [r.to_json() for r in self.related],
        }


class Root(NamedTuple):
    """One discovery root, in precedence order."""

    path: str
    scope: Scope
    exists: bool

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "scope": self.scope, "exists": self.exists}


class Skill(NamedTuple):
    """A valid, winning skill as the catalog advertises it: never the body, never optional fields."""

    name: str
    description: str
    path: str  # absolute path of its SKILL.md
    command: str  # "/name", or "/skill:name" when a built-in owns "/name"
    scope: Scope
    root: str

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "path": self.path,
            "command": self.command,
            "scope": self.scope,
            "root": self.root,
        }


class CommandArgument(NamedTuple):
    """One argument a command takes, as `commands.catalog` lists it."""

    name: str
    type: str
    required: bool
    description: str
    values: tuple[str, ...] | None = None  # the values it can take, when they are known (`/reload session`)

    def to_json(self) -> dict[str, Any]:
        name, type_, required, description, values = self
        if values is None:
            return {"name": name, "type": type_, "required": required, "description": description}
        return {"name": name, "type": type_, "required": required, "description": description, "values": list(values)}


CommandKind = Literal["builtin", "skill"]


class CommandEntry(NamedTuple):
    """One entry of `commands.catalog`: a built-in command, or a skill (which also has its path and scope)."""

    command: str  # as typed: "/help", "/demo", "/skill:model"
    name: str
    kind: CommandKind
    description: str
    arguments: tuple[CommandArgument, ...]
    path: str | None = None  # skills only: the SKILL.md
    scope: Scope | None = None  # skills only

    def to_json(self) -> dict[str, Any]:
        # unpacked and built in one literal: `commands.catalog` converts every entry on every request
        command, name, kind, description, arguments, path, scope = self
        arguments_json = list(map(CommandArgument.to_json, arguments))
        if kind == "skill":
            return {
                "command": command,
                "name": name,
                "kind": kind,
                "description": description,
                "arguments": arguments_json,
                "path": path,
                "scope": scope,
            }
        return {
            "command": command,
            "name": name,
            "kind": kind,
            "description": description,
            "arguments": arguments_json,
        }


class Catalog(NamedTuple):
    """The immutable snapshot: discovery's whole result.

    `diagnostics` is the catalog's bounded, sorted list (at most MAX_DIAGNOSTICS plus the limit
    diagnostics). `file_diagnostics` maps every examined `SKILL.md` (and folder) path to all of its own
    diagnostics, for editors that show them per file. `diagnostic_counts` counts every diagnostic found
    (those beyond the bound and the limit notes included) by severity, and `not_shown` those the bound left
    out of `diagnostics`, so a summary can be true about what it does not list. `folders_examined` counts
    the skill folders examined (valid or not), so a summary can tell them from the skills in the catalog.
    """

    workspace: str | None
    roots: tuple[Root, ...]
    skills: tuple[Skill, ...]
    diagnostics: tuple[Diagnostic, ...]
    diagnostics_dropped: int
    builtins: tuple[str, ...]
    file_diagnostics: MappingProxyType[str, tuple[Diagnostic, ...]] = MappingProxyType({})
    diagnostic_counts: MappingProxyType[str, int] = NO_COUNTS
    not_shown: MappingProxyType[str, int] = NO_COUNTS
    folders_examined: int = 0  # skill folders whose SKILL.md (or its absence) was examined: the candidates

    def skill(self, name: str) -> Skill | None:
        for skill in self.skills:
            if skill.name == name:
                return skill
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "workspace": self.workspace,
            "roots": [r.to_json() for r in self.roots],
            "skills": [s.to_json() for s in self.skills],
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "diagnostics_dropped": self.diagnostics_dropped,
        }
