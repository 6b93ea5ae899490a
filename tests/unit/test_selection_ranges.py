"""Selection ranges in the engine (`skills/authoring/selection.py`): for a cursor, the texts Expand Selection
goes through, smallest first, each holding the one before."""

from __future__ import annotations

from albedo_skills_ls.skills.authoring.selection import selection_ranges
from albedo_skills_ls.skills.document.frontmatter import lines_of
from albedo_skills_ls.skills.core.model import Position, Range

SKILL = """---
name: "demo-extra"
description: >
  Shows a demo
  of the data.
metadata:
  author: me
  tags: [alpha, beta]
allowed-tools:
  - Bash
# a comment
---
# Usage

Run the demo first,
then read the output.

## Example

```sh
echo one

echo two
```
# Notes
last line
"""


def text_of(text: str, where: Range) -> str:
    """The text a range covers, found by offsets (independent of the engine's line splitting)."""
    lines = lines_of(text)
    offsets = [sum(len(line) for line in lines[:number]) for number in range(len(lines) + 1)]

    def offset(at: Position) -> int:
        return offsets[at.line] + at.character

    return text[offset(where.start) : offset(where.end)]


def chain(text: str, line: int, character: int, **options: bool) -> list[str]:
    [found] = selection_ranges(text, [Position(line, character)], **options)
    for inner, outer in zip(found, found[1:]):
        assert outer.start <= inner.start and inner.end <= outer.end and outer != inner
    return [text_of(text, where) for where in found]


FRONTMATTER_LINES = SKILL.split("---\n")[1].rstrip("\n")
BLOCK = "---\n" + FRONTMATTER_LINES + "\n---"


def test_a_quoted_name_word_inside_quotes_value_field_frontmatter_document():
    assert chain(SKILL, 1, 8) == ["demo-extra", '"demo-extra"', 'name: "demo-extra"', FRONTMATTER_LINES, BLOCK, SKILL]


def test_a_block_value_ends_on_its_own_last_line():
    assert chain(SKILL, 3, 11) == [
        "demo",
        ">\n  Shows a demo\n  of the data.",
        "description: >\n  Shows a demo\n  of the data.",
        FRONTMATTER_LINES,
        BLOCK,
        SKILL,
    ]


def test_a_nested_field_then_the_field_holding_it():
    metadata = "metadata:\n  author: me\n  tags: [alpha, beta]"
    assert chain(SKILL, 6, 11) == ["me", "author: me", metadata, FRONTMATTER_LINES, BLOCK, SKILL]
    assert chain(SKILL, 7, 12) == ["alpha", "[alpha, beta]", "tags: [alpha, beta]", metadata, FRONTMATTER_LINES, BLOCK, SKILL]
    assert chain(SKILL, 9, 6) == ["Bash", "- Bash", "allowed-tools:\n  - Bash", FRONTMATTER_LINES, BLOCK, SKILL]


def test_a_comment_in_the_frontmatter_is_a_line():
    assert chain(SKILL, 10, 4) == ["comment", "# a comment", FRONTMATTER_LINES, BLOCK, SKILL]


def test_the_body_word_line_paragraph_section_body_document():
    body = SKILL.split("---\n", 2)[2]
    usage = body.split("# Notes")[0].rstrip("\n")
    assert chain(SKILL, 14, 9) == [
        "demo",
        "Run the demo first,",
        "Run the demo first,\nthen read the output.",
        usage,
        body,
        SKILL,
    ]


def test_a_fenced_block_with_a_blank_line_is_one_block_inside_its_sections():
    fence = "```sh\necho one\n\necho two\n```"
    example = "## Example\n\n" + fence
    usage = SKILL.split("---\n", 2)[2].split("# Notes")[0].rstrip("\n")
    assert chain(SKILL, 21, 0) == [fence, example, usage, SKILL.split("---\n", 2)[2], SKILL]
    assert chain(SKILL, 22, 2)[:3] == ["echo", "echo two", fence]


def test_a_heading_is_a_block_of_its_own_and_a_cursor_at_a_word_end_takes_that_word():
    notes = "# Notes\nlast line"
    assert chain(SKILL, 24, 7) == ["Notes", "# Notes", notes, SKILL.split("---\n", 2)[2], SKILL]


def test_crlf_lines_never_hold_their_carriage_return():
    text = SKILL.replace("\n", "\r\n")
    assert chain(text, 14, 9)[:3] == ["demo", "Run the demo first,", "Run the demo first,\r\nthen read the output."]
    assert chain(text, 6, 11)[:3] == ["me", "author: me", "metadata:\r\n  author: me\r\n  tags: [alpha, beta]"]
    assert chain(text, 1, 8)[-3:] == [FRONTMATTER_LINES.replace("\n", "\r\n"), BLOCK.replace("\n", "\r\n"), text]


def test_a_chat_buffer_has_no_frontmatter():
    chat = "---\n/demo go now\nplease\n\n# Later\nmore\n"
    assert chain(chat, 1, 3, frontmatter=False) == ["demo", "/demo go now", "---\n/demo go now\nplease", chat]
    assert chain(chat, 5, 1, frontmatter=False) == ["more", "# Later\nmore", chat]


def test_a_frontmatter_never_closed_gives_the_line_then_the_document():
    text = "---\nname: demo\ndescr"
    assert chain(text, 1, 7) == ["demo", "name: demo", text]


def test_non_ascii_words_and_a_bom():
    text = "\ufeff# Tîtle 😀 here\nbody"
    assert chain(text, 0, 4, frontmatter=False) == ["Tîtle", "# Tîtle 😀 here", "# Tîtle 😀 here\nbody"]
    assert chain(text, 0, 11, frontmatter=False)[0] == "here"


def test_a_cursor_outside_the_text_is_held_at_its_end_and_an_empty_text_is_one_empty_range():
    assert chain("# A\nword", 9, 99) == ["word", "# A\nword"]
    assert selection_ranges("", [Position(0, 0)]) == [[Range.of(0, 0, 0, 0)]]


def test_one_answer_per_cursor_in_order():
    found = selection_ranges(SKILL, [Position(24, 3), Position(1, 8), Position(14, 9)])
    assert [text_of(SKILL, ranges[0]) for ranges in found] == ["Notes", "demo-extra", "demo"]


def test_each_field_of_a_long_frontmatter_and_each_item_of_a_list_answers_for_itself():
    keys = [f"key{index}" for index in range(300)]
    text = "---\n" + "".join(f"{key}: value{index}\n" for index, key in enumerate(keys)) + "tools:\n  - one\n  - two\n---\n"
    cursors = [Position(line, 1) for line in range(1, 301)] + [Position(302, 5), Position(303, 5), Position(302, 2)]
    found = selection_ranges(text, cursors)
    assert [text_of(text, ranges[1]) for ranges in found[:300]] == [f"{key}: value{index}" for index, key in enumerate(keys)]
    assert [text_of(text, where) for where in found[300][:3]] == ["one", "- one\n  - two", "tools:\n  - one\n  - two"]
    assert [text_of(text, where) for where in found[301][:2]] == ["two", "- one\n  - two"]
    # on the dash: no word, the list, then its field
    assert [text_of(text, where) for where in found[302][:2]] == ["- one\n  - two", "tools:\n  - one\n  - two"]
