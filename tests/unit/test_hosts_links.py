"""One skill file reached by two paths through symbolic links, as the `links` generated batch showed each
agent treating it when run (seeds 801-803, 300 files; docs/hosts-conformance.md, rule 17)."""

from __future__ import annotations

import os
from pathlib import Path

from albedo_skills_ls.skills import hosts
from albedo_skills_ls.skills.hosts.model import SKIPPED, UNKNOWN


def skill(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "SKILL.md"
    path.write_text(f"---\nname: {name}\ndescription: Skill {name} checks.\n---\n# {name}\n", encoding="utf-8")
    return path


def report(project: Path, home: Path, *hosts_wanted: str) -> dict:
    home.mkdir(parents=True, exist_ok=True)
    found = hosts.report(str(project), str(home), hosts_wanted)
    return {entry.host.id: entry.verdicts for entry in found.hosts}


def test_codex_lists_a_folder_and_its_alias_in_one_root_once_under_the_first_name(tmp_path):
    root = tmp_path / "p/.agents/skills"
    real = skill(root / "w-real", "w-real")
    os.symlink("w-real", root / "w-alias")
    verdicts = report(tmp_path / "p", tmp_path / "h", "codex")["codex"]
    alias = str(root / "w-alias/SKILL.md")
    assert verdicts[alias].loads and verdicts[alias].name == "w-real"
    assert verdicts[str(real)].status == SKIPPED and alias in verdicts[str(real)].reason


def test_codex_keeps_the_home_roots_path_of_a_file_linked_between_home_and_workspace(tmp_path):
    project, home = tmp_path / "p", tmp_path / "h"
    real = skill(project / ".agents/skills/p1", "p1")
    (home / ".agents/skills").mkdir(parents=True)
    os.symlink(project / ".agents/skills/p1", home / ".agents/skills/p1x")
    verdicts = report(project, home, "codex")["codex"]
    assert verdicts[str(home / ".agents/skills/p1x/SKILL.md")].loads
    assert verdicts[str(real)].status == SKIPPED


def test_claude_code_leaves_out_the_second_path_to_one_file(tmp_path):
    root = tmp_path / "p/.claude/skills"
    real = skill(root / "x-real", "x-real")
    os.symlink("x-real", root / "x-alias")
    verdicts = report(tmp_path / "p", tmp_path / "h", "claude-code")["claude-code"]
    assert verdicts[str(root / "x-alias/SKILL.md")].loads
    assert verdicts[str(real)].status == SKIPPED


def test_copilot_cli_picks_between_copies_in_one_root_by_the_listing_not_the_name(tmp_path):
    root = tmp_path / "p/.github/skills"
    real = skill(root / "v-real", "v-real")
    os.symlink("v-real", root / "v-alias")
    verdicts = report(tmp_path / "p", tmp_path / "h", "copilot-cli")["copilot-cli"]
    for path in (str(real), str(root / "v-alias/SKILL.md")):
        assert verdicts[path].status == UNKNOWN and verdicts[path].name == "v-real"


def test_two_copies_that_are_two_files_stay_two_for_codex(tmp_path):
    """The control: the same name in two real folders is two skills to Codex (both in its prompt)."""
    root = tmp_path / "p/.agents/skills"
    first, second = skill(root / "one", "twin"), skill(root / "two", "twin")
    verdicts = report(tmp_path / "p", tmp_path / "h", "codex")["codex"]
    assert verdicts[str(first)].loads and verdicts[str(second)].loads


def test_copilot_cli_takes_the_first_folder_by_name_when_no_copy_is_a_link(tmp_path):
    """The control: two real folders with one name in one root: the first by name wins (the random batches)."""
    root = tmp_path / "p/.github/skills"
    first, second = skill(root / "a-one", "twin"), skill(root / "b-two", "twin")
    verdicts = report(tmp_path / "p", tmp_path / "h", "copilot-cli")["copilot-cli"]
    assert verdicts[str(first)].loads and verdicts[str(second)].status == SKIPPED
