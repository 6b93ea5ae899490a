"""The frontmatter almost every skill has, read without ruamel.yaml.

Most `SKILL.md` frontmatter is a block mapping of one-line scalars (plain, single- or double-quoted), a
`description` written as a folded or literal block or as a plain scalar over several lines, one nested map
of such scalars (`metadata`), and lists: one-line flow lists of plain words (`tools: [Read, Write]`, also in
the nested map) and block lists of one-line scalars under a top-level key. This module reads exactly that
shape, line by line, into the same `Scalar`/`Sequence`/`Mapping` tree, with the same ranges and the same
duplicate-key diagnostics, as the ruamel.yaml (libyaml) path of yaml_events.py. A command-line
run whose files all have this shape never imports ruamel.yaml, which is a large part of the start-up cost
(see benchmarks/).

`parse_common` returns None (declines) for anything outside the shape, and the caller falls back to
ruamel.yaml. Declining is always safe, so every rule here is deliberately narrower than YAML: tabs, any
`\\r` that is not part of a CRLF, control and special Unicode characters, anchors, tags, flow maps, other
flow lists, indentless or nested block lists, directives, document markers, complex or quoted keys,
multi-line quoted scalars, block-scalar indentation indicators, `+` chomping, more-indented folded lines,
whitespace-only lines inside a block scalar, and a plain scalar that YAML might read as something else
(`: `, ` #` on a continuation line, leading indicator characters) are all declined.
tests/unit/test_fastyaml.py checks the agreement with ruamel.yaml node for node and range for range, on
examples and on generated documents.
"""

from __future__ import annotations

import re

from ..core import programs
from ..core.model import Diagnostic, Range
from .yamltree import Entry, Mapping, Node, Scalar, Sequence, duplicate_key

# Anything outside printable ASCII, the line feed and the Unicode YAML treats as ordinary text sends the
# document to ruamel.yaml: tabs, CR (CRLF is rewritten first), C0/C1 controls, DEL, NEL, U+2028/U+2029,
# the BOM, surrogates and the non-characters U+FFFE/U+FFFF.
# Written as the class of the characters sent away rather than the negation of those kept: the same set
# (tests/unit/test_fastyaml.py checks every code point), compiled in 0.7 ms instead of 6 ms at each start.
_OUTSIDE = programs.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
_PRINTABLE_ASCII_AND_LF = bytes(range(0x20, 0x7F)) + b"\n"  # the ASCII characters kept

# Nodes are built by tuple.__new__ directly: a NamedTuple's generated __new__ is a Python call, and skipping
# it takes a fifth off the reading of a line
_new = tuple.__new__

# A key: a short plain word at the start of the line's content, then `:` and a space or the line's end.
# libyaml allows far more (and keys up to 1024 characters); anything else is declined.
_KEY = programs.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}):(?: +|$)")

# A whole `key: value` line whose value is single-quoted, double-quoted, or plain (its first character no
# indicator, no ` #` inside), with an optional comment. Matched from the line's indentation on. The caller
# rules out what this regex lets through (a double-quoted value with escapes, a plain one holding `: ` or
# ending with `:`), and strips the spaces a plain value's run takes before a comment or the line's end.
# Every run is of the characters other than one: the regex engine takes such a run a few instructions per
# character, where a class of two (`[^"\\]`, `[^ :]`) costs ten times that. This regex reads most
# frontmatter lines. Possessive runs (`++`, `*+`) never give back what they took: no backtracking.
_ONE_LINE_ENTRY = programs.compile(
    r"([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}): +"
    r"(?:'((?:[^']++|'')*+)'"
    r'|"([^"]*+)"'
    r"|([^-?:,\[\]{}#&*!|>'\"%@` ](?:[^#]*+(?<! )#)*+[^#]*+))"
    r" *(?:(?<= )#.*)?"
)
_DOUBLE_QUOTED_VALUE, _PLAIN = 3, 4  # _ONE_LINE_ENTRY's value groups (2 is the single-quoted value)

# Characters that give a plain scalar's first character (or a continuation line's) another meaning.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")

_BLOCK_HEADERS = frozenset(("|", "|-", ">", ">-"))

# An item of a one-line flow sequence: a plain word without spaces, colons or flow indicators.
_FLOW_WORD = programs.compile(r"[A-Za-z0-9_][A-Za-z0-9_.()*/@+-]*")

_DOUBLE_QUOTED = programs.compile(r'"((?:[^"\\]|\\.)*)"')
_ESCAPE = programs.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")
_SIMPLE_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", "e": "\x1b",
    " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}


class _Decline(Exception):
    """Raised anywhere inside the reader: the document is not of the common shape."""


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if len(code) == 1:
        if code not in _SIMPLE_ESCAPES:
            raise _Decline
        return _SIMPLE_ESCAPES[code]
    value = int(code[1:], 16)
    if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
        raise _Decline
    return chr(value)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_blank_or_comment(line: str) -> bool:
    content = line.lstrip(" ")
    return not content or content[0] == "#"


class _Reader:
    """Reads the lines of one YAML text. Line numbers inside are indexes into `lines`; the nodes get
    them plus `offset` (the document line of the YAML's first line), as the event path gives them."""

    def __init__(self, lines: list[str], ends_with_break: bool, path: str, line_offset: int) -> None:
        self.lines = lines
        self.ends_with_break = ends_with_break
        self.path = path
        self.offset = line_offset
        self.problems: list[Diagnostic] = []

    def next_significant(self, index: int) -> int:
        """The first line from `index` on that is neither blank nor a comment (len(lines) if none)."""
        lines = self.lines
        while index < len(lines) and _is_blank_or_comment(lines[index]):
            index += 1
        return index

    def mapping(self, index: int, indent: int, nested: bool) -> tuple[Mapping, int]:
        """The block mapping whose keys sit at column `indent`, from line `index`; returns it and the line
        after it. Its range ends where the next token starts, as libyaml's block end does.

        This loop is most of the fast path's time, hence the inlined line tests."""
        lines, offset, count = self.lines, self.offset, len(self.lines)
        entries: list[Entry] = []
        seen: set[str] = set()
        first = self.next_significant(index)
        if first == count or _indent(lines[first]) != indent:
            raise _Decline  # an empty nested map cannot happen here; an empty document is handled by the caller
        first_row = first + offset
        margin = " " * indent  # what every line of this mapping starts with
        deeper = margin + " "  # a line starting with this continues or nests under the entry
        new = _new
        one_line_entry = _ONE_LINE_ENTRY.fullmatch
        while index < count:
            line = lines[index]
            # The usual entry first, read by one regex from the mapping's column (a key cannot start with a
            # space, so a match also proves the entry sits exactly at `indent`).
            one_line = one_line_entry(line, indent) if not indent or line.startswith(margin) else None
            if one_line is not None:
                group = one_line.lastindex
                name, text = one_line.group(1, group)
                begin, end = one_line.span(group)
                if group == _PLAIN:
                    if text[-1] == " ":
                        text = text.rstrip(" ")
                        end = begin + len(text)
                    following = index + 1
                    # A plain value may continue on the next line (or after an empty one); `: ` or a final
                    # `:` would make it a map: then the general reader below takes it.
                    simple = (
                        (following == count or (lines[following] and not lines[following].startswith(deeper)))
                        and ": " not in text
                        and text[-1] != ":"
                    )
                elif group == _DOUBLE_QUOTED_VALUE:
                    simple = "\\" not in text  # escapes are read by `quoted`
                    begin, end = begin - 1, end + 1
                else:
                    if "''" in text:
                        text = text.replace("''", "'")
                    simple = True
                    begin, end = begin - 1, end + 1
                if simple:
                    row = index + offset
                    index += 1
                    key = new(Scalar, (name, row, indent, row, indent + len(name)))
                    if name in seen:
                        self.problems.append(duplicate_key(self.path, key))
                    seen.add(name)
                    entries.append(new(Entry, (key, new(Scalar, (text, row, begin, row, end)))))
                    continue
            content = line.lstrip(" ")
            if not content or content[0] == "#":
                index += 1
                continue
            column = len(line) - len(content)
            if column != indent:
                if column < indent:
                    break
                raise _Decline
            row = index + offset
            found = _KEY.match(line, column)
            if found is None:
                raise _Decline
            name = found.group(1)
            key_end = column + len(name)
            key = new(Scalar, (name, row, column, row, key_end))
            value, index = self.value(index, found.end(), key_end + 1, indent, nested)
            if name in seen:  # after the value, as the event builder reports a nested duplicate first
                self.problems.append(duplicate_key(self.path, key))
            seen.add(name)
            entries.append(new(Entry, (key, value)))
        return new(Mapping, (tuple(entries), Range.of(first_row, indent, index + offset, 0))), index

    def value(self, index: int, start: int, colon_end: int, indent: int, nested: bool) -> tuple[Node, int]:
        """The value that starts at column `start` of line `index`, in a mapping at column `indent`."""
        line = self.lines[index]
        rest = line[start:]
        if not rest or rest[0] == "#":
            following = self.next_significant(index + 1)
            if following < len(self.lines) and _indent(self.lines[following]) > indent:
                if nested:
                    raise _Decline  # only one level of nesting
                column = _indent(self.lines[following])
                if self.lines[following].startswith("- ", column):
                    return self.sequence(following, column)
                return self.mapping(following, column, True)
            # libyaml places an empty value right after the key's `:`
            row = index + self.offset
            return Scalar("", row, colon_end, row, colon_end), index + 1
        first = rest[0]
        if first == '"' or first == "'":
            return self.quoted(index, start), index + 1
        if first == "[":
            return self.flow_sequence(index, start), index + 1
        if first == "|" or first == ">":
            return self.block(index, start, indent)
        if first in _INDICATORS:
            raise _Decline
        return self.plain(index, start, indent)

    def sequence(self, index: int, indent: int) -> tuple[Sequence, int]:
        """A block sequence of one-line scalars whose `- ` sit at column `indent` (more indented than its
        key). Like a block mapping, its range ends where the next token starts."""
        lines, offset = self.lines, self.offset
        items: list[Node] = []
        first_row = index + offset
        while True:
            index = self.next_significant(index)
            if index == len(lines):
                break
            line = lines[index]
            column = _indent(line)
            if column < indent:
                break
            if column > indent or not line.startswith("- ", column):
                raise _Decline
            value_start = column + 2
            while line.startswith(" ", value_start):
                value_start += 1
            rest = line[value_start:]
            if not rest or rest[0] == "#":
                raise _Decline  # an empty item
            if rest[0] == '"' or rest[0] == "'":
                item: Node = self.quoted(index, value_start)
                index += 1
            elif rest[0] in _INDICATORS:
                raise _Decline
            else:
                item, index = self.plain(index, value_start, indent)
            items.append(item)
        return Sequence(tuple(items), Range.of(first_row, indent, index + offset, 0)), index

    def flow_sequence(self, index: int, start: int) -> Sequence:
        """`[word, word, ...]` on one line: plain words only (flow context has its own plain-scalar rules)."""
        line = self.lines[index]
        row = index + self.offset
        items: list[Node] = []
        position = start + 1
        while True:
            while line.startswith(" ", position):
                position += 1
            word = _FLOW_WORD.match(line, position)
            if word is None:
                raise _Decline  # an empty list, a trailing comma, a quoted or nested item
            items.append(Scalar(word.group(), row, word.start(), row, word.end()))
            position = word.end()
            while line.startswith(" ", position):
                position += 1
            if line.startswith(",", position):
                position += 1
                continue
            if line.startswith("]", position):
                position += 1
                break
            raise _Decline
        after = line[position:]
        if after.strip(" ") and not (after[0] == " " and after.lstrip(" ")[0] == "#"):
            raise _Decline
        return Sequence(tuple(items), Range.of(row, start, row, position))

    def quoted(self, index: int, start: int) -> Scalar:
        line = self.lines[index]
        if line[start] == "'":
            position = start + 1
            while True:
                close = line.find("'", position)
                if close < 0:
                    raise _Decline  # unterminated, or continued on the next line
                if line.startswith("'", close + 1):
                    position = close + 2
                    continue
                break
            value = line[start + 1 : close].replace("''", "'")
            end = close + 1
        else:
            found = _DOUBLE_QUOTED.match(line, start)
            if found is None:
                raise _Decline
            value = found.group(1)
            if "\\" in value:
                value = _ESCAPE.sub(_unescape, value)
            end = found.end()
        after = line[end:]
        if after.strip(" ") and not (after[0] == " " and after.lstrip(" ")[0] == "#"):
            raise _Decline  # something other than a comment follows the closing quote
        row = index + self.offset
        return _new(Scalar, (value, row, start, row, end))

    def plain(self, index: int, start: int, indent: int) -> tuple[Scalar, int]:
        """A plain scalar, possibly continued on more-indented lines (folded into spaces and breaks)."""
        lines = self.lines
        text = lines[index][start:]
        comment = text.find(" #")
        if comment >= 0:
            text = text[:comment]
        text = text.rstrip(" ")
        if ": " in text or text.endswith(":"):
            raise _Decline
        parts = [text]
        last, end = index, start + len(text)
        empty = 0
        following = index + 1
        while following < len(lines):
            line = lines[following]
            content = line.strip(" ")
            if not content:
                empty += 1
                following += 1
                continue
            if _indent(line) <= indent or content[0] == "#":
                break  # the next key, or a comment that ends the scalar
            if (
                comment >= 0
                or content[0] in _INDICATORS
                or ": " in content
                or content.endswith(":")
                or " #" in content
            ):
                raise _Decline
            parts.append("\n" * empty if empty else " ")
            parts.append(content)
            empty = 0
            last, end = following, len(line.rstrip(" "))
            following += 1
        offset = self.offset
        return _new(Scalar, ("".join(parts), index + offset, start, last + offset, end)), last + 1

    def block(self, index: int, start: int, indent: int) -> tuple[Scalar, int]:
        """A literal (`|`, `|-`) or folded (`>`, `>-`) block scalar without an indentation indicator."""
        lines = self.lines
        header = lines[index][start:].rstrip(" ")
        if header not in _BLOCK_HEADERS:
            raise _Decline
        folded, strip = header[0] == ">", header.endswith("-")
        following = index + 1
        if following == len(lines) or not lines[following].strip(" "):
            raise _Decline  # leading empty lines, or an empty block: rare, and their rules are subtle
        content_indent = _indent(lines[following])
        if content_indent <= indent:
            raise _Decline
        parts: list[str] = []
        empty = 0
        margin = " " * content_indent
        while following < len(lines):
            line = lines[following]
            if not line:
                empty += 1
                following += 1
                continue
            if line.startswith(margin) and line[content_indent:content_indent + 1].strip(" "):
                text = line[content_indent:]  # the usual line: text right at the block's indentation
            else:
                column = _indent(line)
                if column == len(line):
                    raise _Decline  # a whitespace-only line: its spaces may or may not be content
                if column < content_indent:
                    if column > indent and line[column] != "#":
                        raise _Decline  # neither inside the block nor back in the mapping
                    break
                if folded:
                    raise _Decline  # more-indented lines keep their breaks in a folded block
                text = line[content_indent:]
            if parts:
                parts.append(("\n" * empty if empty else " ") if folded else "\n" * (empty + 1))
            parts.append(text)
            empty = 0
            following += 1
        value = "".join(parts)
        end_line, end_column = following, 0  # the start of the line that ends the block
        if following == len(lines) and not self.ends_with_break:
            # the document ends on the block's last line, without a line break: nothing to clip
            end_line, end_column = following - 1, len(lines[-1])
        elif not strip:
            value += "\n"  # clip keeps the last line break
        offset = self.offset
        return _new(Scalar, (value, index + offset, start, end_line + offset, end_column)), following


def parse_common(
    yaml_text: str, path: str, line_offset: int = 0, lines: list[str] | None = None
) -> tuple[Node, list[Diagnostic]] | None:
    """The tree and diagnostics `frontmatter.parse_yaml` would give, or None when the text is not of the
    common shape (then ruamel.yaml must read it). `lines` is `yaml_text.split("\\n")` when the caller
    has it (it is not changed)."""
    if "\r" in yaml_text:
        if yaml_text.count("\r") != yaml_text.count("\r\n"):
            return None
        yaml_text = yaml_text.replace("\r\n", "\n")  # columns and line numbers stay the same
        lines = None
    if yaml_text.isascii():
        # the usual case, decided in C: deleting the printable bytes and the line feed must leave nothing
        # (several times cheaper than str.isprintable, which looks every character up in Unicode's tables)
        if yaml_text.encode("ascii").translate(None, _PRINTABLE_ASCII_AND_LF):
            return None
    elif _OUTSIDE.search(yaml_text) is not None:
        return None
    if lines is None:
        lines = yaml_text.split("\n")
    ends_with_break = lines[-1] == ""
    if ends_with_break:
        lines = lines[:-1]
    elif _is_blank_or_comment(lines[-1]):
        # The text ends on spaces or a comment without a line break: libyaml then ends an inner block where
        # the text ends, or on the next line, depending on that last line's length. Frontmatter never
        # ends so (the closing `---` follows a line break).
        return None
    reader = _Reader(lines, ends_with_break, path, line_offset)
    if reader.next_significant(0) == len(lines):  # only comments and blank lines: no document, an empty map
        return Mapping((), Range.of(line_offset, 0)), []
    try:
        root, after = reader.mapping(0, 0, False)
    except _Decline:
        return None
    if after != len(lines):
        return None  # something at column 0 that is not a key: not ours to judge
    return root, reader.problems
