"""The little Markdown the engine needs: which lines are prose and which sit inside fenced code blocks.

References, headings and chat `/commands` are all looked for in prose only; this is the one place that
knows how a fence (three or more backticks or tildes, indented at most three spaces) opens and closes.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
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
    for start in _line_starts_holding(text, offset, needles):
        number += text.count("\n", counted, start)
        counted = start
        end = text.find("\n", start)
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
    left open runs to the last line."""
    blocks: list[tuple[int, int]] = []
    fence: str | None = None
    opened = 0
    for number in range(start, len(lines)):
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
