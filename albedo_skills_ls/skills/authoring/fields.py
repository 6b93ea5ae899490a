"""What the frontmatter fields mean, where the frontmatter is, and the name a skill's folder implies.

Shared by completion, hover, quick fixes and go-to-definition.
"""

from __future__ import annotations

import os

from ..core import limits
from ..document.frontmatter import DELIMITER, closing_line, opens_frontmatter, read_text
from ..core.model import FILE_START, Range
from ..document.yamltree import Mapping
from ..document.rules import (
    HOST_SPECIFIC_FIELDS,
    KNOWN_FIELDS,
    PLACEHOLDER_DESCRIPTION,
    REQUIRED_FIELDS,
    close_field,
    name_problem,
    suggest_name,
)
from ..document.yamltree import Mapping

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
    "effort": "how much reasoning effort the model spends on the skill",
    "paths": "file patterns that make another host offer the skill",
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



def top_key(line: str) -> str | None:
    """The top-level `key` of a `key:` line (what hover documents and completion sees as present), or None.

    Finds what `^([^\\s#:'"\\-?][^:]*?|-[^\\s:][^:]*?)[ \\t]*:(?:[ \\t]|$)` finds as its group, by hand: that
    expression retries `[ \\t]*:` from every position of the key, quadratic on a long line of spaces
    (docs/design.md#8-trust-boundaries). `str.isspace` is the expression's `\\s`."""
    if not line:
        return None
    if line[0] == "-":
        if len(line) < 2 or line[1].isspace() or line[1] == ":":
            return None
        least = 2
    elif line[0].isspace() or line[0] in "#:'\"?":
        return None
    else:
        least = 1
    colon = line.find(":", least)
    if colon < 0 or line[colon + 1 : colon + 2] not in ("", " ", "\t"):
        return None
    return line[:colon].rstrip(" \t")



# --- the name a folder implies ----------------------------------------------------------------------


def folder_name_of(path: str) -> str:
    return os.path.basename(os.path.dirname(os.path.abspath(path)))



def name_for_folder(folder_name: str) -> str:
    """The `name` a skill in this folder should have: the folder's name when valid, else a valid one."""
    if folder_name and name_problem(folder_name) is None:
        return folder_name
    return suggest_name(folder_name) or "my-skill"






def template(folder_name: str) -> str:
    """A minimal valid frontmatter for a skill in `folder_name` (its description is a placeholder)."""
    return f"{DELIMITER}\nname: {name_for_folder(folder_name)}\ndescription: {PLACEHOLDER_DESCRIPTION}\n{DELIMITER}\n"



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
