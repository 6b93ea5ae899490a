"""`albedo-skills rename` and `references`, run as the real command on a workspace where the skill is named
in every way (tests/rename_world.py): the files on disk afterwards, and `check` on them."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import rename_world as world
from cli_helpers import run_cli


def test_rename_changes_every_mention_and_nothing_else(tmp_path: Path) -> None:
    workspace, home = world.build(tmp_path)
    before, home_before = world.snapshot(workspace), world.snapshot(home)
    done = run_cli("rename", "demo", "showcase", cwd=workspace, home=home)
    assert done.returncode == 0, done.stderr
    assert world.snapshot(workspace) == world.expected_after(before)
    assert world.snapshot(home) == home_before  # the user root is listed, never edited
    assert b"left " in done.stdout and b"mine/SKILL.md:7 command (outside the workspace" in done.stdout
    checked = run_cli("check", "--format", "json", cwd=workspace, home=home)
    assert checked.returncode == 0, checked.stdout
    found = json.loads(checked.stdout)
    codes = {d["code"] for d in found["diagnostics"]}
    assert "reference-missing" not in codes and not any(d["severity"] == "error" for d in found["diagnostics"])
    assert (workspace / ".claude/skills/showcase/SKILL.md").read_text().startswith("---\nname: showcase\n")
    # every mention moved to the new name: the same places, none left under the old one but the user root's
    renamed = json.loads(run_cli("references", "showcase", "--format", "json", cwd=workspace, home=home).stdout)
    assert len([m for m in renamed["mentions"] if m["in_workspace"]]) == len(world.EDITED) + 1
    assert run_cli("references", "demo", cwd=workspace, home=home).returncode == 2


def test_dry_run_and_diff_write_nothing(tmp_path: Path) -> None:
    workspace, home = world.build(tmp_path)
    before = world.snapshot(workspace)
    dry = run_cli("rename", "demo", "showcase", "--dry-run", cwd=workspace, home=home)
    diff = run_cli("rename", "demo", "showcase", "--diff", cwd=workspace, home=home)
    assert dry.returncode == diff.returncode == 0
    assert world.snapshot(workspace) == before
    assert b"would rename .agents/skills/demo -> .agents/skills/showcase\n" in dry.stdout
    assert b"-skills: [demo, demo-extra]\n+skills: [showcase, demo-extra]\n" in diff.stdout
    assert b"rename from .agents/skills/demo/scripts/run.sh\nrename to .agents/skills/showcase/scripts/run.sh\n" in diff.stdout


def test_the_diff_is_a_patch_git_applies_to_the_same_files_as_the_rename(tmp_path: Path) -> None:
    workspace, home = world.build(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=workspace, check=True)
    before = world.snapshot(workspace)
    diff = run_cli("rename", "demo", "showcase", "--diff", cwd=workspace, home=home)
    assert diff.returncode == 0, diff.stderr
    patch = tmp_path / "rename.patch"
    patch.write_bytes(diff.stdout)
    applied = subprocess.run(["git", "apply", str(patch)], cwd=workspace, capture_output=True, text=True)
    assert applied.returncode == 0, applied.stderr
    # what `git apply` leaves is exactly what the rename itself writes: the folder, each mention, the link
    assert world.snapshot(workspace) == world.expected_after(before)


def test_a_taken_or_invalid_name_is_refused_and_nothing_written(tmp_path: Path) -> None:
    workspace, home = world.build(tmp_path)
    before = world.snapshot(workspace)
    taken = run_cli("rename", "demo", "demo-extra", cwd=workspace, home=home)
    invalid = run_cli("rename", "demo", "Show_Case", cwd=workspace, home=home)
    assert (taken.returncode, invalid.returncode) == (1, 1)
    assert b"cannot rename `demo` to `demo-extra`: `demo-extra` is already the name of " in taken.stderr
    assert b"`Show_Case` is not a valid skill name: it has 'S' at position 1" in invalid.stderr
    assert world.snapshot(workspace) == before


def test_rename_finishes_what_an_editor_began(tmp_path: Path) -> None:
    """An editor renamed the folder and the mirror link (all the protocol allows): the link still points at
    the old folder until `albedo-skills rename OLD NEW` re-points it."""
    workspace, home = world.build(tmp_path)
    os.rename(workspace / ".agents/skills/demo", workspace / ".agents/skills/showcase")
    (workspace / ".agents/skills/showcase/SKILL.md").write_text("---\nname: showcase\ndescription: d.\n---\n")
    os.rename(workspace / ".claude/skills/demo", workspace / ".claude/skills/showcase")
    assert not (workspace / ".claude/skills/showcase").exists()  # dangling
    done = run_cli("rename", "demo", "showcase", cwd=workspace, home=home)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"re-point .claude/skills/showcase -> ../../.agents/skills/showcase\n"
    assert os.readlink(workspace / ".claude/skills/showcase") == "../../.agents/skills/showcase"
    again = run_cli("rename", "demo", "showcase", cwd=workspace, home=home)
    assert again.stdout == b"`demo` is already `showcase`: nothing left to do\n"


def test_references_lists_each_mention_with_its_place(tmp_path: Path) -> None:
    workspace, home = world.build(tmp_path)
    done = run_cli("references", "demo", cwd=workspace, home=home)
    assert done.returncode == 0
    lines = done.stdout.decode().splitlines()
    assert ".claude/agents/helper.md:4:10 skills-list skills: [demo, demo-extra]" in lines
    assert ".claude/skills/demo:1:1 mirror -> ../../.agents/skills/demo" in lines
    assert len(lines) == len(world.EDITED) + 2  # and the mirror, and the user root's mention
