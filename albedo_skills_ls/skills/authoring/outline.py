"""The document outline of a `SKILL.md`: the frontmatter fields (metadata entries as children), then the
body's headings nested by level."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..document.frontmatter import lines_of, opens_frontmatter, read_text
from ..document.markdown_spans import prose_lines
from ..core.model import Position, Range
from ..document.skill_file import SKILL_FILE
from ..document.yamltree import Entry, Mapping, Scalar, Sequence


@dataclass(frozen=True, slots=True)
class OutlineItem:
    """One entry of a document outline: a frontmatter field or a Markdown heading, with its children."""

    name: str
    detail: str
    kind: Literal["field", "heading"]
    range: Range
    selection: Range
    children: tuple["OutlineItem", ...] = ()



_SPACE = " \t"


def atx_heading(line: str) -> tuple[int, str] | None:
    """(level, title) of an ATX heading line, or None. Finds what `^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?
    [ \\t]*$` finds (the title stripped), by hand: that expression rescans the rest of the line from every
    position of the title, quadratic on a long line of spaces (docs/design.md#8-trust-boundaries)."""
    indent = len(line) - len(line.lstrip(" "))
    if indent > 3:
        return None
    rest = line[indent:]
    level = len(rest) - len(rest.lstrip("#"))
    if not 1 <= level <= 6:
        return None
    rest = rest[level:]
    if not rest:
        return level, ""
    if rest[0] not in _SPACE:
        return None
    text = rest.lstrip(_SPACE).rstrip(_SPACE)  # the title, unless it ends with a closing run of `#`
    closing = text.rstrip("#")
    if len(closing) < len(text) and closing[-1:] in (" ", "\t"):
        text = closing
    return level, text.strip()



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
        items.append(
            OutlineItem(entry.key.value or '""', detail, "field", field_range(entry, lines), entry.key.range, children)
        )
    return items


def field_range(entry: Entry, lines: list[str]) -> Range:
    """A frontmatter field from its key to the end of its value: `key: value`, or a block value's lines."""
    return Range(entry.key.range.start, own_line_end(max(entry.key.range.end, entry.value.range.end), entry.key.range.end.line, lines))


def own_line_end(end: Position, first_line: int, lines: list[str]) -> Position:
    """A block node ends at the start of the line after it: end it on its own last line instead."""
    if end.character == 0 and end.line > first_line and end.line - 1 < len(lines):
        return Position(end.line - 1, len(lines[end.line - 1].rstrip("\r\n")))
    return end



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
    items.extend(headings(lines, start))
    return items



def headings(lines: list[str], start: int) -> list[OutlineItem]:
    """The headings from line `start`, nested by level, each ranging over its section."""
    found: list[tuple[int, int, str, int]] = []  # (line, level, title, title column)
    for number, line in prose_lines(lines, start):
        heading = atx_heading(line)
        if heading:
            found.append((number, heading[0], heading[1], len(line)))
    # each section ends before the next heading of its level or higher, else at the last line: found in one
    # pass with the headings still open (a search onward from each heading is quadratic in their number)
    ends = [len(lines) - 1] * len(found)
    open_sections: list[int] = []
    for index, (line, level, _title, _width) in enumerate(found):
        while open_sections and found[open_sections[-1]][1] >= level:
            ends[open_sections.pop()] = line - 1
        open_sections.append(index)

    def section_end(index: int) -> Position:
        end = max(ends[index], found[index][0])
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
