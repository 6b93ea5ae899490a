"""The quick fix for `allowed-tools` written as a YAML list: join the items into the one string the format
wants, in place, so the document checks clean and the value holds the same tools."""

from __future__ import annotations

import pytest

from albedo_skills_ls.skills.authoring.fixes import quick_fixes
from albedo_skills_ls.skills.document.frontmatter import read_text
from albedo_skills_ls.skills.document.rules import check_document
from albedo_skills_ls.skills.document.yamltree import Scalar
from albedo_skills_ls.skills.core.model import Position
from albedo_skills_ls.skills.document.rules import check_document
from albedo_skills_ls.skills.document.yamltree import Scalar

PATH = "/skills/demo/SKILL.md"
HEAD = "---\nname: demo\ndescription: A demo skill.\n"
BODY = "---\n# Demo\n"


def offset(text: str, position: Position) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[: position.line]) + position.character


def apply(text: str, fix) -> str:
    for edit in sorted(fix.edits, key=lambda e: e.range, reverse=True):
        text = text[: offset(text, edit.range.start)] + edit.new_text + text[offset(text, edit.range.end) :]
    return text


def allowed_tools(text: str) -> str:
    root = read_text(text, PATH).frontmatter.root
    value = root.get("allowed-tools").value
    assert isinstance(value, Scalar)
    return value.value


@pytest.mark.parametrize(
    "block, joined",
    [
        ("allowed-tools:\n  - Bash\n  - Read\n", "Bash Read"),
        ("allowed-tools: [Bash, Read, Grep]\n", "Bash Read Grep"),
        ("allowed-tools:\n- Bash(git:*)\n- 'Read'\n", "Bash(git:*) Read"),
        ('allowed-tools:\n  - "Bash(echo: hi)"\n  - Read # trailing comment\n', "Bash(echo: hi) Read"),
        ("allowed-tools:\n  - '#hash'\n", "#hash"),
        ("allowed-tools: []\n", ""),
    ],
)
def test_the_join_fix_leaves_one_string_with_the_same_tools(block, joined):
    text = HEAD + block + "license: MIT\n" + BODY
    (fix,) = [f for f in quick_fixes(PATH, text) if f.diagnostic.code == "allowed-tools-list"]
    assert fix.preferred
    fixed = apply(text, fix)
    assert check_document(fixed, PATH, "demo").diagnostics == ()
    assert allowed_tools(fixed) == joined
    assert fixed.startswith(HEAD) and fixed.endswith("license: MIT\n" + BODY)  # only the value changed


def test_a_list_holding_a_map_gets_no_join_fix():
    text = HEAD + "allowed-tools:\n  - Bash\n  - {a: b}\n" + BODY
    assert [f for f in quick_fixes(PATH, text) if "allowed-tools" in f.title] == []


def test_the_join_fix_works_when_the_list_is_the_last_field():
    text = HEAD + "allowed-tools:\n  - Bash\n  - Read\n" + BODY
    (fix,) = [f for f in quick_fixes(PATH, text) if f.diagnostic.code == "allowed-tools-list"]
    assert apply(text, fix) == HEAD + "allowed-tools: Bash Read\n" + BODY


def test_which_fixes_are_safe_for_the_command_line():
    # safe: cannot change what the skill means (docs/design.md#7-what-real-skills-taught; `check --fix`)
    text = HEAD + "allowed-tools: [Bash]\nlicence: MIT\n" + BODY
    safe = {f.diagnostic.code: f.safe for f in quick_fixes(PATH, text)}
    assert safe == {"allowed-tools-list": True, "field-unknown": True}
    renamed = HEAD.replace("name: demo", "name: other") + BODY
    assert [f.safe for f in quick_fixes(PATH, renamed)] == [False]  # an identity change
