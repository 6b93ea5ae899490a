"""Fenced code: what opens and closes a fence, shared by references, headings and chat commands."""

from albedo_skills_ls.skills.markdown import fenced_lines, prose_lines

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
    assert list(prose_lines(DOC, needles="`[")) == [(0, "intro [a](b.md)"), (9, "after `x/y.md`")]
    assert list(prose_lines(DOC, start=9)) == [(9, "after `x/y.md`"), (10, "plain words")]
