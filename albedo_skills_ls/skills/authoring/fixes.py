"""Quick fixes, one or more per diagnostic whose code the registry marks fixable (`codes.FIXABLE`).

The fixes re-check the text with the same rules as diagnostics, so a fix is computed from the document
itself, never from a client's message text.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable

from ..core.codes import (
    ALLOWED_TOOLS_LIST,
    FIELD_UNKNOWN,
    FIXABLE,
    FRONTMATTER_MISSING,
    NAME_INVALID,
    NAME_MISMATCH,
    SKILL_FILE_MISSING,
    YAML_UNQUOTED_COLON,
)
from ..document.frontmatter import late_opening, lines_of, read_text
from ..core.model import FILE_START, Diagnostic, Range
from ..catalog.references import reference_fixes
from ..document.rules import check_frontmatter, close_field, name_problem, string_items, suggest_name
from ..document.skill_file import SKILL_FILE, traps
from ..document.yamltree import Mapping, Scalar
from ..language.unknown_commands import Commands, Unknown, check_text
from .fields import folder_name_of, template


@dataclass(frozen=True, slots=True)
class Edit:
    range: Range
    new_text: str



@dataclass(frozen=True, slots=True)
class Rename:
    """A file to rename (absolute paths), for a fix that is not an edit of a document's text."""

    old: str
    new: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A quick fix for one diagnostic: the edits to apply to the document's text."""

    title: str
    diagnostic: Diagnostic
    edits: tuple[Edit, ...]
    preferred: bool = False
    # cannot change what the skill means, so `albedo-skills check --fix` applies it without --unsafe
    safe: bool = False
    renames: tuple[Rename, ...] = ()



def _replace_value(where: Range, value: str) -> Edit:
    """Replace a scalar (plain, quoted or a block spanning lines) by a plain one-line value."""
    multi_line_block = where.end.line > where.start.line and where.end.character == 0
    return Edit(where, value + ("\n" if multi_line_block else ""))



def _set_name(diagnostic: Diagnostic, name: str, title: str, preferred: bool) -> Fix:
    """Replace the `name` value the diagnostic points at."""
    return Fix(title, diagnostic, (_replace_value(diagnostic.range, name),), preferred)



_PLAIN_START_FORBIDDEN = set("-?:,[]{}#&*!|>'\"%@` \t")


def yaml_scalar(value: str) -> str:
    """`value` as one YAML scalar on one line: plain when YAML reads it back unchanged, else double-quoted
    (a JSON string is a valid YAML double-quoted scalar)."""
    plain = (
        value
        and value[0] not in _PLAIN_START_FORBIDDEN
        and not value.endswith((" ", ":"))
        and ": " not in value
        and " #" not in value
        and value.isprintable()
    )
    if plain:
        return value
    import json

    return json.dumps(value, ensure_ascii=False)


def _join_allowed_tools(diagnostic: Diagnostic, mapping: Mapping) -> Fix | None:
    """`allowed-tools` as a list of strings, rewritten as the one space-separated string the format wants:
    the edit runs from the end of the key to the end of the list, so nothing else in the document moves."""
    entry = mapping.get("allowed-tools")
    items = string_items(entry.value) if entry is not None else None
    if entry is None or items is None:
        return None
    joined = " ".join(item.strip() for item in items)
    value = entry.value.range
    block = value.end.line > entry.key.range.end.line and value.end.character == 0
    edit = Edit(Range(entry.key.range.end, value.end), f": {yaml_scalar(joined)}" + ("\n" if block else ""))
    return Fix("Join the `allowed-tools` list into one string", diagnostic, (edit,), True, safe=True)


def command_fixes(unknowns: Iterable[Unknown]) -> list[Fix]:
    """`command-unknown`: each near command typed in place of the word, the nearest preferred. Not safe: it
    changes which command the text runs."""
    return [
        Fix(f"Change to `{text}`", unknown.diagnostic, (Edit(unknown.diagnostic.range, text),), index == 0)
        for unknown in unknowns
        for index, text in enumerate(unknown.replacements())
    ]


def quick_fixes(path: str, text: str, commands: Commands | None = None) -> list[Fix]:
    """Every quick fix for the document at `path` with this text, one or more per fixable diagnostic;
    `commands` (the catalog's, for `command-unknown`): without them no command is known to be mistyped."""
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
                    Fix(f"Rename `{key}` to `{guess}`", diagnostic, (Edit(diagnostic.range, guess),), True, safe=True)
                )
        elif diagnostic.code == ALLOWED_TOOLS_LIST.id and mapping is not None:
            fix = _join_allowed_tools(diagnostic, mapping)
            if fix is not None:
                fixes.append(fix)
        elif diagnostic.code == YAML_UNQUOTED_COLON.id:
            # the range is exactly the one-line value (yaml_advice checked that quoting keeps its text)
            value = text_at(skill_text.text or "", diagnostic.range)
            if value:
                import json

                quoted = json.dumps(value, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar
                fixes.append(Fix("Put the value in double quotes", diagnostic, (Edit(diagnostic.range, quoted),), True, safe=True))
        elif diagnostic.code == FRONTMATTER_MISSING.id:
            opening = late_opening(skill_text.lines)
            if opening is not None:
                # the frontmatter is there, below text or blank lines: adding a second one would be wrong
                lines = "the line" if opening == 1 else f"the {opening} lines"
                fixes.append(
                    Fix(f"Remove {lines} above `---`", diagnostic, (Edit(Range.of(0, 0, opening, 0), ""),), True)
                )
                continue
            fixes.append(
                Fix(
                    "Add frontmatter with `name` and `description`",
                    diagnostic,
                    (Edit(FILE_START, template(folder_name)),),
                    True,
                )
            )
    for near in reference_fixes(path, text):
        fixes.append(Fix(f"Change the path to `{near.new_text}`", near.diagnostic, (Edit(near.range, near.new_text),), True))
    if commands is not None:
        fixes += command_fixes(check_text(commands, path, text, skip_frontmatter=True))
    return fixes



def folder_fixes(diagnostic: Diagnostic) -> list[Fix]:
    """Quick fixes for a finding about a skill folder rather than a document's text: `skill-file-missing`
    beside a `skill.md` in other letter case renames it to `SKILL.md` (safe: the content is unchanged)."""
    if diagnostic.code != SKILL_FILE_MISSING.id:
        return []
    wrong_case = traps(diagnostic.path).wrong_case
    if wrong_case is None:
        return []
    rename = Rename(os.path.join(diagnostic.path, wrong_case), os.path.join(diagnostic.path, SKILL_FILE))
    return [Fix(f"Rename `{wrong_case}` to `{SKILL_FILE}`", diagnostic, (), True, safe=True, renames=(rename,))]


def text_at(text: str, where: Range) -> str:
    """The text a one-line range covers."""
    lines = lines_of(text)
    if where.start.line != where.end.line or not 0 <= where.start.line < len(lines):
        return ""
    return lines[where.start.line][where.start.character : where.end.character]
