"""Code spans and inline links of one Markdown line, found in time linear in the line (docs/design.md#8-trust-boundaries).

The obvious regular expressions for these constructs restart from every `[` or backtick and may scan to
the end of the line each time: a line of `[\\` repeated took 56 s at 80 KB. Both scanners here
decide every start from facts computed once per line, so a line of any shape costs a few passes over it.
They find exactly what these expressions find with `finditer`, non-overlapping, left to right:

    code span    (?<!`)(`+)(?!`)(.+?)(?<!`)\\1(?!`)
    inline link  !?\\[(?:[^\\[\\]\\\\]|\\\\.)*\\]  followed by _DESTINATION below

A line here never holds `\\n` (callers pass lines without their end).
"""

from __future__ import annotations

import re
from typing import NamedTuple

# What follows a link's `]`: `(`, then an <angle> or bare destination, an optional title, `)`. Matched once
# per distinct `]` (memoised), and linear from where it starts: every repetition below is delimited by a
# character its body cannot hold, so a failed attempt gives back characters one at a time at most once.
_DESTINATION = re.compile(
    r"\(\s*(?:<(?P<angle>[^<>\n]*)>|(?P<bare>(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+))"
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
