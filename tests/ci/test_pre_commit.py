"""The pre-commit hook (`.pre-commit-hooks.yaml`), for real: `pre-commit try-repo` of this checkout on a
scratch repository, pre-commit building its own virtualenv and pip-installing this repository into it from
the offline wheelhouse (wheelhouse.py), then running the hook on the staged files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from ci.scratch import BAD_SKILL, GIT_IDENTITY, GOOD_SKILL, REPO, git
from ci.wheelhouse import offline_pip_env

PRE_COMMIT = Path(sys.executable).parent / "pre-commit"
ALBEDO_SKILLS = Path(sys.executable).parent / "albedo-skills"
HOOK_ID = "albedo-skills-check"
# Hang guard around pre-commit building its environment (a venv and a pip install); not a speed assert.
PRE_COMMIT_GUARD_SECONDS = 600


def pre_commit(repo: Path, home: Path, wheelhouse: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in {"VIRTUAL_ENV", "PYTHONPATH"}}
    env.update(GIT_IDENTITY, **offline_pip_env(wheelhouse), PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    return subprocess.run(
        [str(PRE_COMMIT), "try-repo", str(REPO), HOOK_ID, "--all-files", "--verbose"],
        cwd=repo, capture_output=True, text=True, env=env, timeout=PRE_COMMIT_GUARD_SECONDS,
    )


def test_the_hook_is_declared_as_pre_commit_reads_it():
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == HOOK_ID
    assert hook["language"] == "python"
    assert hook["entry"] == "albedo-skills check"
    assert hook.get("pass_filenames", True), "the hook must be given the file names"
    files = re.compile(hook["files"])
    assert files.search("SKILL.md") and files.search(".agents/skills/x/SKILL.md")
    assert not files.search("README.md") and not files.search("x/skill.md") and not files.search("NOTSKILL.md")


def test_try_repo_fails_on_the_bad_skill_then_passes_once_it_is_fixed(skills_repo: Path, wheelhouse: Path, tmp_path: Path):
    home = tmp_path / "pre-commit-home"
    failed = pre_commit(skills_repo, home, wheelhouse)
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    assert re.search(r"albedo-skills check\.+Failed", output), output
    # both staged skills went to one `albedo-skills check`: the bad one's errors, and the good one counted
    assert ".agents/skills/bad/SKILL.md:1:1: error description-missing" in output, output
    assert ".agents/skills/bad/SKILL.md:2:7: error name-invalid" in output, output
    assert "2 skill folders examined, 1 in the catalog, 2 errors, 0 warnings" in output, output
    assert "release-notes/SKILL.md" not in output, output  # nothing to say about the good one
    assert "README.md" not in output, output  # not a SKILL.md: never passed to the hook

    (skills_repo / ".agents" / "skills" / "bad" / "SKILL.md").write_text(
        BAD_SKILL.replace("name: Bad_Name\n", "name: bad\ndescription: A skill fixed before the commit.\n")
    )
    git(skills_repo, "add", "-A")
    passed = pre_commit(skills_repo, home, wheelhouse)
    output = passed.stdout + passed.stderr
    assert passed.returncode == 0, output
    assert re.search(r"albedo-skills check\.+Passed", output), output
    assert "2 skill folders examined, 2 in the catalog, 0 errors, 0 warnings" in output, output


def test_check_takes_several_skill_files_in_one_report(tmp_path: Path):
    good, bad = tmp_path / "release-notes" / "SKILL.md", tmp_path / "bad" / "SKILL.md"
    for path, text in ((good, GOOD_SKILL), (bad, BAD_SKILL)):
        path.parent.mkdir()
        path.write_text(text)
    named = ["release-notes/SKILL.md", "bad/SKILL.md", "release-notes/SKILL.md"]  # once twice: checked once
    text = subprocess.run([str(ALBEDO_SKILLS), "check", *named], capture_output=True, text=True, cwd=tmp_path)
    assert text.returncode == 1, text.stderr
    assert [line.split(" ")[:3] for line in text.stdout.splitlines()] == [
        ["bad/SKILL.md:1:1:", "error", "description-missing"],
        ["bad/SKILL.md:2:7:", "error", "name-invalid"],
    ]
    assert text.stderr.strip() == "2 skill folders examined, 1 in the catalog, 2 errors, 0 warnings"
    report = json.loads(
        subprocess.run([str(ALBEDO_SKILLS), "check", "--format", "json", *named], capture_output=True, text=True,
                       cwd=tmp_path).stdout
    )
    assert [(d["path"], d["code"]) for d in report["diagnostics"]] == [
        (str(bad), "description-missing"),
        (str(bad), "name-invalid"),
    ]
    assert report["diagnostic_counts"]["error"] == 2


def test_check_refuses_a_folder_among_several_paths(tmp_path: Path):
    skill = tmp_path / "release-notes" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text(GOOD_SKILL)
    done = subprocess.run(
        [str(ALBEDO_SKILLS), "check", str(skill), str(tmp_path)], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"albedo-skills: error: {str(tmp_path)!r} is a folder of skills: name it alone; several PATHs must all be "
        "SKILL.md files or skill folders\n"
    )
