"""`check PATH`: a skill folder, a SKILL.md, a skills root, a workspace or any folder of skills is checked,
exactly that, and a PATH holding no skill is a usage error; no run passes having examined nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run_cli, valid, write_skill

SUMMARY_ONE_CLEAN = "1 skill folder examined, 1 in the catalog, 0 errors, 0 warnings\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository with a good skill and a broken one in each workspace root, and a broken user skill."""
    ws = tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    write_skill(ws / ".agents" / "skills", "pdf-tools", valid("pdf-tools"))
    write_skill(ws / ".agents" / "skills", "broken", "name: Broken\n")
    write_skill(ws / ".albedo" / "skills", "review", valid("review") + "licence: MIT\n")
    write_skill(tmp_path / "home" / ".agents" / "skills", "mine", "name: mine\n")
    return tmp_path


def check(project: Path, *words: str, cwd: str = "ws"):
    return run_cli("check", *words, cwd=project / cwd, home=project / "home")


@pytest.mark.parametrize("path", [".agents/skills/pdf-tools", ".agents/skills/pdf-tools/", ".agents/skills/pdf-tools/SKILL.md"])
def test_a_skill_folder_or_its_skill_file_checks_that_skill_alone(project, path):
    # neither the broken sibling nor the broken skill of the home folder is reported
    result = check(project, path)
    assert (result.returncode, result.stdout) == (0, b"")
    assert result.stderr.decode() == SUMMARY_ONE_CLEAN
    broken = check(project, ".agents/skills/broken")
    assert broken.returncode == 1
    assert broken.stdout.decode().splitlines() == [
        ".agents/skills/broken/SKILL.md:1:1: error description-missing add a `description`: what the skill does "
        "and when to use it",
        ".agents/skills/broken/SKILL.md:2:7: error name-invalid name `Broken` has 'B' at position 1; use only "
        "lowercase ASCII letters, digits and `-`",
    ]
    assert broken.stderr.decode() == "1 skill folder examined, 0 in the catalog, 2 errors, 0 warnings\n"


def test_a_skill_folder_with_its_file_in_other_letter_case_is_examined(project):
    folder = project / "ws" / ".agents" / "skills" / "lower"
    folder.mkdir()
    (folder / "skill.md").write_text("---\nname: lower\ndescription: Lower. Use when asked.\n---\n")
    result = check(project, ".agents/skills/lower")
    assert result.returncode == 1
    (line,) = result.stdout.decode().splitlines()
    assert line.startswith(".agents/skills/lower:1:1: error skill-file-missing ")
    assert "skill.md" in line
    assert result.stderr.decode() == "1 skill folder examined, 0 in the catalog, 1 error, 0 warnings\n"


def test_a_skills_root_checks_that_root_only(project):
    result = check(project, ".albedo/skills")
    assert result.returncode == 0
    assert result.stdout.decode() == (
        ".albedo/skills/review/SKILL.md:4:1: warning field-unknown unknown field `licence`; did you mean `license`?\n"
    )
    assert result.stderr.decode() == "1 skill folder examined, 1 in the catalog, 0 errors, 1 warning\n"
    user = check(project, "../home/.agents/skills")  # a user root: that root, as Albedo reads it
    assert user.returncode == 1
    assert user.stdout.decode().startswith("~/.agents/skills/mine/SKILL.md:1:1: error description-missing ")
    assert user.stderr.decode().splitlines()[-1] == "1 skill folder examined, 0 in the catalog, 1 error, 0 warnings"


def test_a_workspace_checks_its_roots_and_the_user_roots(project):
    result = check(project, ".")
    assert result.returncode == 1
    shown = [line.split(": ")[0] for line in result.stdout.decode().splitlines()]
    assert shown == [
        "~/.agents/skills/mine/SKILL.md:1:1",
        ".agents/skills/broken/SKILL.md:1:1",
        ".agents/skills/broken/SKILL.md:2:7",
        ".albedo/skills/review/SKILL.md:4:1",
    ]
    assert result.stderr.decode() == "4 skill folders examined, 2 in the catalog, 3 errors, 1 warning\n"
    assert check(project, "ws", cwd=".").stdout == result.stdout  # paths relative to the workspace, from anywhere
    no_user = check(project, "--no-user-roots")
    assert no_user.stderr.decode() == "3 skill folders examined, 2 in the catalog, 2 errors, 1 warning\n"


def test_a_folder_of_skills_outside_the_roots_is_checked_with_albedos_rules_and_says_so(project):
    plugin = project / "ws" / "plugins" / "kit" / "skills"
    write_skill(plugin, "lint", valid("lint"))
    write_skill(plugin, "fmt", "name: format\ndescription: Formats. Use when asked.\n")
    (plugin / "notes").mkdir()  # a folder of a root without SKILL.md: Albedo's rule reports it
    result = check(project, "plugins/kit/skills")
    assert result.returncode == 1
    lines = result.stdout.decode().splitlines()
    assert [line.split(": ")[1].split()[:2] for line in lines] == [["error", "name-mismatch"], ["error", "skill-file-missing"]]
    assert lines[0].startswith("plugins/kit/skills/fmt/SKILL.md:2:7: ")
    assert lines[1].startswith("plugins/kit/skills/notes:1:1: ")
    assert result.stderr.decode() == (
        "albedo-skills: plugins/kit/skills is not one of Albedo's skills roots: its skill folders were checked "
        "with Albedo's rules, as if it were one\n"
        "3 skill folders examined, 1 in the catalog, 2 errors, 0 warnings\n"
    )


def test_several_skill_files_and_folders_make_one_report(project):
    result = check(project, ".agents/skills/pdf-tools", ".albedo/skills/review/SKILL.md", ".agents/skills/broken")
    assert result.returncode == 1
    assert result.stderr.decode() == "3 skill folders examined, 2 in the catalog, 2 errors, 1 warning\n"


@pytest.mark.parametrize(
    "words, said",
    [
        ((".agents/skills", ".albedo/skills/review"), "'.agents/skills' is a skills root: name it alone"),
        ((".agents/skills/pdf-tools", "."), "'.' is a workspace: name it alone"),
        (("nowhere",), "'nowhere' does not exist"),
        (("-w", ".", ".agents/skills/pdf-tools"), "two workspaces named ('.agents/skills/pdf-tools' and -w '.'): name one"),
    ],
)
def test_paths_that_cannot_go_together_are_usage_errors(project, words, said):
    result = check(project, *words)
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr.decode().startswith(f"albedo-skills: error: {said}")
