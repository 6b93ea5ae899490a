"""The little Markdown the engine needs: which lines are prose and which sit inside fenced code blocks.

References, headings and chat `/commands` are all looked for in prose only; this is the one place that
knows how a fence (three or more backticks or tildes, indented at most three spaces) opens and closes.
"""

from __future__ import annotations

import re
from typing import Iterator

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_FENCE_RUNS = ("```", "~~~")  # a line without one of these neither opens nor closes a fence


def prose_lines(lines: list[str], start: int = 0, needles: str | None = None) -> Iterator[tuple[int, str]]:
    """(line number, line without its end) for every line from `start` that is outside fenced code.

    With `needles`, only lines holding one of those characters are yielded, and only the lines holding a
    needle or three fence characters in a row are looked at past one quick test (no other line can open or
    close a fence): with needles that are rare in prose, few lines are.
    """
    if needles is None:
        candidates: range | list[int] = range(start, len(lines))
    else:
        candidates = _lines_holding(lines, start, (*needles, *_FENCE_RUNS))
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


def _lines_holding(lines: list[str], start: int, strings: tuple[str, ...]) -> list[int]:
    """The numbers, in order, of the lines from `start` that hold one of `strings` (at most four).

    One comprehension of `in` tests, for only the strings the body holds at all: on a body of a hundred
    lines this filter is most of the reference scan, and it measured faster than a loop over the strings,
    a regex per line, or searches through the joined body (docs/performance.md, round 3)."""
    body = "".join(lines[start:])
    # the first character alone is a memchr: most absent strings are ruled out without a full search
    present = tuple(string for string in strings if string[0] in body and string in body)
    numbered = enumerate(lines[start:], start)
    if not present:
        return []
    if len(present) == 1:
        (a,) = present
        return [number for number, line in numbered if a in line]
    if len(present) == 2:
        a, b = present
        return [number for number, line in numbered if a in line or b in line]
    if len(present) == 3:
        a, b, c = present
        return [number for number, line in numbered if a in line or b in line or c in line]
    if len(present) == 4:
        a, b, c, d = present
        return [number for number, line in numbered if a in line or b in line or c in line or d in line]
    raise ValueError(f"at most four strings to look for, not {len(present)}")


def fenced_lines(lines: list[str]) -> set[int]:
    """Line numbers inside fenced code blocks, the fence lines included."""
    prose = {number for number, _line in prose_lines(lines)}
    return {number for number in range(len(lines)) if number not in prose}
