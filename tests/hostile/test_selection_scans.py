"""Selection ranges stay linear in the text however many cursors ask (docs/editors.md, Expand Selection).

The document's words, lines, blocks and sections are found once per request; a cursor then costs the depth of
its ranges. A per-cursor scan of its word, line or paragraph would take the cursors times the length: with
10,000 cursors in one 1 MiB word or paragraph, hours instead of well under a second. `finishes` is a hang
guard, not a timing assertion.
"""

from __future__ import annotations

import pytest

from albedo_skills_ls.skills.authoring.selection import selection_ranges
from albedo_skills_ls.skills.core.model import Position

from .guard import finishes

SIZE = 1024 * 1024 - 4096  # about the largest SKILL.md
CURSORS = 10_000

HOSTILE_BODIES = {
    "one-word": "a" * SIZE,
    "one-dash-run": "-" * SIZE,  # a word stripped of its dashes
    "one-line-of-spaces": "x" + " " * SIZE + "x",
    "one-paragraph": "word\n" * (SIZE // 5),
    "one-fence": "```\n" + "code\n" * (SIZE // 5),
    "many-headings": "# h\n" * (SIZE // 4),
    "nested-headings": "".join("#" * (1 + index % 6) + " h\n" for index in range(SIZE // 6)),
}


def many_cursors(body: str) -> None:
    text = f"---\nname: demo\ndescription: d.\n---\n{body}\n"
    lines = text.count("\n")
    cursors = [Position(4 + (index * 7919) % max(lines - 4, 1), (index * 104729) % SIZE) for index in range(CURSORS)]
    found = selection_ranges(text, cursors)
    assert len(found) == CURSORS and all(ranges for ranges in found)


@pytest.mark.parametrize("shape", sorted(HOSTILE_BODIES))
def test_many_cursors_in_a_hostile_body(shape):
    finishes(many_cursors, HOSTILE_BODIES[shape])


def many_fields() -> None:
    fields = "".join(f"k{index}: v\n" for index in range(6000))  # the frontmatter's bound is 64 KiB
    text = f"---\n{fields}tools:\n" + "  - x\n" * 2000 + "---\nbody\n"
    found = selection_ranges(text, [Position(1 + index % 8000, 1) for index in range(CURSORS)])
    assert len(found) == CURSORS


def test_many_cursors_over_many_fields_and_items():
    finishes(many_fields)


def outline_and_folds(body: str) -> None:
    from albedo_skills_ls.skills.authoring.outline import outline
    from albedo_skills_ls.skills.authoring.folding import folding_ranges

    text = f"---\nname: demo\ndescription: d.\n---\n{body}\n"
    assert outline(text) and folding_ranges(text) is not None


@pytest.mark.parametrize("shape", ["many-headings", "nested-headings"])
def test_the_outline_and_the_folds_of_many_headings(shape):
    """Each section's end is found in one pass: a search onward from each heading was quadratic in them."""
    finishes(outline_and_folds, HOSTILE_BODIES[shape])
