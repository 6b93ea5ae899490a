"""Markdown read into the spans the engine looks at, in one pass down the text: which lines are prose and
which sit in fenced code, and on a prose line its code spans, inline links and link reference definition.

The order is the data's: the text's lines are told prose or fenced once, top to bottom (`prose_lines`,
`prose_lines_holding`); a prose line is then read into its spans (`line_spans`): code spans first, then the
links of the line with its code spans blanked (a `[x](y)` inside code is not a link), then the definition
the whole line may be. Consumers only read what comes out: reference_scan.py (file references),
mention_scan.py (mentions of a skill), authoring/outline.py (headings) and slash.py (chat commands).

Positions are 0-based code points in a line without its end: only `\n` ends a line and a `\r` before it is
not part of the line, so a CRLF file gets the same columns as an LF one.

Every scan here is linear in its line, whatever the line holds (docs/design.md#8-trust-boundaries). The
obvious regular expressions for code spans and links restart from every `[` or backtick and may scan to the
end of the line each time: a line of `[\\` repeated took 56 s at 80 KB. The scanners here decide every start
from facts computed once per line, and find exactly what these expressions find with `finditer`,
non-overlapping, left to right:

    code span    (?<!`)(`+)(?!`)(.+?)(?<!`)\\1(?!`)
    inline link  !?\\[(?:[^\\[\\]\\\\]|\\\\.)*\\]  followed by _DESTINATION below

The link reference definition is read by a hand-written one-pass scanner (`link_definition`).
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator, NamedTuple

from ..core import programs

# --- fences: which lines are prose ---------------------------------------------------------------------

_FENCE = programs.compile(r"^ {0,3}(`{3,}|~{3,})")
_FENCE_RUNS = ("```", "~~~")  # a line without one of these neither opens nor closes a fence


def _fence_after(fence: str | None, line: str) -> tuple[str | None, bool]:
    """Given the fence open before `line` (None: none), the fence open after it and whether `line` is
    prose. The one place that knows how a fence opens and closes."""
    # a fence is a run of three backticks or tildes: a line without one is decided without the regex
    opener = _FENCE.match(line) if ("```" in line or "~~~" in line) else None
    if fence is not None:
        if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
            if not line[opener.end() :].strip():
                return None, False
        return fence, False
    if opener:
        return opener.group(1), False
    return None, True


def prose_lines(lines: list[str], start: int = 0) -> Iterator[tuple[int, str]]:
    """(line number, line without its end) for every line from `start` that is outside fenced code."""
    fence: str | None = None
    for number in range(start, len(lines)):
        line = lines[number].rstrip("\r\n")
        fence, prose = _fence_after(fence, line)
        if prose:
            yield number, line


def prose_lines_holding(text: str, offset: int, first_line: int, needles: str) -> Iterator[tuple[int, str]]:
    """(line number, line without its end) for every line of `text` from `offset` (the start of line
    `first_line`) that is outside fenced code and holds one of the characters of `needles`.

    Only the lines holding a needle, or a fence run before the last of those, are looked at (no other
    line can open or close a fence), and they are found by substring searches through the text: with
    needles that are rare in prose, a body of a hundred lines costs a few searches instead of a test per
    line, and is never split."""
    fence: str | None = None
    number, counted = first_line, offset  # `number` is the line that starts at `counted`
    count, find = text.count, text.find
    for start in _line_starts_holding(text, offset, needles):
        number += count("\n", counted, start)
        counted = start
        end = find("\n", start)
        line = (text[start:] if end < 0 else text[start:end]).rstrip("\r")
        fence, prose = _fence_after(fence, line)
        if prose:
            for character in needles:
                if character in line:
                    yield number, line
                    break


def _line_starts_holding(text: str, offset: int, needles: str) -> list[int]:
    """The offsets, in order, of the lines from `offset` (a line's start) that hold one of the characters
    of `needles`, and of the lines before the last of them that hold a fence run (which decide whether
    those lines are code). Empty when no line holds a needle: then no fence needs finding."""
    starts: set[int] = set()
    _add_lines_holding(text, offset, len(text), needles, starts)
    if starts:
        # the last needle line is looked at anyway: only the fence lines before it matter
        _add_lines_holding(text, offset, max(starts), _FENCE_RUNS, starts)
    return sorted(starts)


def _add_lines_holding(text: str, offset: int, limit: int, strings: Iterable[str], starts: set[int]) -> None:
    """Add to `starts` the start of each line between `offset` and `limit` that holds one of `strings`.
    Each string is searched for from the end of the last line it was found on: linear in the text."""
    find = text.find
    for string in strings:
        # a single character is a memchr: most absent strings are ruled out by their first one
        at = find(string, offset, limit) if find(string[0], offset, limit) >= 0 else -1
        while at >= 0:
            starts.add(text.rfind("\n", 0, at) + 1)
            end = find("\n", at, limit)
            if end < 0:
                break
            at = find(string, end, limit)


def fenced_blocks(lines: list[str], start: int = 0) -> list[tuple[int, int]]:
    """(first line, last line) of every fenced code block from `start`, its fence lines included; a fence
    left open runs to the last line. Only a line holding a fence run can open or close a fence
    (`_fence_after`): the others are passed over without a call."""
    blocks: list[tuple[int, int]] = []
    fence: str | None = None
    opened = 0
    runs = [number for number in range(start, len(lines)) if "```" in lines[number] or "~~~" in lines[number]]
    for number in runs:
        before = fence
        fence, _prose = _fence_after(fence, lines[number].rstrip("\r\n"))
        if before is None and fence is not None:
            opened = number
        elif before is not None and fence is None:
            blocks.append((opened, number))
    if fence is not None:
        blocks.append((opened, len(lines) - 1))
    return blocks


def fenced_lines(lines: list[str]) -> set[int]:
    """Line numbers inside fenced code blocks, the fence lines included."""
    prose = {number for number, _line in prose_lines(lines)}
    return {number for number in range(len(lines)) if number not in prose}


# --- the spans of one prose line -------------------------------------------------------------------------

# What follows a link's `]`: `(`, then an <angle> or bare destination, an optional title, `)`. Matched once
# per distinct `]` (memoised), and linear from where it starts: every repetition below is delimited by a
# character its body cannot hold, so a failed attempt gives back characters one at a time at most once.
# The destination's runs are possessive (`++`, `*+`): a destination splits into its items one way only, and
# what follows it starts with a space or `)`, which no item starts with, so giving back is never of use;
# a run of ordinary characters is then taken in one step instead of one alternation per character.
_DESTINATION = programs.compile(
    r"\(\s*(?:<(?P<angle>[^<>\n]*+)>|(?P<bare>(?:[^\s()\\]++|\\.|\((?:[^\s()\\]++|\\.)*+\))++))"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)"
)


class Span(NamedTuple):
    """A found construct: `start`/`end` of the whole, and `begin`/`stop` of its content (a code span's
    text between the backtick runs; a link's destination without `<>`)."""

    start: int
    end: int
    begin: int
    stop: int


def code_spans(line: str) -> list[Span]:
    """The line's code spans: a backtick run, at least one character, then the next run of the same length.

    A run with no later run of its length is literal text and the scan moves on to the next run. Runs are
    listed once; for each length a cursor only moves forward through that length's runs, so the whole scan
    is linear however many runs and lengths the line holds.
    """
    runs: list[tuple[int, int]] = []  # (start, length) of every maximal backtick run
    index = line.find("`")
    while index >= 0:
        end = index + 1
        while end < len(line) and line[end] == "`":
            end += 1
        runs.append((index, end - index))
        index = line.find("`", end)
    by_length: dict[int, list[int]] = {}  # length -> indexes into `runs`, in order
    for number, (_start, length) in enumerate(runs):
        by_length.setdefault(length, []).append(number)
    cursor = dict.fromkeys(by_length, 0)  # length -> position in by_length[length] of the next candidate
    spans: list[Span] = []
    number = 0
    while number < len(runs):
        start, length = runs[number]
        same = by_length[length]
        while cursor[length] < len(same) and same[cursor[length]] <= number:
            cursor[length] += 1
        if cursor[length] == len(same):
            number += 1  # no closer: a literal run
            continue
        closer = same[cursor[length]]
        close_start = runs[closer][0]
        spans.append(Span(start, close_start + length, start + length, close_start))
        number = closer + 1
    return spans


def _link_text_ends(line: str) -> list[int]:
    """For each position p, where link text starting at p ends: the index of its closing `]`, or -1.

    Link text is plain characters other than `[`, `]` and `\\`, or a backslash and any character. Computed
    right to left once, so every `[` learns its `]` in constant time.
    """
    size = len(line)
    ends = [-1] * (size + 2)
    for position in range(size - 1, -1, -1):
        character = line[position]
        if character == "]":
            ends[position] = position
        elif character == "\\":
            ends[position] = ends[position + 2] if position + 1 < size else -1
        elif character != "[":
            ends[position] = ends[position + 1]
    return ends


def inline_links(line: str) -> list[tuple[Span, str]]:
    """The line's inline links and images as (span, "angle" or "bare"): `span.begin`/`span.stop` delimit the
    destination as written (inside `<>` for an angle destination)."""
    if "[" not in line or "](" not in line:
        return []
    # Without a backslash, link text ends at the next `]` unless a `[` comes first: two forward cursors
    # (openings only move right) answer that, and skip the per-character table the escapes need.
    ends = _link_text_ends(line) if "\\" in line else None
    next_close = next_open = -2  # the next `]` and `[` from the last text start asked for; -1: none left
    after: dict[int, re.Match[str] | None] = {}  # `]` position -> what follows it, matched once
    found: list[tuple[Span, str]] = []
    position = 0
    while True:
        opening = line.find("[", position)
        if opening < 0:
            return found
        if ends is not None:
            close = ends[opening + 1]
        else:
            text_start = opening + 1
            if -1 != next_close < text_start:
                next_close = line.find("]", text_start)
            if -1 != next_open < text_start:
                next_open = line.find("[", text_start)
            close = next_close if next_close >= 0 and (next_open < 0 or next_close < next_open) else -1
        if close >= 0:
            if close not in after:
                after[close] = _DESTINATION.match(line, close + 1)
            destination = after[close]
            if destination is not None:
                start = opening - 1 if opening > position and line[opening - 1] == "!" else opening
                group = "angle" if destination.group("angle") is not None else "bare"
                span = Span(start, destination.end(), destination.start(group), destination.end(group))
                found.append((span, group))
                position = destination.end()
                continue
        position = opening + 1


_SPACE = " \t"


def link_definition(line: str) -> tuple[int, int] | None:
    """Where the target of a CommonMark link reference definition is, when the whole line is one:
    `[label]: target`, the target bare or in `<>`, then optionally a title in `"`, `'` or `()`, then nothing
    but spaces. A footnote (`[^1]: ...`) is not a definition.

    One pass over the line, character by character: linear whatever the line holds.
    """
    length = len(line)
    index = 0
    while index < length and line[index] == " ":
        index += 1
    if index > 3 or index >= length or line[index] != "[":
        return None
    index += 1
    label_start = index
    while index < length and line[index] != "]":
        if line[index] == "[":
            return None
        index += 2 if line[index] == "\\" else 1
    label = line[label_start:index]
    if index >= length or not label.strip() or label.startswith("^"):
        return None
    index += 1
    if index >= length or line[index] != ":":
        return None
    index += 1
    while index < length and line[index] in _SPACE:
        index += 1
    if index >= length:
        return None  # the target is on the next line: not a reference we place
    if line[index] == "<":
        begin = index + 1
        close = line.find(">", begin)
        if close < 0 or "<" in line[begin:close]:
            return None
        end, index = close, close + 1
    else:
        begin = index
        depth = 0
        while index < length and line[index] not in _SPACE:
            character = line[index]
            if character == "\\":
                index += 1
            elif character == "(":
                depth += 1
            elif character == ")":
                depth -= 1
                if depth < 0:
                    return None
            index += 1
        if depth:
            return None
        end = index
    rest = line[index:]
    after = rest.lstrip(_SPACE)
    if after and (len(after) == len(rest) or not _whole_title(after)):
        return None
    return begin, end


def _whole_title(text: str) -> bool:
    """Whether `text` is one link title (`"t"`, `'t'` or `(t)`) followed only by spaces."""
    closing = {'"': '"', "'": "'", "(": ")"}.get(text[0])
    if closing is None:
        return False
    index = 1
    while index < len(text):
        character = text[index]
        if character == "\\":
            index += 2
            continue
        if character == closing:
            return not text[index + 1 :].strip(_SPACE)
        if text[0] == "(" and character == "(":
            return False
        index += 1
    return False


# --- one prose line read into its spans ---------------------------------------------------------------------


class LineSpans(NamedTuple):
    """What one prose line holds, in the line's own columns: its code spans; its inline links and images,
    found on `plain`, the line with its code spans blanked; and, when the whole of `plain` is one, the link
    reference definition as a `Span` of the line whose `begin`/`stop` delimit the target. A link's text is
    read from `plain`: an escape before a blanked code span takes a space, not a backtick."""

    code: list[Span]
    links: list[Span]
    definition: Span | None
    plain: str


_NO_SPANS: list[Span] = []  # shared by the lines without one kind of span; never appended to
_new = tuple.__new__  # a NamedTuple from its fields without its Python-level __new__: one per line read


def line_spans(line: str) -> LineSpans:
    """The spans of one prose line (without its end), each construct found once."""
    code = code_spans(line) if "`" in line else _NO_SPANS
    if "[" not in line:
        return _new(LineSpans, (code, _NO_SPANS, None, line))
    plain = line
    if code:
        # blanked with spaces, not cut out: the links keep the columns of the line
        masked = list(line)
        for span in code:
            masked[span.start : span.end] = " " * (span.end - span.start)
        plain = "".join(masked)
        if "[" not in plain:
            return _new(LineSpans, (code, _NO_SPANS, None, plain))
    links = [span for span, _form in inline_links(plain)]
    target = link_definition(plain)
    definition = None if target is None else Span(0, len(plain), *target)
    return _new(LineSpans, (code, links, definition, plain))
