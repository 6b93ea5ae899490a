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
    # a few `in` tests per line are several times cheaper than a regex or a set (most lines hold none)
    wanted = None if needles is None else tuple(dict.fromkeys(needles + _FENCE_CHARACTERS))
    fence: str | None = None
    for number in range(start, len(lines)):
        raw = lines[number]
        if wanted is not None:
            for character in wanted:
                if character in raw:
                    break
            else:
                continue
        line = raw.rstrip("\r\n")
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                if not line[opener.end() :].strip():
                    fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        if needles is None or any(character in line for character in needles):
            yield number, line


def fenced_lines(lines: list[str]) -> set[int]:
    """Line numbers inside fenced code blocks, the fence lines included."""
    prose = {number for number, _line in prose_lines(lines)}
    return {number for number in range(len(lines)) if number not in prose}
