"""Folding ranges of a `SKILL.md`: the frontmatter block, and each body section (a heading to the line before
the next heading of its level or higher), from the same outline the document symbols show."""

from __future__ import annotations

from typing import Literal, NamedTuple

from ..document.frontmatter import closing_line, lines_of, opens_frontmatter
from .outline import OutlineItem, outline


class Fold(NamedTuple):
    start_line: int
    end_line: int
    kind: Literal["frontmatter", "section"]


def folding_ranges(text: str) -> list[Fold]:
    lines = lines_of(text.removeprefix("\ufeff"))
    found: list[Fold] = []
    if opens_frontmatter(lines):
        end = closing_line(lines)
        if end is not None and end > 0:
            found.append(Fold(0, end, "frontmatter"))

    def sections(items: tuple[OutlineItem, ...] | list[OutlineItem]) -> None:
        for item in items:
            if item.kind != "heading":
                continue
            end = item.range.end.line
            while end > item.range.start.line and not lines[end].strip():
                end -= 1  # the blank lines before the next heading stay visible
            if end > item.range.start.line:
                found.append(Fold(item.range.start.line, end, "section"))
            sections(item.children)

    sections(outline(text))
    return found
