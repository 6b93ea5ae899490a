"""A frontmatter value as each agent's YAML library types it, and the retry two agents make on a failed parse.

The readings differ in three ways the runs showed (scripts/hosts_conformance `generated`):

- a date (`2024-01-02`) is text to a YAML 1.2 core-schema reader (Copilot CLI's, Codex's serde_yaml) and a
  Date to js-yaml (Gemini CLI, OpenCode), which then is not a string;
- a number or a boolean is text to serde_yaml when the field is a string (Codex keeps it as written), and
  not a string to the JavaScript readers;
- Codex, when the parse fails on an unquoted `: `, quotes the `name:` and `description:` values that hold
  one and parses again; when that parse fails too, the first error stands. (OpenCode's retry is another
  rule, in `opencode.py`.)
"""

from __future__ import annotations

import datetime
from typing import Any, Literal

from ..core import programs
from .facts import SkillFacts, YamlProblem, parse_yaml

Kind = Literal["absent", "null", "string", "number", "boolean", "date", "sequence", "mapping"]
MAPPING_VALUES = "mapping values are not allowed"  # libyaml's words for an unquoted `: ` in a plain value
_FIELD_LINE = programs.compile(r"^(?P<key>name|description):[ \t]+(?P<value>.*?)[ \t]*$")


def kind(fields: dict[str, Any] | None, key: str) -> Kind:
    if fields is None or key not in fields:
        return "absent"
    value = fields[key]
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return "date"
    if isinstance(value, list):
        return "sequence"
    if isinstance(value, dict):
        return "mapping"
    return "string"


def as_written(facts: SkillFacts, fields: dict[str, Any] | None, key: str) -> str | None:
    """A scalar field as text, the way a reader that keeps scalars as written gives it (serde_yaml into a
    String; Copilot CLI's YAML 1.2 reader for a date): the string itself, or a number, boolean or date as
    the file writes it. None for absent, null, a sequence or a mapping."""
    found = kind(fields, key)
    if found == "string":
        assert fields is not None
        return fields[key]
    if found in ("number", "boolean", "date"):
        return facts.line_fields.get(key)
    return None


def retried_fields(facts: SkillFacts) -> dict[str, Any] | None:
    """The fields after quoting every `name:`/`description:` plain value that holds `: `, when the parse
    failed on such a value; None when it did not fail that way or the retry fails too."""
    problem = facts.yaml_problem
    if problem is None or facts.frontmatter is None or not problem.problem.startswith(MAPPING_VALUES):
        return None
    lines = []
    for line in facts.frontmatter.splitlines():
        match = _FIELD_LINE.match(line)
        value = match["value"] if match else ""
        if match and ": " in value and value[:1] not in ("'", '"', "|", ">", "[", "{"):
            line = f'{match["key"]}: "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines.append(line)
    fields, again = parse_yaml("\n".join(lines))
    return fields if again is None else None


def yaml_fields(facts: SkillFacts, retry: bool) -> dict[str, Any] | None:
    """The parse an agent works from: the standard one, or (`retry`) the quoted retry when that failed."""
    if facts.fields is not None or not retry:
        return facts.fields
    return retried_fields(facts)


def type_words(found: Kind) -> str:
    return {"sequence": "a list", "mapping": "a mapping", "null": "empty (null)", "number": "a number",
            "boolean": "a boolean", "date": "a date"}.get(found, found)


_TOP_KEY = programs.compile(r"^(?P<key>[^\s#:][^:]*):")


def parse_last_copies(text: str) -> tuple[dict[str, Any] | None, YamlProblem | None]:
    """Parse `text` as a reader that takes a key given twice as its last copy (Claude Code 2.1.332's Bun.YAML,
    run): every copy must still parse, in its place; the earlier ones are renamed for the parse and left out."""
    lines = text.splitlines()
    keys = [match["key"] if (match := _TOP_KEY.match(line)) else None for line in lines]
    last = {key: index for index, key in enumerate(keys) if key is not None}
    renamed = [f"{_EARLIER}{index}{line[len(key):]}" if key is not None and last[key] != index else line
               for index, (key, line) in enumerate(zip(keys, lines))]
    fields, problem = parse_yaml("\n".join(renamed) + "\n")
    if fields is not None:
        fields = {key: value for key, value in fields.items() if not str(key).startswith(_EARLIER)}
    return fields, problem


_EARLIER = "\u2063earlier-copy-"  # starts with an invisible separator: no key a person writes
