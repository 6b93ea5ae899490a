"""Where one text mentions a skill by name: the forms a rename must change, and nothing else.

A skill's name is often an English word (`review`, `deploy`), so a mention is only a form that can mean
nothing but the skill:

- `/name` (or `/skill:name`) standing alone, at a line start or in a sentence ("run /demo again."), by the
  one rule of `command_tokens.py`, outside fenced code; in the frontmatter too (a description may name
  another skill's command);
- `` `/name` `` or `` `/name args` ``: a code span that starts with the command;
- a relative Markdown link whose path goes through the skill's folder (`../name/SKILL.md`);
- in a frontmatter: `name: name` (the skill's own file only, the caller says), and an entry of a
  `skills:` list (agent definitions list the skills they preload).

The name must end where the token ends: `/demo-extra`, `/demo.md` and `/demo/x` are not `/demo`. A bare word
equal to the name, a `/name` after a letter, digit, `/` or `:` (`and/or/demo`), one inside fenced code, or
a command in the middle of a code span or in a link's destination is never a mention.
Every function here reads text only; which files to read is `mentions.py`'s. Positions are 0-based lines
and code points, the range covering the characters of the name itself (what a rename replaces).
"""

from __future__ import annotations

import posixpath
from typing import Iterable, Literal, NamedTuple

from ..core import programs
from ..document.frontmatter import closing_line, lines_of, opens_frontmatter
from ..document.markdown_spans import inline_links, prose_lines
from ..core.model import Range
from .command_tokens import line_commands

MentionKind = Literal["name", "command", "code", "link", "skills-list", "mirror"]

_SKILLS_KEY = programs.compile(r"skills[ \t]*:[ \t]*(.*?)[ \t]*$")
_LIST_ITEM = programs.compile(r"([ \t]+)-[ \t]+(.*?)[ \t]*$")


class TextMention(NamedTuple):
    """One mention in a text: the name's range and the form it takes."""

    range: Range
    kind: MentionKind


def frontmatter_lines(lines: list[str]) -> range:
    """The line numbers between the opening and the closing `---` (empty without a closed frontmatter)."""
    if not opens_frontmatter(lines):
        return range(0)
    end = closing_line(lines)
    return range(1, end) if end is not None else range(0)


def command_mentions(lines: list[str], name: str) -> list[TextMention]:
    """`/name` and `/skill:name` standing alone, and `` `/name ...` `` code spans, in every line outside
    fenced code (the frontmatter's too)."""
    found: list[TextMention] = []
    for number, line in prose_lines(lines):
        if name not in line or "/" not in line:
            continue
        for command in line_commands(line):
            token = command.token
            if token.name == name:
                found.append(TextMention(Range.of(number, token.start, number, token.end), command.kind))
    return found


def link_mentions(lines: list[str], file_folder: str, through: Iterable[str], skip: range) -> list[TextMention]:
    """Relative Markdown links (in prose lines outside `skip`) whose path passes through one of the folders
    `through` (absolute, normalised): the range is the path segment that names that folder. `file_folder`
    is the folder of the file holding the link (relative links start there)."""
    wanted = {posixpath.normpath(folder): posixpath.basename(posixpath.normpath(folder)) for folder in through}
    found: list[TextMention] = []
    for number, line in prose_lines(lines):
        if number in skip or "](" not in line:
            continue
        for span, _form in inline_links(line):
            segment = _segment_through(line[span.begin : span.stop], file_folder, wanted)
            if segment is not None:
                start = span.begin + segment[0]
                found.append(TextMention(Range.of(number, start, number, start + segment[1]), "link"))
    return found


def _segment_through(written: str, file_folder: str, wanted: dict[str, str]) -> tuple[int, int] | None:
    """(offset, length) in `written` of the segment that reaches a wanted folder, or None. Only a plain
    relative path counts: URLs, anchors, absolute paths and percent-encoded segments are left alone."""
    path = written.split("#", 1)[0].split("?", 1)[0]
    if not path or path.startswith("/") or ":" in path.split("/", 1)[0] or "\\" in path:
        return None
    base = posixpath.normpath(file_folder)
    offset = 0
    for segment in path.split("/"):
        base = posixpath.normpath(posixpath.join(base, segment)) if segment else base
        if base in wanted and segment == wanted[base] and _unescaped(segment):
            return offset, len(segment)
        offset += len(segment) + 1
    return None


def name_field(lines: list[str], name: str) -> list[TextMention]:
    """The value of a top-level `name:` field equal to `name` (plain or quoted) in the frontmatter."""
    for number in frontmatter_lines(lines):
        line = lines[number].rstrip("\r\n")
        if not line.startswith("name"):
            continue
        key, colon, rest = line.partition(":")
        if not colon or key.rstrip() != "name":
            continue
        start = _value_start(line, len(key) + 1, rest, name)
        if start is not None:
            return [TextMention(Range.of(number, start, number, start + len(name)), "name")]
    return []


def _value_start(line: str, after_colon: int, rest: str, name: str) -> int | None:
    """Where `name` starts when `rest` (what follows the colon) is exactly it, maybe quoted, maybe followed
    by a comment."""
    value = rest.split(" #", 1)[0].strip()
    if value in (name, f'"{name}"', f"'{name}'"):
        lead = len(rest) - len(rest.lstrip())
        return after_colon + lead + (0 if value == name else 1)
    return None


def skills_list(lines: list[str], name: str) -> list[TextMention]:
    """Entries equal to `name` of a top-level `skills:` list in the frontmatter, flow (`[a, b]`) or block
    (`- a` lines below the key)."""
    found: list[TextMention] = []
    inside = frontmatter_lines(lines)
    for number in inside:
        line = lines[number].rstrip("\r\n")
        match = _SKILLS_KEY.match(line)
        if not match:
            continue
        rest = match.group(1)
        if rest.startswith("["):
            found += _flow_items(line, number, match.start(1), name)
            continue
        if rest:  # `skills: demo`, a single value
            start = _value_start(line, line.index(":") + 1, line[line.index(":") + 1 :], name)
            if start is not None:
                found.append(TextMention(Range.of(number, start, number, start + len(name)), "skills-list"))
            continue
        for item_number in range(number + 1, inside.stop):
            item = _LIST_ITEM.match(lines[item_number].rstrip("\r\n"))
            if not item:
                break
            start = _value_start(item.group(0), item.start(2), item.group(0)[item.start(2) :], name)
            if start is not None:
                found.append(TextMention(Range.of(item_number, start, item_number, start + len(name)), "skills-list"))
    return found


def _flow_items(line: str, number: int, opening: int, name: str) -> list[TextMention]:
    closing = line.find("]", opening)
    if closing < 0:
        return []
    found: list[TextMention] = []
    position = opening + 1
    for item in line[opening + 1 : closing].split(","):
        start = _value_start(line, position, item, name)
        if start is not None:
            found.append(TextMention(Range.of(number, start, number, start + len(name)), "skills-list"))
        position += len(item) + 1
    return found


def scan_text(
    text: str, name: str, file_folder: str, through: Iterable[str], *, own_name: bool = False, agent_file: bool = False
) -> list[TextMention]:
    """Every mention of skill `name` in one file's text, in document order. `own_name`: the skill's own
    `SKILL.md` (its `name:` is a mention); `agent_file`: an agent definition (its `skills:` list is)."""
    lines = lines_of(text)
    skip = frontmatter_lines(lines)
    found = command_mentions(lines, name) + link_mentions(lines, file_folder, through, skip)
    if own_name:
        found += name_field(lines, name)
    if agent_file:
        found += skills_list(lines, name)
    return sorted(found)


class Under(NamedTuple):
    """The skill name under a cursor: the name, where it is spelled, and the form (`name` on a `SKILL.md`'s
    own `name:`, `command` or `code` on a `/name`)."""

    name: str
    range: Range
    kind: MentionKind


def name_under(text: str, line: int, character: int, *, skill_file: bool) -> Under | None:
    """The skill name at (line, character) in a `SKILL.md` (`skill_file`) or a chat buffer, in one of the
    forms a rename starts from; None elsewhere. Whether a skill has that name is the caller's to check."""
    lines = lines_of(text)
    if not 0 <= line < len(lines):
        return None
    current = lines[line].rstrip("\r\n")
    frontmatter = frontmatter_lines(lines)
    if skill_file and line in frontmatter:
        key, colon, rest = current.partition(":")
        value = rest.split(" #", 1)[0].strip().strip("\"'")
        start = _value_start(current, len(key) + 1, rest, value) if colon and key.rstrip() == "name" and value else None
        if start is not None and start <= character <= start + len(value):
            return Under(value, Range.of(line, start, line, start + len(value)), "name")
    if line not in {number for number, _line in prose_lines(lines[: line + 1])}:
        return None  # fenced code
    for command in line_commands(current):
        token = command.token
        if token.slash <= character <= token.end:
            return Under(token.name, Range.of(line, token.start, line, token.end), command.kind)
    return None


def _unescaped(segment: str) -> bool:
    """Whether a link's path segment reads the same percent-decoded. urllib.parse (with ipaddress, ~2 ms a
    start) is imported only for a segment holding `%`: `check` reads every skill's links."""
    if "%" not in segment:
        return True
    from urllib.parse import unquote

    return unquote(segment) == segment
