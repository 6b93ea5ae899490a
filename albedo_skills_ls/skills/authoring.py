"""Help for writing a `SKILL.md`: field documentation, frontmatter completion, quick fixes and an outline.

The language server shows these; it decides none of them. Everything takes the document's text (an
editor buffer) and returns plain values with engine positions (0-based lines, code-point characters).
The quick fixes re-check the text with the same rules as diagnostics, so a fix is computed from the
document itself, never from a client's message text.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Literal

from . import limits
from .codes import FIELD_UNKNOWN, FIXABLE, FRONTMATTER_MISSING, NAME_INVALID, NAME_MISMATCH
from .discovery import SKILL_FILE
from .frontmatter import DELIMITER, Mapping, Scalar, Sequence, closing_line, lines_of, opens_frontmatter, read_text
from .markdown import prose_lines
from .model import FILE_START, Diagnostic, Position, Range
from .rules import (
    HOST_SPECIFIC_FIELDS,
    KNOWN_FIELDS,
    REQUIRED_FIELDS,
    check_frontmatter,
    close_field,
    name_problem,
    suggest_name,
)

# --- what each field means ------------------------------------------------------------------------------

FIELD_SUMMARIES = {
    "name": "The skill's identifier and slash command (`/name`).",
    "description": "What the skill does and when to use it: the model reads it to decide when to activate "
    "the skill.",
    "license": "The license of the skill: an SPDX identifier (`MIT`, `Apache-2.0`) or the name of a license "
    "file bundled with it.",
    "compatibility": "The environment the skill needs: intended product, system packages, network access.",
    "metadata": "Extra properties (author, version, ...) as a map of string keys to string values.",
    "allowed-tools": "Tools the skill expects to use, as one space-separated string "
    "(`Read Grep Bash(git:*)`). Experimental in the format.",
}

FIELD_BOUNDS = {
    "name": f"1–{limits.MAX_NAME_CHARS} characters: lowercase ASCII letters, digits and `-`, not starting "
    "or ending with `-`, no `--`. It must equal the skill folder's name. A skill named like a built-in "
    "command is reachable as `/skill:NAME`.",
    "description": f"1–{limits.MAX_DESCRIPTION_CHARS:,} characters (the final line break of a folded or "
    "literal block is not counted); not blank.",
    "license": "Free text.",
    "compatibility": f"1–{limits.MAX_COMPATIBILITY_CHARS} characters when present.",
    "metadata": "A map; every key and every value must be a string (quote numbers and dates to be clear).",
    "allowed-tools": "One string. Descriptive only in Albedo: it grants no permission and enables no tool.",
}

HOST_SPECIFIC_SUMMARIES = {
    "argument-hint": "a hint of the expected arguments, shown in another host's command menu",
    "user-invocable": "whether users may run the skill as a slash command",
    "disable-model-invocation": "whether only the user, not the model, may activate the skill",
    "model": "the model that runs the skill",
    "context": "the context the skill runs in (such as a forked one)",
    "agent": "the agent type that runs the skill",
    "hooks": "lifecycle hooks that run around the skill",
    "version": "a version of the skill (in the Agent Skills format, put it under `metadata`)",
    "when_to_use": "when to use the skill (in the Agent Skills format, say it in `description`)",
}


def field_documentation(key: str) -> str | None:
    """Markdown that explains a top-level frontmatter key, or None for a key nobody defines."""
    if key in KNOWN_FIELDS:
        required = (
            "**Required** by Albedo."
            if key in REQUIRED_FIELDS
            else "Optional; Albedo checks it but does not advertise it in the catalog."
        )
        return f"**`{key}`**: {FIELD_SUMMARIES[key]}\n\n{required}\n\n{FIELD_BOUNDS[key]}"
    if key in HOST_SPECIFIC_FIELDS:
        return (
            f"**`{key}`**: defined by other hosts of the Agent Skills format "
            f"({HOST_SPECIFIC_SUMMARIES.get(key, 'host-specific behaviour')}).\n\n"
            "Albedo ignores this field."
        )
    guess = close_field(key)
    if guess:
        return f"**`{key}`** is not a field of the Agent Skills format; did you mean `{guess}`?"
    return None


# --- where the frontmatter is ---------------------------------------------------------------------------


def frontmatter_lines(lines: list[str]) -> tuple[int, int] | None:
    """The lines holding YAML: (first, end) with `end` exclusive (the closing `---`, or the end of an
    unterminated block, so a frontmatter being typed still gets help). None without an opening `---`."""
    if not opens_frontmatter(lines):
        return None
    end = closing_line(lines)
    return 1, end if end is not None else len(lines) + 1


_TOP_KEY = re.compile(r"^([^\s#:'\"\-?][^:]*?|-[^\s:][^:]*?)[ \t]*:(?:[ \t]|$)")
_TYPED_KEY = re.compile(r"^[A-Za-z0-9_-]*$")
_VALUE = re.compile(r"^([A-Za-z0-9_-]+)[ \t]*:[ \t]*(.*)$")


def _present_keys(lines: list[str], first: int, end: int, skip: int) -> set[str]:
    keys = set()
    for number in range(first, min(end, len(lines))):
        if number == skip:
            continue
        match = _TOP_KEY.match(lines[number].rstrip("\r\n"))
        if match:
            keys.add(match.group(1).strip())
    return keys


# --- completion -----------------------------------------------------------------------------------------

LICENSES = ("MIT", "Apache-2.0", "BSD-3-Clause", "BSD-2-Clause", "MPL-2.0", "GPL-3.0-only", "ISC", "Proprietary")
TOOLS = ("Read", "Write", "Edit", "Bash", "Glob", "Grep", "WebFetch", "WebSearch", "Bash(git:*)")


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One completion. `snippet` uses `${1:...}` placeholders; `text` is the same without them."""

    label: str
    kind: Literal["field", "value", "template"]
    text: str
    snippet: str
    documentation: str
    replace: Range
    detail: str = ""


def _snippet_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def folder_name_of(path: str) -> str:
    return os.path.basename(os.path.dirname(os.path.abspath(path)))


def name_for_folder(folder_name: str) -> str:
    """The `name` a skill in this folder should have: the folder's name when valid, else a valid one."""
    if folder_name and name_problem(folder_name) is None:
        return folder_name
    return suggest_name(folder_name) or "my-skill"


def _field_snippets(key: str, folder_name: str) -> tuple[str, str]:
    name = name_for_folder(folder_name)
    return {
        "name": (f"name: {name}", f"name: ${{1:{_snippet_escape(name)}}}"),
        "description": ("description: ", "description: ${1}"),
        "license": ("license: ", "license: ${1:MIT}"),
        "compatibility": ("compatibility: ", "compatibility: ${1}"),
        "metadata": ("metadata:\n  ", "metadata:\n  ${1:key}: ${2:value}"),
        "allowed-tools": ("allowed-tools: ", "allowed-tools: ${1:Read Grep}"),
    }[key]


PLACEHOLDER_DESCRIPTION = "Replace this text with what the skill does and when to use it"


def template(folder_name: str) -> str:
    """A minimal valid frontmatter for a skill in `folder_name` (its description is a placeholder)."""
    return f"{DELIMITER}\nname: {name_for_folder(folder_name)}\ndescription: {PLACEHOLDER_DESCRIPTION}\n{DELIMITER}\n"


def complete_frontmatter(text: str, line: int, character: int, folder_name: str) -> list[Suggestion]:
    """Completions at (line, character) of a `SKILL.md` text: keys and values inside the frontmatter,
    and a frontmatter template at the top of a document that has none."""
    lines = lines_of(text)
    current = lines[line].rstrip("\r\n") if 0 <= line < len(lines) else ""
    before = current[: max(0, min(character, len(current)))]
    block = frontmatter_lines(lines)
    if block is None:
        if line == 0 and _TYPED_KEY.match(before.lstrip("-")) and not current[len(before):].strip():
            name = name_for_folder(folder_name)
            return [
                Suggestion(
                    "frontmatter",
                    "template",
                    template(folder_name),
                    f"---\nname: ${{1:{_snippet_escape(name)}}}\ndescription: ${{2}}\n---\n",
                    "The frontmatter every `SKILL.md` starts with: `name` and `description`.",
                    Range.of(0, 0, 0, len(before)),
                    "SKILL.md frontmatter",
                )
            ]
        return []
    first, end = block
    if not first <= line < end:
        return []
    after = current[len(before) :]
    if _TYPED_KEY.match(before) and ":" not in after:
        present = _present_keys(lines, first, end, line)
        found = []
        for key in KNOWN_FIELDS:
            if key in present:
                continue
            plain, snippet = _field_snippets(key, folder_name)
            found.append(
                Suggestion(
                    key,
                    "field",
                    plain,
                    snippet,
                    field_documentation(key) or "",
                    Range.of(line, 0, line, len(before)),
                    "required" if key in REQUIRED_FIELDS else "optional",
                )
            )
        return found
    typed = _VALUE.match(before)
    if typed is None:
        return []
    key, value = typed.group(1), typed.group(2)
    if key == "name":
        choices, prefix_start = [name_for_folder(folder_name)], typed.start(2)
        documentation = "The skill folder's name."
    elif key == "license":
        choices, prefix_start = list(LICENSES), typed.start(2)
        documentation = "A license identifier."
    elif key == "allowed-tools":
        words = value.split()
        typing_word = bool(value) and not value[-1].isspace()
        listed = set(words[:-1] if typing_word else words)
        choices = [tool for tool in TOOLS if tool not in listed]
        prefix_start = len(before) - (len(words[-1]) if typing_word else 0)
        documentation = "A tool name (descriptive only: Albedo grants nothing)."
    else:
        return []
    return [
        Suggestion(
            choice,
            "value",
            choice,
            _snippet_escape(choice),
            documentation,
            Range.of(line, prefix_start, line, len(before)),
            key,
        )
        for choice in choices
    ]


# --- hover ----------------------------------------------------------------------------------------------


def key_at(text: str, line: int, character: int) -> tuple[str, Range] | None:
    """The top-level frontmatter key under the cursor, with its range."""
    lines = lines_of(text)
    block = frontmatter_lines(lines)
    if block is None or not block[0] <= line < min(block[1], len(lines)):
        return None
    match = _TOP_KEY.match(lines[line].rstrip("\r\n"))
    if not match:
        return None
    key = match.group(1).strip()
    if not 0 <= character <= len(key):
        return None
    return key, Range.of(line, 0, line, len(key))


def hover_field(text: str, line: int, character: int) -> tuple[str, Range] | None:
    """Markdown for the frontmatter key under the cursor, and the key's range."""
    found = key_at(text, line, character)
    if found is None:
        return None
    documentation = field_documentation(found[0])
    return (documentation, found[1]) if documentation else None


# --- quick fixes ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Edit:
    range: Range
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A quick fix for one diagnostic: the edits to apply to the document's text."""

    title: str
    diagnostic: Diagnostic
    edits: tuple[Edit, ...]
    preferred: bool = False


def _replace_value(where: Range, value: str) -> Edit:
    """Replace a scalar (plain, quoted or a block spanning lines) by a plain one-line value."""
    multi_line_block = where.end.line > where.start.line and where.end.character == 0
    return Edit(where, value + ("\n" if multi_line_block else ""))


def _set_name(diagnostic: Diagnostic, name: str, title: str, preferred: bool) -> Fix:
    """Replace the `name` value the diagnostic points at."""
    return Fix(title, diagnostic, (_replace_value(diagnostic.range, name),), preferred)


def quick_fixes(path: str, text: str) -> list[Fix]:
    """Every quick fix for the document at `path` with this text, one or more per fixable diagnostic."""
    if os.path.basename(path) != SKILL_FILE:
        return []
    folder_name = folder_name_of(path)
    skill_text = read_text(text, path)
    parsed = check_frontmatter(skill_text, path, folder_name)
    root = skill_text.frontmatter.root if skill_text.frontmatter else None
    mapping = root if isinstance(root, Mapping) else None
    folder_ok = bool(folder_name) and name_problem(folder_name) is None
    fixes: list[Fix] = []
    for diagnostic in parsed.diagnostics:
        if diagnostic.code not in FIXABLE:
            continue
        if diagnostic.code == NAME_MISMATCH.id and folder_ok:
            fixes.append(_set_name(diagnostic, folder_name, f"Set name to the folder's name `{folder_name}`", True))
        elif diagnostic.code == NAME_INVALID.id and mapping is not None:
            entry = mapping.get("name")
            current = entry.value.value if entry and isinstance(entry.value, Scalar) else ""
            suggestion = suggest_name(current)
            if folder_ok:
                fixes.append(
                    _set_name(diagnostic, folder_name, f"Set name to the folder's name `{folder_name}`", True)
                )
            if suggestion and name_problem(suggestion) is None and suggestion != folder_name:
                fixes.append(_set_name(diagnostic, suggestion, f"Change name to `{suggestion}`", not folder_ok))
        elif diagnostic.code == FIELD_UNKNOWN.id and mapping is not None:
            key = text_at(skill_text.text or "", diagnostic.range)
            guess = close_field(key) if key else None
            if guess and mapping.get(guess) is None:
                fixes.append(
                    Fix(f"Rename `{key}` to `{guess}`", diagnostic, (Edit(diagnostic.range, guess),), True)
                )
        elif diagnostic.code == FRONTMATTER_MISSING.id:
            fixes.append(
                Fix(
                    "Add frontmatter with `name` and `description`",
                    diagnostic,
                    (Edit(FILE_START, template(folder_name)),),
                    True,
                )
            )
    return fixes


def text_at(text: str, where: Range) -> str:
    """The text a one-line range covers."""
    lines = lines_of(text)
    if where.start.line != where.end.line or not 0 <= where.start.line < len(lines):
        return ""
    return lines[where.start.line][where.start.character : where.end.character]


# --- outline --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OutlineItem:
    """One entry of a document outline: a frontmatter field or a Markdown heading, with its children."""

    name: str
    detail: str
    kind: Literal["field", "heading"]
    range: Range
    selection: Range
    children: tuple["OutlineItem", ...] = ()


_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")


def _short(value: str, width: int = 60) -> str:
    first = value.strip().splitlines()[0] if value.strip() else ""
    return first if len(first) <= width else first[: width - 1] + "…"


def _fields(mapping: Mapping, lines: list[str]) -> list[OutlineItem]:
    items = []
    for entry in mapping.entries:
        if not isinstance(entry.key, Scalar):
            continue
        value = entry.value
        if isinstance(value, Scalar):
            detail, children = _short(value.value), ()
        elif isinstance(value, Mapping):
            detail, children = "map", tuple(_fields(value, lines))
        else:
            assert isinstance(value, Sequence)
            detail, children = f"list of {len(value.items)}", ()
        end = max(entry.key.range.end, value.range.end)
        if end.character == 0 and end.line > entry.key.range.end.line and end.line - 1 < len(lines):
            # a block value ends at the start of the next line: end the field on its own last line
            end = Position(end.line - 1, len(lines[end.line - 1].rstrip("\r\n")))
        items.append(
            OutlineItem(
                entry.key.value or '""', detail, "field", Range(entry.key.range.start, end), entry.key.range, children
            )
        )
    return items


def outline(text: str, path: str = SKILL_FILE) -> list[OutlineItem]:
    """The frontmatter fields (metadata entries as children), then the body's headings nested by level."""
    skill_text = read_text(text, path)
    lines = lines_of(text.removeprefix("\ufeff"))
    items: list[OutlineItem] = []
    frontmatter = skill_text.frontmatter
    if frontmatter is not None and isinstance(frontmatter.root, Mapping):
        items.extend(_fields(frontmatter.root, lines))
    if frontmatter is not None:
        start = frontmatter.end_line + 1
    elif opens_frontmatter(lines):
        return items  # unterminated: everything is frontmatter being written
    else:
        start = 0
    items.extend(_headings(lines, start))
    return items


def _headings(lines: list[str], start: int) -> list[OutlineItem]:
    found: list[tuple[int, int, str, int]] = []  # (line, level, title, title column)
    for number, line in prose_lines(lines, start):
        match = _ATX.match(line)
        if match:
            found.append((number, len(match.group(1)), (match.group(2) or "").strip(), len(line)))
    last_line = len(lines) - 1

    def section_end(index: int) -> Position:
        level = found[index][1]
        end = last_line
        for later in found[index + 1 :]:
            if later[1] <= level:
                end = later[0] - 1
                break
        end = max(end, found[index][0])
        return Position(end, len(lines[end].rstrip("\r\n")))

    def build(index: int) -> tuple[OutlineItem, int]:
        line, level, title, width = found[index]
        children = []
        next_index = index + 1
        while next_index < len(found) and found[next_index][1] > level:
            child, next_index = build(next_index)
            children.append(child)
        item = OutlineItem(
            title or "#" * level,
            "#" * level,
            "heading",
            Range(Position(line, 0), section_end(index)),
            Range.of(line, 0, line, width),
            tuple(children),
        )
        return item, next_index

    items = []
    index = 0
    while index < len(found):
        item, index = build(index)
        items.append(item)
    return items


# --- go to definition -----------------------------------------------------------------------------------


def name_range(text: str, path: str) -> Range:
    """Where a `SKILL.md`'s `name` value is (the file start when it has none)."""
    skill_text = read_text(text, path)
    root = skill_text.frontmatter.root if skill_text.frontmatter else None
    if isinstance(root, Mapping):
        entry = root.get("name")
        if entry is not None:
            return entry.value.range
    return FILE_START
