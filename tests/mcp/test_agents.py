"""A real agent with `albedo-skills mcp` configured as docs/mcp.md says: Gemini CLI (pinned, from npm, cached
as the conformance step caches it), run offline in a loopback-only network namespace against a fake model on
127.0.0.1 that records what it receives. Typing the skill's MCP slash command with arguments makes the model
receive exactly one activation, with those arguments and the skill's instructions, byte for byte what
`albedo-skills invoke --user` gives.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))

from hosts_conformance import agents, sandbox  # noqa: E402

ACTIVATION_OPEN = "<albedo-skill-activation>"
DRIVER = Path(__file__).with_name("gemini_driver.py")
HANG_GUARD_SECONDS = 300


@pytest.fixture(scope="module")
def gemini() -> str:
    installed = agents.ensure(agents.BY_ID["gemini-cli"])
    assert installed.ok, f"Gemini CLI could not be installed: {installed.note}"
    return installed.agent.executable


@pytest.fixture()
def world(tmp_path: Path) -> tuple[Path, Path]:
    workspace, home = tmp_path / "ws", tmp_path / "home"
    folder = workspace / ".agents" / "skills" / "demo"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: demo\ndescription: Merges files the way this project likes.\n---\n\n# Merge\n\nMerge the files named.\n",
        encoding="utf-8",
    )
    server = [sys.executable, "-m", "albedo_skills_ls.cli", "mcp", "-w", str(workspace), "--no-user-roots"]
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "mcpServers": {"albedo": {"command": server[0], "args": server[1:], "env": {"PYTHONPATH": os.pathsep.join(sys.path)}}},
    }), encoding="utf-8")
    return workspace, home


def model_turns(gemini: str, workspace: Path, home: Path, prompt: str) -> list[str]:
    """The text parts of the user turns the fake model received, the session context left out."""
    prefix = sandbox.isolation_command()
    assert prefix, "no loopback-only network namespace on this machine (unshare -n / -rn refused)"
    done = subprocess.run([*prefix, sys.executable, str(DRIVER), gemini, str(home), str(workspace), prompt],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr[-2000:]
    ran = json.loads(done.stdout.strip().splitlines()[-1])
    assert ran["returncode"] == 0 and ran["requests"], ran["stderr"]
    turns = ran["requests"][-1]["body"]["contents"]
    return [part["text"] for turn in turns if turn["role"] == "user" for part in turn["parts"]
            if "text" in part and "<session_context>" not in part["text"]]


def expected_input(workspace: Path, arguments: str) -> str:
    done = subprocess.run([sys.executable, "-m", "albedo_skills_ls.cli", "invoke", "/demo", arguments, "--user",
                           "-w", str(workspace), "--no-user-roots"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)["input"]


@pytest.mark.parametrize("typed, arguments", [("/demo merge a.txt b.txt", "merge a.txt b.txt"), ("/demo", "")])
def test_gemini_cli_submits_the_activation_for_the_prompts_slash_command(gemini, world, typed, arguments):
    workspace, home = world
    turns = model_turns(gemini, workspace, home, typed)
    activations = [text for text in turns if ACTIVATION_OPEN in text]
    assert len(activations) == 1, turns
    # Gemini CLI 0.61.0 hands the prompt's message to the model as a JSON string literal of its text
    assert json.loads(activations[0]) == expected_input(workspace, arguments)
