"""Fenced code: what opens and closes a fence, shared by references, headings and chat commands."""

from hypothesis import given, settings
from hypothesis import strategies as st

from albedo_skills_ls.skills.document.frontmatter import lines_of
from albedo_skills_ls.skills.document.markdown_spans import (
    _fence_after,
    fenced_blocks,
    fenced_lines,
    prose_lines,
    prose_lines_holding,
)

DOC = [
    "intro [a](b.md)\n",  # 0 prose
    "```python\n",  # 1 opens
    "[x](y.md)\n",  # 2 code
    "~~~\n",  # 3 other character: does not close
    "```js\n",  # 4 an info string: does not close
    "````\n",  # 5 longer fence of the same character: closes
    "   ~~~~\n",  # 6 indented three spaces: opens
    "    ~~~~\n",  # 7 indented four spaces: not a fence, still code
    "~~~~\n",  # 8 closes
    "after `x/y.md`\n",  # 9 prose
    "plain words\n",  # 10 prose
]


def test_fences_open_and_close_by_the_commonmark_rules():
    assert [number for number, _ in prose_lines(DOC)] == [0, 9, 10]
    assert fenced_lines(DOC) == set(range(1, 9))


def test_needles_keep_only_the_lines_that_can_hold_them_without_losing_track_of_fences():
    text = "".join(DOC)
    assert list(prose_lines_holding(text, 0, 0, "`[")) == [(0, "intro [a](b.md)"), (9, "after `x/y.md`")]
    ninth = len("".join(DOC[:9]))
    assert list(prose_lines_holding(text, ninth, 9, "`[")) == [(9, "after `x/y.md`")]
    assert list(prose_lines(DOC, start=9)) == [(9, "after `x/y.md`"), (10, "plain words")]


_PIECES = ["```", "````", "~~~", "   ```", "    ```", "```js", "``` ", "``` a/b", "~~~ [x]", "[a](b)", "x/y", "`a/b`", "plain", "", "\r", "é/"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12), st.integers(0, 12), st.booleans())
def test_the_lines_found_by_searching_the_text_are_the_prose_lines_holding_a_needle(pieces, first, final_break):
    # prose_lines_holding looks only at the lines a substring search finds: it must yield exactly the
    # prose lines (by prose_lines, line by line) that hold a needle, numbered alike, from any line on
    text = "\n".join(pieces) + ("\n" if final_break else "")
    lines = lines_of(text)
    first = min(first, len(lines))
    offset = len("".join(lines[:first]))
    expected = [(number, line) for number, line in prose_lines(lines, first) if "[" in line or "/" in line]
    assert list(prose_lines_holding(text, offset, first, "[/")) == expected



def blocks_line_by_line(lines, start):
    """fenced_blocks as the state machine run over every line (the reference)."""
    blocks, fence, opened = [], None, 0
    for number in range(start, len(lines)):
        before = fence
        fence, _prose = _fence_after(fence, lines[number].rstrip("\r\n"))
        if before is None and fence is not None:
            opened = number
        elif before is not None and fence is None:
            blocks.append((opened, number))
    return blocks + ([(opened, len(lines) - 1)] if fence is not None else [])


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12), st.integers(0, 12), st.booleans())
def test_the_blocks_found_from_the_fence_lines_are_those_of_every_line(pieces, first, final_break):
    # fenced_blocks looks only at the lines holding a fence run: no other line opens or closes a fence
    lines = lines_of("\n".join(pieces) + ("\n" if final_break else ""))
    first = min(first, len(lines))
    assert fenced_blocks(lines, first) == blocks_line_by_line(lines, first)
