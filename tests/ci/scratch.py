"""A scratch repository of skills, as a user's project holds them, for the CI-hook tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GOOD_SKILL = "---\nname: release-notes\ndescription: Writes release notes from the merged pull requests.\n---\nList them.\n"
# two errors: no description, and a name that is neither valid nor the folder's
BAD_SKILL = "---\nname: Bad_Name\n---\nNo description.\n"
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "albedo tests",
    "GIT_AUTHOR_EMAIL": "tests@albedo.invalid",
    "GIT_COMMITTER_NAME": "albedo tests",
    "GIT_COMMITTER_EMAIL": "tests@albedo.invalid",
}


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], capture_output=True, text=True, env={**os.environ, **GIT_IDENTITY}
    )
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def make_skills_repo(repo: Path) -> Path:
    """A git repository with a good skill and a bad one under `.agents/skills` and a README, all staged."""
    for name, text in (("release-notes", GOOD_SKILL), ("bad", BAD_SKILL)):
        folder = repo / ".agents" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(text)
    (repo / "README.md").write_text("not a skill\n")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    return repo
