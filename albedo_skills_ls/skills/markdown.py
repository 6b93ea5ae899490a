"""The little Markdown the engine needs: which lines are prose and which sit inside fenced code blocks.

References, headings and chat `/commands` are all looked for in prose only; this is the one place that
knows how a fence (three or more backticks or tildes, indented at most three spaces) opens and closes.
"""

from __future__ import annotations

import re
from typing import Iterator

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_FENCE_CHARACTERS = "`~"


def prose_lines(lines: list[str], start: int = 0, needles: str | None = None) -> Iterator[tuple[int, str]]:
    """(line number, line without its end) for every line from `start` that is outside fenced code.

    With `needles`, only lines holding one of those characters are yielded; lines holding neither a needle
    nor a fence character are skipped without a regex (they can neither open nor close a fence), which is
    what keeps the reference scan cheap on long bodies.
    """
    if needles is None:
        candidates: range | list[int] = range(start, len(lines))
    else:
        # a fence character matters only if some line holds three of it in a row
        body = "".join(lines[start:])
        fences = "".join(character for character in _FENCE_CHARACTERS if character * 3 in body)
        candidates = _lines_holding(lines, start, needles + fences)
    fence: str | None = None
    for number in candidates:
        line = lines[number].rstrip("\r\n")
        # a fence is a run of three backticks or tildes: a line without one is decided without the regex
        opener = _FENCE.match(line) if ("```" in line or "~~~" in line) else None
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                if not line[opener.end() :].strip():
                    fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        if needles is None:
            yield number, line
        else:
            for character in needles:
                if character in line:
                    yield number, line
                    break


def _lines_holding(lines: list[str], start: int, characters: str) -> list[int]:
    """The numbers of the lines from `start` that hold one of `characters` (at most three distinct ones).

    One comprehension of `in` tests: on a body of a hundred lines this filter is most of the scan, and it is
    twice as fast as a loop over the characters or a regex search per line (benchmarks/)."""
    distinct = tuple(dict.fromkeys(characters))
    numbered = enumerate(lines[start:], start)
    if len(distinct) == 1:
        (a,) = distinct
        return [number for number, line in numbered if a in line]
    if len(distinct) == 2:
        a, b = distinct
        return [number for number, line in numbered if a in line or b in line]
    if len(distinct) == 3:
        a, b, c = distinct
        return [number for number, line in numbered if a in line or b in line or c in line]
    raise ValueError(f"one to three characters to look for, not {len(distinct)}")


def fenced_lines(lines: list[str]) -> set[int]:
    """Line numbers inside fenced code blocks, the fence lines included."""
    prose = {number for number, _line in prose_lines(lines)}
    return {number for number in range(len(lines)) if number not in prose}
