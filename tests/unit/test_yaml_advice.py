"""The common YAML mistakes of a frontmatter, explained with their fix, at the place to change."""

from __future__ import annotations

import pytest

from albedo_skills_ls.skills.authoring.fixes import quick_fixes
from albedo_skills_ls.skills.document.rules import check_document

QUOTE = 'put the whole value in double quotes (a `"` inside it written `\\"`)'


def finding(frontmatter: str):
    parsed = check_document(f"---\nname: demo\n{frontmatter}---\n# Demo\n", "/ws/demo/SKILL.md", "demo")
    (diagnostic,) = parsed.diagnostics
    start, end = diagnostic.range
    return diagnostic.code, (start.line, start.character, end.line, end.character), diagnostic.message


CASES = [
    (
        "description: Use this: when asked\n",
        "yaml-unquoted-colon",
        (2, 13, 2, 33),
        f"the value of `description` holds `: ` (a colon and a space), which YAML reads as the start of another key: "
        f"{QUOTE}, or fold it with `>-` and write the text on the next lines, indented",
    ),
    (
        "description: Fills forms.\n  Note: only PDFs\n",
        "yaml-syntax",
        (3, 6, 3, 7),
        "this line continues the value of `description` and holds `: `, which YAML reads as the start of another "
        f"key: fold the value with `>-` (`description: >-`, then its lines indented), or {QUOTE}",
    ),
    (
        "description: Use this: when asked # a comment\n",  # quoting would make the comment text: no fix
        "yaml-syntax",
        (2, 21, 2, 22),
        f"the value of `description` holds `: ` (a colon and a space), which YAML reads as the start of another key: "
        f"{QUOTE}, or fold it with `>-` and write the text on the next lines, indented",
    ),
    ("description: x\nmetadata:\n\tauthor: me\n", "yaml-syntax", (4, 0, 4, 1),
     "a tab here: YAML indents and separates with spaces only; replace the tab with spaces"),
    ('description: "Fills forms\n', "yaml-syntax", (2, 13, 2, 14),
     'the double quote that opens the value of `description` is never closed: end the value with `"`'),
    ("description: 'It's fine'\n", "yaml-syntax", (2, 17, 2, 18),
     "the value of `description` ends at its closing quote and text follows it: quote the whole value once "
     "(inside single quotes, `''` stands for one `'`)"),
    ("description: @mention people\n", "yaml-syntax", (2, 13, 2, 14),
     "a YAML value cannot start with `@` (it is reserved): put the value of `description` in double quotes"),
    ("description: `code` helper\n", "yaml-syntax", (2, 13, 2, 14),
     "a YAML value cannot start with a backtick (it is reserved): put the value of `description` in double quotes"),
    ("description: %d formats\n", "yaml-syntax", (2, 13, 2, 14),
     "a YAML value cannot start with `%` (it is reserved): put the value of `description` in double quotes"),
    ("description: *bold* helper\n", "yaml-syntax", (2, 18, 2, 19),
     "a value starting with `*` is read as a YAML alias: put the value of `description` in double quotes"),
    ("description: & more\n", "yaml-syntax", (2, 14, 2, 15),
     "a value starting with `&` is read as a YAML anchor: put the value of `description` in double quotes"),
    ("description: [beta] helper\n", "yaml-syntax", (2, 20, 2, 21),
     "a value starting with `[` is read as a YAML list: put the value of `description` in double quotes"),
    ("description: | is a pipe\n", "yaml-syntax", (2, 15, 2, 16),
     "`|` starts a literal block, whose text goes on the next lines: put the value of `description` in double "
     "quotes, or move its text to the lines below, indented"),
    ("description: - a\n", "yaml-syntax", (2, 13, 2, 14),
     "a value starting with `- ` is read as YAML structure: put the value of `description` in double quotes"),
    ("description: !important helper\n", "yaml-tag", (2, 13, 2, 30),
     "tag `!important` is not allowed: frontmatter values are plain strings, lists and maps; remove the tag (if "
     "the `!` is part of the text, put the value in double quotes)"),
]


@pytest.mark.parametrize("frontmatter, code, where, message", CASES, ids=[case[0][:24] for case in CASES])
def test_each_common_mistake_says_what_to_do_where(frontmatter, code, where, message):
    assert finding(frontmatter) == (code, where, message)


def test_a_nested_key_with_a_colon_in_its_value_is_named():
    code, where, message = finding("description: x\nmetadata:\n  author: Ann: Lee\n")
    assert code == "yaml-unquoted-colon" and where == (4, 10, 4, 18)
    assert message.startswith("the value of `author` holds `: `")


@pytest.mark.parametrize(
    "line, fixed",
    [
        ("description: Use this: when asked", 'description: "Use this: when asked"'),
        ('description: Say "hi": to all\\ of them', 'description: "Say \\"hi\\": to all\\\\ of them"'),
    ],
)
def test_the_quick_fix_quotes_the_value_and_the_text_reads_back_the_same(line, fixed):
    text = f"---\nname: demo\n{line}\n---\n# Demo\n"
    (fix,) = [fix for fix in quick_fixes("/ws/demo/SKILL.md", text) if fix.diagnostic.code == "yaml-unquoted-colon"]
    assert fix.safe and fix.preferred and fix.title == "Put the value in double quotes"
    (edit,) = fix.edits
    lines = text.split("\n")
    start, end = edit.range
    lines[2] = lines[2][: start.character] + edit.new_text + lines[2][end.character :]
    assert lines[2] == fixed
    after = check_document("\n".join(lines), "/ws/demo/SKILL.md", "demo")
    assert after.diagnostics == ()
    assert after.description == line.removeprefix("description: ")  # exactly the text written
