"""Completion inside a `SKILL.md` frontmatter: the whole template on an empty first line, the missing keys,
and values of `name`, `license` and `allowed-tools`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..core import programs
from ..document.frontmatter import lines_of
from ..core.model import Range
from ..document.rules import KNOWN_FIELDS, REQUIRED_FIELDS
from .fields import field_documentation, frontmatter_lines, name_for_folder, template, top_key


_TYPED_KEY = programs.compile(r"^[A-Za-z0-9_-]*$")



_VALUE = programs.compile(r"^([A-Za-z0-9_-]+)[ \t]*:[ \t]*(.*)$")



def _present_keys(lines: list[str], first: int, end: int, skip: int) -> set[str]:
    keys = set()
    for number in range(first, min(end, len(lines))):
        if number == skip:
            continue
        key = top_key(lines[number].rstrip("\r\n"))
        if key is not None:
            keys.add(key.strip())
    return keys



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
