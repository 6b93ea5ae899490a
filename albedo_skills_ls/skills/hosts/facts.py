"""One file's content as the agents read it: the delimiters, a standard YAML parse, a line fallback, the body.

The agents do not share Albedo's reader: most use a standard YAML library (js-yaml, serde_yaml, go-yaml,
PyYAML) that refuses an unquoted `: ` inside a value, and several fall back to reading `name:` and
`description:` lines when it does. `SkillFacts` holds each of those readings once, so every agent model
picks the ones its agent uses. The file is read as discovery reads it: never a FIFO, never past the bound.
"""

from __future__ import annotations

import io
import os
from typing import Any, NamedTuple

from ..core import limits
from ..core import programs
from ..document.skill_file import read_skill_bytes
from .walker import Found

BOM = "\ufeff"
DELIMITER = "---"
_LINE_FIELD = programs.compile(r"^(name|description):[ \t]*(.*)$")


class YamlProblem(NamedTuple):
    """A standard YAML parser's refusal: its problem, and where (1-based, within the frontmatter)."""

    problem: str
    line: int
    column: int


class SkillFacts(NamedTuple):
    path: str
    folder_name: str  # the folder holding the file, as named under the root (a link's own name)
    size: int
    unreadable: str | None  # why the file cannot be read (then nothing below is set)
    bom: bool
    opens_at_byte_0: bool  # the text (a BOM counts as text) starts with `---` and a line break
    opens_after_trim: bool  # the first line, trimmed, is `---` (a BOM is not whitespace)
    frontmatter: str | None  # between the first `---` line and the next `---` line; None: no such block
    body: str  # after the closing line (the whole text when there is no block)
    fields: dict[str, Any] | None  # the standard YAML parse; None when it fails or is not a mapping
    yaml_problem: YamlProblem | None
    line_fields: dict[str, str]  # the `name:`/`description:` line reading (with indented continuation lines)
    crlf: bool = False  # the file's first line ends in CR LF (a reader that splits on LF keeps a CR on each line)
    text: str = ""  # the whole text as decoded (a BOM kept), for an agent that finds its own frontmatter

    @property
    def has_frontmatter(self) -> bool:
        return self.frontmatter is not None and self.frontmatter.strip() != ""

    def field(self, key: str) -> Any:
        return None if self.fields is None else self.fields.get(key)

    def string(self, key: str) -> str | None:
        """The field when the YAML parse gives a string, else None."""
        value = self.field(key)
        return value if isinstance(value, str) else None

    def lenient(self, key: str) -> str | None:
        """The field from the YAML parse when it is a string, else from the line reading (Gemini's fallback)."""
        value = self.string(key)
        if value is not None:
            return value
        return self.line_fields.get(key)

    def first_text_line(self) -> str | None:
        """The body's first line that is neither blank nor a heading."""
        for line in self.body.splitlines():
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                return stripped
        return None


def read_facts(found: Found) -> SkillFacts:
    # `os.sep` as the folder: the agents read a linked SKILL.md wherever it points; the link check of
    # discovery (stay inside the skill folder) is Albedo's rule, not theirs. The bound and the FIFO
    # guard still apply. `found.info` is the walk's lstat, so the read never looks anywhere else.
    data, info, problem = read_skill_bytes(found.path, os.sep, found.info)
    folder = found.folder_name
    if data is None:
        why = problem.message if problem is not None else "it cannot be read"
        return _unreadable(found.path, folder, why)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _unreadable(found.path, folder, f"it is not UTF-8 (byte {exc.start})")
    return _from_text(found.path, folder, len(data), text)


def without_bom(facts: SkillFacts) -> SkillFacts:
    """The file as an agent reads it that drops a leading byte-order mark first (run: OpenCode 1.18.33 and
    Copilot CLI 1.0.102 load such a file with its frontmatter). With a BOM no block was found, so the body
    is the whole text."""
    if not facts.bom or facts.unreadable is not None:
        return facts
    return _from_text(facts.path, facts.folder_name, facts.size, facts.body[len(BOM):])


def _from_text(path: str, folder: str, size: int, text: str) -> SkillFacts:
    bom = text.startswith(BOM)
    lines = text.splitlines()
    opens_at_0 = text.startswith(DELIMITER + "\n") or text.startswith(DELIMITER + "\r\n")
    first = lines[0].strip() if lines else ""
    frontmatter, body = None, text
    if first == DELIMITER:
        closing = next((i for i in range(1, len(lines)) if lines[i].strip() == DELIMITER), None)
        if closing is not None:
            frontmatter = "\n".join(lines[1:closing])
            body = "\n".join(lines[closing + 1 :])
    # Parsed with the line break that ends its last line, as the agents' readers get it: a block scalar
    # there keeps its final newline (run: OpenCode's name `s1 2\n` from a folded `>` value).
    fields, problem_found = parse_yaml(frontmatter + "\n") if frontmatter is not None else (None, None)
    read_lines = line_fields(frontmatter) if frontmatter is not None else {}
    first_break = text.find("\n")
    return SkillFacts(
        path, folder, size, None, bom, opens_at_0, first == DELIMITER, frontmatter, body,
        fields, problem_found, read_lines, first_break > 0 and text[first_break - 1] == "\r", text,
    )


def with_frontmatter(facts: SkillFacts, text: str) -> SkillFacts:
    """The facts read as if `text` were the frontmatter (an agent that takes the rest of a file whose `---`
    is never closed as its frontmatter)."""
    fields, problem = parse_yaml(text)
    return facts._replace(frontmatter=text, body="", fields=fields, yaml_problem=problem, line_fields=line_fields(text))


def _unreadable(path: str, folder: str, why: str) -> SkillFacts:
    return SkillFacts(path, folder, 0, why, False, False, False, None, "", None, None, {})


def parse_yaml(text: str) -> tuple[dict[str, Any] | None, YamlProblem | None]:
    """A standard (core schema) parse, as the agents' libraries do it: libyaml through ruamel.yaml.clibz (the
    parser of Copilot CLI's wording and of serde_yaml), else ruamel.yaml's pure-Python one."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        value = _load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        return None, YamlProblem(exc.problem or str(exc), line, column)
    except _TooDeep as exc:
        return None, YamlProblem(
            f"nested deeper than {limits.MAX_HOST_YAML_NESTING:,} levels: albedo-skills does not parse YAML this "
            "deep; flatten the frontmatter", exc.line, exc.column,
        )
    except (YAMLError, ValueError, TypeError) as exc:  # a constructor refusing a value (a bad date, a tag)
        return None, YamlProblem(str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__, 1, 1)
    if value is None:
        return {}, None
    if not isinstance(value, dict):
        return None, YamlProblem("the frontmatter is not a mapping", 1, 1)
    return {str(key): item for key, item in value.items()}, None


def _load(text: str) -> Any:
    try:
        from ruamel.yaml.cyaml import CSafeLoader
    except ImportError:  # pragma: no cover - exercised only where the C extension is missing
        from ruamel.yaml import YAML

        return YAML(typ="safe", pure=True).load(text)
    _check_nesting(CSafeLoader(io.StringIO(text)))  # before composing: the C composer recurses without a guard
    loader = CSafeLoader(io.StringIO(text))
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


class _TooDeep(Exception):
    def __init__(self, line: int, column: int) -> None:
        super().__init__(line, column)
        self.line, self.column = line, column


def _check_nesting(loader: Any) -> None:
    """Raise `_TooDeep` at the first collection nested past `limits.MAX_HOST_YAML_NESTING`; syntax errors are
    left to the real parse. Reads events only (libyaml's parser keeps its own stack), and stops at the bound."""
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent

    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > limits.MAX_HOST_YAML_NESTING:
                    mark = event.start_mark
                    raise _TooDeep(mark.line + 1, mark.column + 1)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except YAMLError:
        return
    finally:
        loader.dispose()


def line_fields(text: str) -> dict[str, str]:
    """`name:` and `description:` read line by line, an indented line continuing the one before: the
    simple parser Gemini CLI falls back to when its YAML parse fails."""
    found: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines():
        match = _LINE_FIELD.match(line)
        if match:
            current = match.group(1)
            found[current] = match.group(2).strip()
        elif current is not None and line[:1] in (" ", "\t") and line.strip():
            found[current] = (found[current] + " " + line.strip()).strip()
        else:
            current = None
    return found
