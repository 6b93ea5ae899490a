"""Selection ranges (the editor's Expand Selection) in a `SKILL.md` or a chat buffer: for each cursor, the
ranges around it from the smallest to the whole document.

In the frontmatter: word → value (inside its quotes, then with them) → field → the field holding it
(`metadata:`) → the lines between the `---` → the block with its delimiters → the document.
In the body: word → line → block (a paragraph: the non-blank lines around, or a fenced code block with its
fences) → each section holding it, innermost first (a heading to the last non-blank line before the next
heading of its level or higher, as the outline and the folds have them) → the body → the document.
A chat buffer has no frontmatter: the whole buffer is read as a body.

Each range strictly holds the one before it (the protocol requires it; equal ranges are given once).
Positions are the engine's: 0-based lines, code-point characters; lines end at `\\n` and a `\\r` before it
is never part of a range. A leading BOM is not text: no range holds it, and the first line's columns count
it as the buffer does.
"""

from __future__ import annotations

import bisect
from typing import Sequence as Seq

from ..document.frontmatter import BOM, lines_of, opens_frontmatter, read_text
from ..document.markdown_spans import fenced_blocks
from ..core.model import Position, Range
from ..document.yamltree import Mapping, Node, Scalar, Sequence
from .outline import OutlineItem, headings, own_line_end

_WORD_PUNCTUATION = "_-"  # a skill name (`demo-extra`) is one word; a dash at either end is not the word's
_QUOTES = "\"'"
_LEADING = " \t\ufeff"  # before a line's text: its indentation (and a BOM on the first line)


def _is_word(character: str) -> bool:
    return character.isalnum() or character in _WORD_PUNCTUATION


class _Document:
    """What every cursor's answer reads, computed once per request in one pass over the lines: the
    frontmatter, each line's block, the sections. A cursor's answer then costs the depth of its ranges."""

    def __init__(self, text: str, with_frontmatter: bool) -> None:
        self.first_column = 1 if text.startswith(BOM) else 0  # a BOM is not text: no range holds it
        split = lines_of(text)
        self.lines = [line.rstrip("\r\n") for line in split]  # the BOM stays: columns as the buffer's
        ends_with_break = bool(split) and split[-1].endswith("\n")
        self._end = Position(len(split), 0) if ends_with_break or not split else Position(len(split) - 1, len(self.lines[-1]))
        self.root: Node | None = None
        self.frontmatter_end: int | None = None  # the closing `---` line
        self.body_start = 0
        self.open_frontmatter = False  # an opening `---` never closed: everything is frontmatter being written
        if with_frontmatter:
            parsed = read_text(text, "SKILL.md").frontmatter
            if parsed is not None:
                self.root, self.frontmatter_end, self.body_start = parsed.root, parsed.end_line, parsed.end_line + 1
            else:
                self.open_frontmatter = opens_frontmatter(lines_of(text.removeprefix(BOM)))
        # the sections in document order: each one's range (to its last non-blank line) and the index of the
        # section holding it
        self.sections: list[tuple[Range, int | None]] = []
        self._flatten(headings(lines_of(text.removeprefix(BOM)), self.body_start), None)
        self.section_starts = [where.start.line for where, _parent in self.sections]
        self.blocks = self._blocks()
        # computed once when a cursor first needs them: each cursor's answer then costs the depth of its ranges
        self._words: dict[int, tuple[list[int], list[int]]] = {}  # a line's word starts and ends
        self._starts: dict[int, list[Position]] = {}  # a mapping's keys' or a sequence's items' starts, by id
        self._value_ends: dict[int, Position] = {}  # by the node's id
        self._texts: dict[int, Range | None] = {}  # a line's text without its indentation

    def _flatten(self, items: Seq[OutlineItem], parent: int | None) -> None:
        for item in items:
            first, last = item.range.start.line, item.range.end.line
            while last > first and not self.lines[last].strip():
                last -= 1  # the blank lines before the next heading are not the section's
            self.sections.append((Range(self.line_start(first), self.line_end(last)), parent))
            self._flatten(item.children, len(self.sections) - 1)

    def _blocks(self) -> list[tuple[int, int] | None]:
        """Each line's block: its fenced code block, else its paragraph (a heading is a block of its own);
        None for a blank line and the frontmatter's lines."""
        blocks: list[tuple[int, int] | None] = [None] * len(self.lines)
        for first, last in fenced_blocks(self.lines, self.body_start):
            blocks[first : last + 1] = [(first, last)] * (last - first + 1)
        headings = set(self.section_starts)
        number = self.body_start
        while number < len(self.lines):
            if blocks[number] is not None or not self.lines[number].strip() or number in headings:
                if number in headings:
                    blocks[number] = (number, number)
                number += 1
                continue
            last = number
            while last + 1 < len(self.lines) and blocks[last + 1] is None and self.lines[last + 1].strip() and last + 1 not in headings:
                last += 1
            blocks[number : last + 1] = [(number, last)] * (last - number + 1)
            number = last + 1
        return blocks

    def sections_holding(self, line: int) -> list[Range]:
        """The sections holding `line`, innermost first: the last heading at or above it, then its parents
        (a section runs to the next heading of its level or higher, so that heading's always holds it)."""
        at: int | None = bisect.bisect_right(self.section_starts, line) - 1
        found = []
        while at is not None and at >= 0:
            where, at = self.sections[at]
            found.append(where)
        return found

    def end(self) -> Position:
        """The end of the text: after its last line break, if it ends with one."""
        return self._end

    def line_start(self, line: int) -> Position:
        return Position(line, self.first_column if line == 0 else 0)

    def line_end(self, line: int) -> Position:
        return Position(line, len(self.lines[line]))

    def line_text(self, number: int) -> Range | None:
        """The line without its indentation and trailing spaces; None for a blank line."""
        if number not in self._texts:
            line = self.lines[number]
            start, end = len(line) - len(line.lstrip(_LEADING)), len(line.rstrip())
            self._texts[number] = Range.of(number, start, number, end) if start < end else None
        return self._texts[number]

    def word(self, number: int, character: int) -> Range | None:
        """The word under the cursor, or the one just before it (a cursor at a word's end)."""
        if number not in self._words:
            starts, ends = [], []
            line = self.lines[number]
            start = None
            for at, character_at in enumerate(line + " "):
                if _is_word(character_at):
                    start = at if start is None else start
                    continue
                if start is not None:
                    run = line[start:at]
                    inner = run.strip("-")  # a dash starts a list or a YAML block, `--flag`: not the word's
                    if inner:
                        starts.append(start + run.index(inner))
                        ends.append(starts[-1] + len(inner))
                    start = None
            self._words[number] = (starts, ends)
        starts, ends = self._words[number]
        at = bisect.bisect_right(starts, character) - 1  # the last word starting at or before the cursor
        if at < 0 or ends[at] < character:
            return None
        return Range.of(number, starts[at], number, ends[at])

    def nodes(self, node: Node, position: Position) -> list[Range]:
        """The ranges of the fields and values holding `position`, outermost first (a mapping itself adds
        none: its field does). Keys and items are in document order: the one holding `position` is the last
        starting at or before it."""
        if isinstance(node, Mapping):
            entry = self._last_before(node, [entry.key for entry in node.entries], position)
            if entry is None:
                return []
            key, value = node.entries[entry]
            field = Range(key.range.start, max(key.range.end, self.value_end(value)))
            if not _holds(field, position):
                return []
            return [field, *(self.nodes(value, position) if _holds(value.range, position) else [])]
        if isinstance(node, Sequence):
            whole = Range(node.range.start, self.value_end(node))
            item = self._last_before(node, list(node.items), position)
            if item is None or not _holds(node.items[item].range, position):
                return [whole]
            return [whole, *self.nodes(node.items[item], position)]
        assert isinstance(node, Scalar)
        where = Range(node.range.start, self.value_end(node))
        quoted = where.start.line == where.end.line and where.end.character - where.start.character >= 2
        text = self.lines[where.start.line] if where.start.line < len(self.lines) else ""
        opening = text[where.start.character : where.start.character + 1]
        if quoted and opening in _QUOTES and text[where.end.character - 1 : where.end.character] == opening:
            inside = Range.of(where.start.line, where.start.character + 1, where.end.line, where.end.character - 1)
            return [where, inside] if _holds(inside, position) else [where]
        return [where]

    def _last_before(self, parent: Node, children: list[Node], position: Position) -> int | None:
        if id(parent) not in self._starts:
            self._starts[id(parent)] = [child.range.start for child in children]
        at = bisect.bisect_right(self._starts[id(parent)], position) - 1
        return at if at >= 0 else None

    def value_end(self, node: Node) -> Position:
        """Where a value's text ends. A block value's range runs to the start of the next key's line, over
        the blank lines and the comments before it: those are not the value's (a comment left of a list's or
        a mapping's column is the enclosing mapping's). Inside a block scalar a `#` line is text: only blank
        lines are left out. (The outline's field ranges keep them: a symbol's range need not be tight.)"""
        if id(node) in self._value_ends:
            return self._value_ends[id(node)]
        lines = self.lines
        where = node.range
        end = own_line_end(where.end, where.start.line, lines)
        column = None if isinstance(node, Scalar) else where.start.character
        while end.line > where.start.line:
            text = lines[end.line]
            stripped = text.lstrip(" ")
            comment = column is not None and stripped.startswith("#") and len(text) - len(stripped) < column
            if stripped.strip() and not comment:
                break
            end = Position(end.line - 1, len(lines[end.line - 1]))
        self._value_ends[id(node)] = end
        return end


def selection_ranges(text: str, positions: Seq[Position], *, frontmatter: bool = True) -> list[list[Range]]:
    """For each position, the ranges around it, smallest first (never empty: the document is the last)."""
    document = _Document(text, frontmatter)
    return [_chain(document, position) for position in positions]


def _chain(document: _Document, position: Position) -> list[Range]:
    lines = document.lines
    line = min(max(position.line, 0), max(len(lines) - 1, 0))
    character = min(max(position.character, 0), len(lines[line]) if lines else 0)
    found: list[Range] = []
    word = document.word(line, character) if lines else None
    if word is not None:
        found.append(word)
    if document.frontmatter_end is not None and line <= document.frontmatter_end:
        found += _frontmatter(document, Position(line, character))
    elif document.open_frontmatter:
        found.append(Range(document.line_start(line), document.line_end(line)))
    elif lines:
        found += _body(document, line)
    found.append(Range(document.line_start(0), document.end()))
    return _strictly_growing(found)


def _frontmatter(document: _Document, position: Position) -> list[Range]:
    end = document.frontmatter_end
    assert end is not None
    found: list[Range] = []
    if isinstance(document.root, Mapping):
        found += reversed(document.nodes(document.root, position))
    if not found and 0 < position.line < end:  # a comment or a blank line between fields: the line
        found.append(Range(Position(position.line, 0), document.line_end(position.line)))
    if end > 1:
        found.append(Range(Position(1, 0), document.line_end(end - 1)))
    found.append(Range(document.line_start(0), document.line_end(end)))
    return found


def _holds(where: Range, position: Position) -> bool:
    return where.start <= position <= where.end


def _body(document: _Document, line: int) -> list[Range]:
    found: list[Range] = []
    text = document.line_text(line)
    if text is not None:
        found.append(text)
    block = document.blocks[line]
    if block is not None:
        found.append(Range(document.line_start(block[0]), document.line_end(block[1])))
    found += document.sections_holding(line)
    if document.body_start < len(document.lines):
        found.append(Range(document.line_start(document.body_start), document.end()))
    return found


def _strictly_growing(found: list[Range]) -> list[Range]:
    """Each range once, each holding the one before it."""
    kept: list[Range] = []
    for where in found:
        if not kept or (where != kept[-1] and where.start <= kept[-1].start and kept[-1].end <= where.end):
            kept.append(where)
    return kept
