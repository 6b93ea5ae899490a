"""`license-file-missing`: the `license` field names a file (`Complete terms in LICENSE.txt`, as a third of
the public skills that name a license file write it) that is not in the skill folder, so the terms do not
travel with the skill. Which words are file names is decided in reference_scan.py; these are our own texts
of the shapes public collections use, and the shapes that are not file names."""

from __future__ import annotations

from pathlib import Path

import pytest

from albedo_skills_ls.skills.authoring.fixes import quick_fixes
from albedo_skills_ls.skills.catalog.discovery import discover
from albedo_skills_ls.skills.catalog.references import document_links
from albedo_skills_ls.skills.core.model import Position, Range, WARNING

from cli_helpers import run_cli


def workspace(tmp_path: Path, license_line: str, *files: str) -> Path:
    """A workspace holding one skill `demo` whose frontmatter has `license_line`, and these files in it."""
    folder = tmp_path / "ws" / ".agents" / "skills" / "demo"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: demo\ndescription: Does things.\n{license_line}\n---\n# Demo\n\nDo it.\n", encoding="utf-8"
    )
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("terms\n", encoding="utf-8")
    return tmp_path / "ws"


def findings(tmp_path: Path, license_line: str, *files: str):
    catalog = discover(str(workspace(tmp_path, license_line, *files)), home=str(tmp_path / "home"))
    assert [skill.name for skill in catalog.skills] == ["demo"]  # a warning: the skill stays in the catalog
    return [d for d in catalog.diagnostics if d.code == "license-file-missing"]


def test_the_warning_names_the_file_and_sits_on_its_word(tmp_path):
    (found,) = findings(tmp_path, "license: Complete terms in LICENSE.txt.")
    assert found.severity == WARNING
    # line 3 (0-based), the word after "license: Complete terms in ", without the sentence's full stop
    assert found.range == Range(Position(3, 27), Position(3, 38))
    assert found.message == (
        "`license` names `LICENSE.txt`, which does not exist in the skill folder: add it, or name the license "
        "without a file"
    )
    assert found.path.endswith("demo/SKILL.md")


@pytest.mark.parametrize(
    "license_line, files",
    [
        ("license: Complete terms in LICENSE.txt", ["LICENSE.txt"]),
        ("license: Proprietary. LICENSE.txt has complete terms", ["LICENSE.txt"]),
        ("license: MIT (see docs/TERMS.md)", ["docs/TERMS.md"]),
        ("license: MIT", []),
        ("license: MIT License", []),
        ("license: CeCILL FREE SOFTWARE LICENSE AGREEMENT", []),  # a license's name, not a file
        ("license: see LICENSE", []),  # no document extension: a file or the word, we cannot tell
        ("license: https://github.com/example/project/blob/main/LICENSE.md", []),
        ("license: Apache License, Version 2.0", []),
        ("license: Node.js terms", []),  # an extension that is not a document's
    ],
)
def test_what_is_no_finding(tmp_path, license_line, files):
    assert findings(tmp_path, license_line, *files) == []


def test_other_letter_case_is_named_as_a_near_miss(tmp_path):
    (found,) = findings(tmp_path, "license: see license.txt", "LICENSE.txt")
    assert "but `LICENSE.txt` does (other letter case): fix the name" in found.message


def test_a_file_outside_the_skill_folder_does_not_travel_with_it(tmp_path):
    (tmp_path / "ws" / "LICENSE.md").parent.mkdir(parents=True)
    (tmp_path / "ws" / "LICENSE.md").write_text("terms\n", encoding="utf-8")  # there, but outside the skill
    (found,) = findings(tmp_path, "license: MIT (see ../../../LICENSE.md)")
    assert found.range == Range(Position(3, 18), Position(3, 37))
    assert "`../../../LICENSE.md`, which is outside the skill folder, so it is not installed with the skill" in (
        found.message
    )


def test_a_quoted_or_folded_value_is_marked_whole(tmp_path):
    # inside quotes or a folded block a column is not a character of the value: the whole value is marked
    (quoted,) = findings(tmp_path / "a", 'license: "Terms: LICENSE.txt"')
    assert quoted.range == Range(Position(3, 9), Position(3, 29))
    (folded,) = findings(tmp_path / "b", "license: >-\n  Complete terms\n  in LICENSE.txt")
    assert folded.range == Range(Position(3, 9), Position(6, 0))  # the reader's end of a block value


def test_each_file_named_is_checked(tmp_path):
    found = findings(tmp_path, "license: LICENSE.txt and NOTICE.md", "NOTICE.md")
    assert [d.message.split("`")[3] for d in found] == ["LICENSE.txt"]


def test_the_command_line_reports_it_and_a_skill_still_passes(tmp_path):
    ws = workspace(tmp_path, "license: Complete terms in LICENSE.txt")
    (tmp_path / "home").mkdir()
    result = run_cli("check", str(ws), "--home", str(tmp_path / "home"))
    assert result.returncode == 0, result.stderr  # a warning does not fail the check
    assert (
        b".agents/skills/demo/SKILL.md:4:28: warning license-file-missing `license` names `LICENSE.txt`"
    ) in result.stdout


def test_a_near_miss_is_fixed_on_its_word_and_a_quoted_value_is_left_alone(tmp_path):
    ws = workspace(tmp_path, "license: MIT, see license.txt.", "LICENSE.txt")
    path = str(ws / ".agents/skills/demo/SKILL.md")
    text = Path(path).read_text(encoding="utf-8")
    (fix,) = [fix for fix in quick_fixes(path, text) if fix.diagnostic.code == "license-file-missing"]
    assert not fix.safe  # a near miss is a guess, as for the body's references: only `check --fix --unsafe`
    (edit,) = fix.edits
    assert (edit.range, edit.new_text) == (Range(Position(3, 18), Position(3, 29)), "LICENSE.txt")
    quoted = text.replace("license: MIT, see license.txt.", "license: 'MIT, see license.txt'")
    assert [fix for fix in quick_fixes(path, quoted) if fix.diagnostic.code == "license-file-missing"] == []


def test_check_fix_unsafe_writes_the_name_that_exists(tmp_path):
    ws = workspace(tmp_path, "license: Complete terms in license.TXT", "LICENSE.txt")
    (tmp_path / "home").mkdir()
    result = run_cli("check", str(ws), "--home", str(tmp_path / "home"), "--fix", "--unsafe")
    assert result.returncode == 0, result.stderr
    skill = ws / ".agents/skills/demo/SKILL.md"
    assert "license: Complete terms in LICENSE.txt\n" in skill.read_text(encoding="utf-8")
    assert b"license-file-missing" not in result.stdout  # checked again after the fix: nothing left


def test_an_existing_license_file_is_a_link_on_its_word(tmp_path):
    ws = workspace(tmp_path, "license: see docs/TERMS.md", "docs/TERMS.md")
    path = str(ws / ".agents/skills/demo/SKILL.md")
    text = Path(path).read_text(encoding="utf-8")
    (link,) = document_links(path, text)
    assert link.target == str(ws / ".agents/skills/demo/docs/TERMS.md")
    assert link.reference.range == Range(Position(3, 13), Position(3, 26))
    assert document_links(path, text.replace("see docs/TERMS.md", '"see docs/TERMS.md"')) == []
