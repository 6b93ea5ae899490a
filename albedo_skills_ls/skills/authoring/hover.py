"""Hover on a frontmatter key: its documentation."""

from __future__ import annotations

from ..document.frontmatter import lines_of
from ..core.model import Range
from .fields import field_documentation, frontmatter_lines, top_key


def key_at(text: str, line: int, character: int) -> tuple[str, Range] | None:
    """The top-level frontmatter key under the cursor, with its range."""
    lines = lines_of(text)
    block = frontmatter_lines(lines)
    if block is None or not block[0] <= line < min(block[1], len(lines)):
        return None
    found = top_key(lines[line].rstrip("\r\n"))
    if found is None:
        return None
    key = found.strip()
    if not 0 <= character <= len(key):
        return None
    return key, Range.of(line, 0, line, len(key))



def hover_field(text: str, line: int, character: int) -> tuple[str, Range] | None:
    """Markdown for the frontmatter key under the cursor, and the key's range."""
    found = key_at(text, line, character)
    if found is None:
        return None
    documentation = field_documentation(found[0])
    return (documentation, found[1]) if documentation else None
