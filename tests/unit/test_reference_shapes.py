"""File references as real skills write them (docs/design.md#7-what-real-skills-taught).

Each shape here was a false `reference-missing` on public skill collections (footnotes, definitions with
trailing text, host placeholders for the skill folder, example code spans), or a true one that deserves a
better message (a near miss). The fixtures are our own texts of the same shape.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from albedo_skills_ls.skills.catalog import references
from albedo_skills_ls.skills.authoring.fixes import quick_fixes
from albedo_skills_ls.skills.core.model import INFORMATION, WARNING
from albedo_skills_ls.skills.document.reference_scan import find_references

FRONT = "---\nname: demo\ndescription: Does things.\n---\n"


def targets(body: str) -> list[tuple[str, str]]:
    return [(ref.kind, ref.target) for ref in find_references(FRONT + body)]


def skill(tmp_path: Path, *files: str) -> Path:
    """A skill folder `demo` holding these files (relative paths); returns the folder."""
    folder = tmp_path / "demo"
    folder.mkdir()
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("x\n")
    return folder


def findings(folder: Path, body: str):
    return references.check_references(str(folder / "SKILL.md"), find_references(FRONT + body))


# --- link reference definitions, as CommonMark defines them ------------------------------------------------


def test_a_footnote_definition_is_not_a_reference():
    body = '[^1]: Some Blog. (2022). "A title." https://example.org/post\n[^note]: references/guide.md\n'
    assert targets(body) == []


@pytest.mark.parametrize(
    "line, expected",
    [
        ("[guide]: references/guide.md", "references/guide.md"),
        ('[guide]: references/guide.md "The guide"', "references/guide.md"),
        ("[guide]: references/guide.md 'The guide'", "references/guide.md"),
        ("[guide]: references/guide.md (The guide)", "references/guide.md"),
        ('[guide]: <references/my guide.md> "T"', "references/my guide.md"),
        ("[guide]:references/guide.md", "references/guide.md"),
        ("   [guide]: references/guide.md   ", "references/guide.md"),
        ("[a \\] label]: references/guide.md", "references/guide.md"),
    ],
)
def test_a_link_reference_definition_alone_on_its_line_is_a_reference(line, expected):
    assert targets(line + "\n") == [("link", expected)]


@pytest.mark.parametrize(
    "line",
    [
        '[ref]: notes "t" trailing',
        "[ref]: notes trailing words",
        '[ref]: references/guide.md "unclosed title',
        '[ref]: references/guide.md "t"x',
        "[]: references/guide.md",
        "    [ref]: references/guide.md",  # four spaces: an indented code block
        "[ref]:",
    ],
)
def test_text_after_a_definitions_target_or_title_makes_it_no_definition(line):
    assert targets(line + "\n") == []


# --- placeholders hosts expand to the skill folder ---------------------------------------------------------


@pytest.mark.parametrize(
    "body, kind",
    [
        ("See [the guide]({baseDir}/references/guide.md).", "link"),
        ("See [the guide](${CLAUDE_SKILL_DIR}/references/guide.md).", "link"),
        ("[guide]: {baseDir}/references/guide.md", "link"),
        ("Run `{baseDir}/references/guide.md` first.", "code"),
        ("Run `${CLAUDE_SKILL_DIR}/references/guide.md` first.", "code"),
    ],
)
def test_a_skill_folder_placeholder_is_resolved_to_the_skill_folder(tmp_path, body, kind):
    assert targets(body) == [(kind, "references/guide.md")]
    assert findings(skill(tmp_path, "references/guide.md"), body) == ()


def test_a_missing_placeholder_reference_names_what_was_written(tmp_path):
    (found,) = findings(skill(tmp_path), "See [x]({baseDir}/references/gone.md).")
    assert found.code == "reference-missing" and found.severity == WARNING
    assert "`{baseDir}/references/gone.md`" in found.message


def test_a_placeholder_that_climbs_is_outside(tmp_path):
    (found,) = findings(skill(tmp_path), "See [x]({baseDir}/../other/x.md).")
    assert found.code == "reference-outside"


def test_a_placeholder_alone_names_the_folder_itself_and_is_no_reference():
    assert targets("[home]({baseDir}) [home]({baseDir}/)") == []


# --- code spans: only concrete paths -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "span",
    [
        "references/<topic>.md",
        "scripts/*.py",
        "scripts/run?.py",
        "references/{name}.md",
        "assets/[id].png",
        "scripts/$NAME.py",
        "references/.../guide.md",
        "references/filename.md",
        "references/example.md",
        "scripts/run_example.py",
        "your-skill/SKILL.md",
        "references/your_notes.md",
        "path/to/file.md",
        "phase_prompts/phaseN.md",
        "scripts/stepX.py",
    ],
)
def test_a_code_span_that_is_an_example_or_a_placeholder_is_no_reference(tmp_path, span):
    folder = skill(tmp_path, "phase_prompts/phase1.md", "your-skill/x.md", "path/x.md")
    body = f"Write `{span}` for each topic.\n"
    assert targets(body) == []
    assert findings(folder, body) == ()


@pytest.mark.parametrize("span", ["references/examples.md", "scripts/run_2.py", "assets/README.md", "scripts/x.tar.gz"])
def test_a_concrete_code_span_is_still_a_reference(span):
    assert targets(f"Read `{span}`.") == [("code", span)]


def test_a_missing_code_span_is_information_and_a_missing_link_a_warning(tmp_path):
    found = findings(skill(tmp_path), "Read [a](references/a.md) and `references/b.md`.\n")
    assert [(d.code, d.severity, d.message.split("`")[1]) for d in found] == [
        ("reference-missing", WARNING, "references/a.md"),
        ("reference-missing", INFORMATION, "references/b.md"),
    ]
    assert "code span may be an example" in found[1].message  # says why it is only information


def test_a_line_of_unclosed_brackets_and_backticks_is_no_reference():
    line = "[a]: " + "<" * 20000 + " " + "`{" * 20000 + "\n"
    assert targets(line) == []


# --- near misses ------------------------------------------------------------------------------------------


def fixes_for(folder: Path, body: str):
    return [fix for fix in quick_fixes(str(folder / "SKILL.md"), FRONT + body) if fix.diagnostic.code == "reference-missing"]


def apply(text: str, fix) -> str:
    lines = text.split("\n")
    for edit in sorted(fix.edits, key=lambda e: e.range, reverse=True):
        start, end = edit.range.start, edit.range.end
        assert start.line == end.line
        line = lines[start.line]
        lines[start.line] = line[: start.character] + edit.new_text + line[end.character :]
    return "\n".join(lines)


@pytest.mark.parametrize(
    "files, written, meant, why",
    [
        (["references/workflow.md"], "reference/workflow.md", "references/workflow.md", "not `reference/`"),
        (["references/security.md"], "references/Security.md", "references/security.md", "letter case"),
        (["References/intro.md"], "references/intro.md", "References/intro.md", "letter case"),
        (["references/guide.md"], "docs/guide.md", "references/guide.md", "not `docs/`"),
    ],
)
def test_a_near_miss_says_what_exists_and_a_quick_fix_uses_it(tmp_path, files, written, meant, why):
    folder = skill(tmp_path, *files)
    body = f"See [the file]({written}) and `{written}`.\n"
    found = findings(folder, body)
    assert [d.severity for d in found] == [WARNING, INFORMATION]
    for diagnostic in found:
        assert f"`{meant}`" in diagnostic.message and why in diagnostic.message
    fixes = fixes_for(folder, body)
    assert len(fixes) == 2
    fixed = FRONT + body
    for fix in reversed(fixes):  # later edits first, so earlier ranges stay true
        assert meant in fix.title
        fixed = apply(fixed, fix)
    assert fixed == FRONT + f"See [the file]({meant}) and `{meant}`.\n"
    assert findings(folder, fixed[len(FRONT):]) == ()


def test_a_near_miss_keeps_a_placeholder_prefix_and_an_anchor(tmp_path):
    folder = skill(tmp_path, "references/guide.md")
    body = "See [g]({baseDir}/reference/guide.md#setup).\n"
    (fix,) = fixes_for(folder, body)
    assert apply(FRONT + body, fix) == FRONT + "See [g]({baseDir}/references/guide.md#setup).\n"


def test_two_equally_near_files_are_not_guessed(tmp_path):
    folder = skill(tmp_path, "references/guide.md", "assets/guide.md")
    (found,) = findings(folder, "See [g](docs/guide.md).\n")
    assert "did you mean" not in found.message
    assert fixes_for(folder, "See [g](docs/guide.md).\n") == []


def test_a_plain_miss_has_no_quick_fix(tmp_path):
    folder = skill(tmp_path, "references/other.md")
    assert fixes_for(folder, "See [g](references/guide.md).\n") == []


# --- links to sibling skills --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target", ["../threat-model/SKILL.md", "../threat-model/", "../threat-model", "../../skills/threat-model/SKILL.md"]
)
def test_a_link_to_a_sibling_skill_says_to_name_the_skill(tmp_path, target):
    (found,) = findings(skill(tmp_path), f"See [threat-model]({target}).\n")
    assert found.code == "reference-outside" and found.severity == WARNING
    assert "another skill" in found.message and "`threat-model`" in found.message


@pytest.mark.parametrize("target", ["../common/notes.md", "../../tools/x.md", "/etc/passwd", "../../README.md", "../.."])
def test_other_links_outside_keep_the_move_advice(tmp_path, target):
    (found,) = findings(skill(tmp_path), f"See [x]({target}).\n")
    assert "another skill" not in found.message and "move the file" in found.message
