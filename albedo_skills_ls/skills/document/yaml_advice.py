"""The common YAML mistakes in a frontmatter, explained in plain words with the fix.

ruamel.yaml stops with a parser's words ("mapping values are not allowed in this context"); the person who
wrote `description: Use this: when asked` needs to read that the `: ` starts another key and that quoting
the value (or folding it with `>-`) fixes it. `advise` looks at the line the parser stopped on and at the
parser's own words, and returns the message for a mistake it recognises, or None (the parser's words are
then shown as they are). Every look is one pass over one line: nothing here backtracks.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core import codes
from ..core import programs
from ..core.codes import Code
from ..core.model import Range

# `key:` at a line's start (after its indentation), then a space or the line's end: a frontmatter field
_FIELD = programs.compile(r"([ ]*)([A-Za-z0-9_][A-Za-z0-9_.-]*)[ ]*:(?=[ \t]|$)")
_QUOTE_ADVICE = "put the whole value in double quotes (a `\"` inside it written `\\\"`)"


class Advice(NamedTuple):
    code: Code
    message: str
    range: Range  # lines counted from the YAML text's first line


class Field(NamedTuple):
    key: str
    line: int  # the line the key is on
    value_start: int  # the column its value starts at (the line's length when the value is below)


def field_of(lines: list[str], index: int) -> Field | None:
    """The field whose key is on line `index`, or whose value that line continues: an indented line under a
    field whose value starts on its key's line continues that value, even when it looks like `key: value`."""
    own = _field_at(lines, index)
    line = lines[index]
    indent = len(line) - len(line.lstrip(" ")) if line.strip() else None
    for at in range(index - 1, -1, -1):
        above = _field_at(lines, at)
        if above is not None and (indent is None or len(lines[at]) - len(lines[at].lstrip(" ")) < indent):
            if own is None or above.value_start < len(lines[at].rstrip()):
                return above  # `line` continues its value
            break
    return own


def _field_at(lines: list[str], index: int) -> Field | None:
    match = _FIELD.match(lines[index])
    if match is None:
        return None
    rest = lines[index][match.end() :]
    return Field(match.group(2), index, match.end() + len(rest) - len(rest.lstrip(" \t")))


def unquoted_colon_value(lines: list[str], field: Field) -> str | None:
    """The one-line value of `field` when quoting it is safe and means exactly the text written: the value
    is on the key's line, is not continued on the next line, opens no quote or block, and holds no ` #` (a
    comment, which quoting would turn into text)."""
    value = lines[field.line][field.value_start :].rstrip(" \t\r")
    if not value or value[0] in "\"'|>[{&*!" or " #" in value or "\t#" in value:
        return None
    following = lines[field.line + 1] if field.line + 1 < len(lines) else ""
    key_indent = len(lines[field.line]) - len(lines[field.line].lstrip(" "))
    if following.strip() and len(following) - len(following.lstrip(" ")) > key_indent:
        return None  # a multi-line value
    return value


def advise(
    lines: list[str], context: str | None, problem: str | None, at: tuple[int, int], opened: tuple[int, int] | None
) -> Advice | None:
    """The plain-words message for the parser's error at (line, column) `at` (`opened`: where the construct
    it was reading began, the parser's context mark), or None when the mistake is not one of the common ones."""
    if not lines:
        return None
    line, column = min(at[0], len(lines) - 1), at[1]
    text = lines[line]
    here = Range.of(line, column, line, column + 1)
    problem, context = problem or "", context or ""
    found = text[column : column + 1]
    if "cannot start any token" in problem and found == "\t":
        return Advice(codes.YAML_SYNTAX, "a tab here: YAML indents and separates with spaces only; replace the tab with spaces", here)
    quoted = "while scanning a quoted scalar" in context and opened is not None
    field = field_of(lines, min(opened[0], len(lines) - 1) if quoted and opened is not None else line)
    if field is None:
        return None
    key = f"`{field.key}`"
    if "mapping values are not allowed" in problem:
        if field.line == line:
            value = unquoted_colon_value(lines, field)
            message = (
                f"the value of {key} holds `: ` (a colon and a space), which YAML reads as the start of another "
                f"key: {_QUOTE_ADVICE}, or fold it with `>-` and write the text on the next lines, indented"
            )
            if value is not None:
                where = Range.of(line, field.value_start, line, field.value_start + len(value))
                return Advice(codes.YAML_UNQUOTED_COLON, message, where)
            return Advice(codes.YAML_SYNTAX, message, here)
        return Advice(
            codes.YAML_SYNTAX,
            f"this line continues the value of {key} and holds `: `, which YAML reads as the start of another key: "
            f"fold the value with `>-` (`{field.key}: >-`, then its lines indented), or {_QUOTE_ADVICE}",
            here,
        )
    if "cannot start any token" in problem and found in ("@", "`", "%"):
        shown = "a backtick" if found == "`" else f"`{found}`"
        return Advice(
            codes.YAML_SYNTAX,
            f"a YAML value cannot start with {shown} (it is reserved): put the value of {key} in double quotes",
            here,
        )
    if quoted and "end of stream" in problem and opened is not None:
        quote = lines[opened[0]][opened[1] : opened[1] + 1] if opened[0] < len(lines) else '"'
        kind = "single" if quote == "'" else "double"
        return Advice(
            codes.YAML_SYNTAX,
            f"the {kind} quote that opens the value of {key} is never closed: end the value with `{quote}`",
            Range.of(opened[0], opened[1], opened[0], opened[1] + 1),
        )
    if "did not find expected key" in problem and field.line == line:
        first = text[field.value_start : field.value_start + 1]
        if first in ("'", '"'):
            inside = "`''` stands for one `'`" if first == "'" else "`\\\"` stands for one `\"`"
            return Advice(
                codes.YAML_SYNTAX,
                f"the value of {key} ends at its closing quote and text follows it: quote the whole value once "
                f"(inside {'single' if first == chr(39) else 'double'} quotes, {inside})",
                here,
            )
        if first in ("[", "{"):
            shape = "list" if first == "[" else "map"
            return Advice(
                codes.YAML_SYNTAX,
                f"a value starting with `{first}` is read as a YAML {shape}: put the value of {key} in double quotes",
                here,
            )
    starts = {
        "while scanning an alias": ("*", "a YAML alias"),
        "while scanning an anchor": ("&", "a YAML anchor"),
    }
    for said, (character, what) in starts.items():
        if said in context:
            return Advice(
                codes.YAML_SYNTAX,
                f"a value starting with `{character}` is read as {what}: put the value of {key} in double quotes",
                here,
            )
    if "while scanning a block scalar" in context:
        indicator = text[field.value_start : field.value_start + 1] or "|"
        kind = "literal" if indicator == "|" else "folded"
        return Advice(
            codes.YAML_SYNTAX,
            f"`{indicator}` starts a {kind} block, whose text goes on the next lines: put the value of {key} in "
            "double quotes, or move its text to the lines below, indented",
            here,
        )
    if "block sequence entries are not allowed" in problem or "mapping keys are not allowed" in problem:
        return Advice(
            codes.YAML_SYNTAX,
            f"a value starting with `{found or '-'} ` is read as YAML structure: put the value of {key} in double quotes",
            here,
        )
    return None
