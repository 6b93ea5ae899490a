"""Mentions of a skill and the rename plan (skills/language/mentions.py, mention_scan.py, rename.py): exactly the
mentions present, never a longer name that starts with it, never the English word, never fenced code."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import rename_world as world
from albedo_skills_ls.skills.core import limits
from albedo_skills_ls.skills.catalog.discovery import discover
from albedo_skills_ls.skills.language.mention_scan import scan_text
from albedo_skills_ls.skills.language.mentions import find_mentions, target_at, target_of
from albedo_skills_ls.skills.language.rename import FileRename, Refusal, RenamePlan, apply_edits, plan_rename


def _found(tmp_path: Path):
    workspace, home = world.build(tmp_path)
    catalog = discover(str(workspace), str(home))
    target = target_of(catalog, "demo")
    assert target is not None
    return workspace, home, catalog, target


def test_every_mention_and_nothing_else(tmp_path: Path) -> None:
    workspace, home, catalog, target = _found(tmp_path)
    found = find_mentions(catalog, target, str(home))
    inside = sorted(
        (os.path.relpath(m.path, workspace), m.range.start.line, m.kind) for m in found.mentions if m.in_workspace
    )
    assert inside == sorted(world.EDITED + [(".claude/skills/demo", 0, "mirror")])
    outside = [(m.path, m.line) for m in found.mentions if not m.in_workspace]
    assert outside == [(str(home / ".agents/skills/mine/SKILL.md"), "/demo from my own skill")]
    # each range spells the name, nothing longer
    for mention in found.mentions:
        if mention.kind != "mirror":
            assert mention.line[mention.range.start.character : mention.range.end.character] == "demo"


TRAPS = [
    "demo",  # the English word
    "Run the demo now.",
    "/demo-extra go",  # a longer name starting with it
    "/demos",
    "`/demo-extra`",
    "see and/or/demo, a/demo, 1/demo, x:/demo",  # after a letter, a digit, `/` or `:`
    "run /tmp/demo or https://example.com/demo",
    "`ls /demo -la` names a path",  # in the middle of a code span
    "[x](/demo) [y]( /demo )",  # a link's destination
    "[x]: /demo",  # a link reference definition's
    "/demo.md /demo:x /demo- /demo_x",
    "```\n/demo in a fence\n```",
    "~~~\n`/demo`\n~~~",
    "/demo/x is a path",
    "[x](../demo-extra/SKILL.md)",
    "[x](https://example.com/demo/SKILL.md)",
    "[x](/abs/demo/SKILL.md)",
    "[x](../demo%2Dx/SKILL.md)",
    "name: demo",  # not the skill's own file: a name field elsewhere is no mention
    "---\nname: demo\ntools: [demo]\n---\n",
]


@pytest.mark.parametrize("text", TRAPS)
def test_traps_are_no_mention(text: str) -> None:
    assert scan_text(text, "demo", "/w/.agents/skills/other", ["/w/.agents/skills/demo"]) == []


@pytest.mark.parametrize(
    ("text", "kind", "spelled"),
    [
        ("/demo", "command", "/demo"),
        ("  /demo with args", "command", "  /demo"),
        ("/skill:demo", "command", "/skill:demo"),
        ("Before anything else, run /demo first.", "command", "Before anything else, run /demo"),
        ("If the merge fails, run /demo again", "command", "If the merge fails, run /demo"),
        ("Use the skills: /demo merges files", "command", "Use the skills: /demo"),
        ("see and/or /demo inside a sentence", "command", "see and/or /demo"),
        ("[run /demo](../x.md)", "command", "[run /demo"),
        ("---\ndescription: Runs after /demo.\n---\n", "command", "description: Runs after /demo"),
        ("call `/demo` then", "code", "call `/demo"),
        ("call `` /demo x `` then", "code", "call `` /demo"),
        ("[d](../demo/SKILL.md)", "link", "[d](../demo"),
        ("[d](../demo/scripts/run.sh#top)", "link", "[d](../demo"),
        ("[d](<../demo/SKILL.md>)", "link", "[d](<../demo"),
    ],
)
def test_each_form_is_a_mention(text: str, kind: str, spelled: str) -> None:
    found = scan_text(text, "demo", "/w/.agents/skills/other", ["/w/.agents/skills/demo"])
    last_line = spelled.split("\n")[-1]
    assert [(item.kind, item.range.end.character) for item in found] == [(kind, len(last_line))]


def test_frontmatter_forms_only_where_they_mean_the_skill() -> None:
    own = "---\nname: 'demo'\ndescription: x\n---\n"
    assert [(f.kind, f.range.start.character) for f in scan_text(own, "demo", "/w", [], own_name=True)] == [("name", 7)]
    agent = "---\nskills: demo\nother:\n  - demo\n---\n"
    assert [(f.kind, f.range.start.line) for f in scan_text(agent, "demo", "/w", [], agent_file=True)] == [
        ("skills-list", 1)
    ]


def test_plan_edits_every_mention_in_the_workspace_and_relinks_the_mirror(tmp_path: Path) -> None:
    workspace, home, catalog, target = _found(tmp_path)
    plan = plan_rename(catalog, target, "showcase", str(home))
    assert isinstance(plan, RenamePlan)
    skills = workspace / ".agents/skills"
    assert plan.renames == (
        FileRename(str(skills / "demo"), str(skills / "showcase"), "folder"),
        FileRename(str(workspace / ".claude/skills/demo"), str(workspace / ".claude/skills/showcase"), "mirror",
                   "../../.agents/skills/showcase"),
    )
    assert len(plan.edits) == len(world.EDITED) and {edit.new_text for edit in plan.edits} == {"showcase"}
    assert [m.path for m in plan.left] == [str(home / ".agents/skills/mine/SKILL.md")]
    other = skills / "other/SKILL.md"
    edited = apply_edits(other.read_text(), [e for e in plan.edits if e.path == str(other)])
    assert edited == world.expected_after(world.snapshot(workspace))[".agents/skills/other/SKILL.md"]


@pytest.mark.parametrize(
    ("new", "why"),
    [
        ("demo", "the skill is already named `demo`"),
        ("Demo", "`Demo` is not a valid skill name: it has 'D' at position 1"),
        ("de--mo", "`de--mo` is not a valid skill name: it holds `--`"),
        ("x" * (limits.MAX_NAME_CHARS + 1), f"is {limits.MAX_NAME_CHARS + 1} characters long"),
        ("demo-extra", "`demo-extra` is already the name of "),
        ("help", "`/help` is a built-in command"),
    ],
)
def test_refusals_say_why(tmp_path: Path, new: str, why: str) -> None:
    _workspace, home, catalog, target = _found(tmp_path)
    refused = plan_rename(catalog, target, new, str(home))
    assert isinstance(refused, Refusal) and why in refused.message


def test_longest_valid_name_is_accepted(tmp_path: Path) -> None:
    _workspace, home, catalog, target = _found(tmp_path)
    assert isinstance(plan_rename(catalog, target, "x" * limits.MAX_NAME_CHARS, str(home)), RenamePlan)


def test_a_folder_or_link_already_there_is_refused(tmp_path: Path) -> None:
    workspace, home, catalog, target = _found(tmp_path)
    (workspace / ".claude/skills/taken").mkdir()
    refused = plan_rename(catalog, target, "taken", str(home))
    assert refused == Refusal(f"{workspace / '.claude/skills/taken'} already exists: pick another name, or move it away first")


def test_a_hidden_copy_renames_only_itself(tmp_path: Path) -> None:
    workspace, home, _catalog, _target = _found(tmp_path)
    copy = world.skill(home / ".agents/skills", "demo", "demo", "A hidden copy.")
    catalog = discover(str(workspace), str(home))
    hidden = target_at(catalog, str(copy), "demo")
    assert not hidden.winner
    plan = plan_rename(catalog, hidden, "my-demo", str(home))
    assert isinstance(plan, RenamePlan) and plan.outside_workspace
    assert [(edit.path, edit.kind) for edit in plan.edits] == [(str(copy), "name")]
    assert plan.renames == (FileRename(str(copy.parent), str(copy.parent.parent / "my-demo"), "folder"),)


def _walk_world(tmp_path: Path, entries: int) -> tuple:
    """A workspace of exactly `entries` directory entries whose last one read is a chat file naming `/demo`:
    the walk reads the workspace (.agents, z), z's padding, then .agents, skills, demo (SKILL.md, the chat)."""
    workspace = tmp_path / "ws"
    skill = world.skill(workspace / ".agents/skills", "demo", "demo", "d.")
    (skill.parent / "zz.chat.md").write_text("/demo\n")
    padding = workspace / "z"
    padding.mkdir()
    for index in range(entries - 6):
        (padding / f"a{index}.txt").write_text("x")
    catalog = discover(str(workspace), str(tmp_path / "home"), user_roots=False)
    return catalog, target_at(catalog, str(skill), "demo")


def test_the_workspace_walk_reads_up_to_its_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_MENTION_WALK_ENTRIES", 8)
    catalog, target = _walk_world(tmp_path, 8)
    found = find_mentions(catalog, target, str(tmp_path / "home"))
    assert found.truncated is None and [m.kind for m in found.mentions] == ["name", "command"]


def test_one_entry_past_the_bound_stops_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_MENTION_WALK_ENTRIES", 8)
    catalog, target = _walk_world(tmp_path, 9)
    found = find_mentions(catalog, target, str(tmp_path / "home"))
    assert found.truncated is not None and "stopped after 8 entries" in found.truncated
    assert [m.kind for m in found.mentions] == ["name"]
