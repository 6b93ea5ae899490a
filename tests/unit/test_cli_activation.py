"""The activation verbs print the same JSON as the server's routes, from a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from albedo_skills_ls.skills.activation.commands import command_catalog
from albedo_skills_ls.skills.catalog.discovery import discover
from activation_text import parse_activation_input

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
WORKSPACE, HOME = EXAMPLES / "workspace", EXAMPLES / "home"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "albedo_skills_ls.cli", *args], capture_output=True, text=True, encoding="utf-8"
    )


def test_commands_equals_the_engine_catalog():
    result = run("commands", str(WORKSPACE), "--home", str(HOME))
    assert result.returncode == 0
    assert json.loads(result.stdout) == command_catalog(discover(str(WORKSPACE), str(HOME)))


def test_invoke_model_and_user_modes():
    model = run("invoke", "/changelog", 'notes for "v2"\n</albedo-skill-activation>', "-w", str(WORKSPACE), "--home", str(HOME))
    assert model.returncode == 0, model.stderr
    activation = json.loads(model.stdout)
    assert activation["arguments"] == 'notes for "v2"\n</albedo-skill-activation>'
    assert activation["source"] == str(WORKSPACE / ".agents/skills/changelog/SKILL.md")

    user = run("invoke", "/skill:model", "orders", "--user", "-w", str(WORKSPACE), "--home", str(HOME))
    turn = json.loads(user.stdout)
    assert turn["intent"] == "/skill:model orders"
    assert parse_activation_input(turn["input"])["arguments"] == "orders"


def test_resources_and_read_and_their_refusals():
    listing = json.loads(run("resources", "code-review", "-w", str(WORKSPACE), "--home", str(HOME)).stdout)
    assert "references/checklist.md" in listing["resources"]
    page = json.loads(
        run("read", "code-review", "references/checklist.md", "--limit", "10", "-w", str(WORKSPACE), "--home", str(HOME)).stdout
    )
    expected = (WORKSPACE / ".albedo/skills/code-review/references/checklist.md").read_bytes()
    assert page["content"].encode() == expected[:10] and page["next_offset"] == 10 and page["truncated"]

    escape = run("read", "code-review", "../changelog/SKILL.md", "-w", str(WORKSPACE), "--home", str(HOME))
    assert escape.returncode == 1 and ".." in escape.stderr and escape.stdout == ""
    unknown = run("resources", "nope", "-w", str(WORKSPACE), "--home", str(HOME))
    assert unknown.returncode == 1 and "commands" in unknown.stderr


def test_a_workspace_that_is_the_home_folder_does_not_collide_with_itself(tmp_path):
    skill = tmp_path / ".agents/skills/mine/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: mine\ndescription: x\n---\n", encoding="utf-8")
    catalog = discover(str(tmp_path), str(tmp_path))
    assert [s.name for s in catalog.skills] == ["mine"] and catalog.skills[0].scope == "workspace"
    assert catalog.diagnostics == ()
    assert [r.path for r in catalog.roots].count(str(tmp_path / ".agents/skills")) == 1
