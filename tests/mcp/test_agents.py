"""Real agents with `albedo-skills mcp` configured as docs/mcp.md says: Gemini CLI and Claude Code (pinned, from
npm, cached as the conformance step caches them), run offline in a loopback-only network namespace against a
fake model on 127.0.0.1 that records what it receives. Typing the skill's MCP slash command with arguments
makes the model receive exactly one activation, with those arguments and the skill's instructions, byte for
byte what `albedo-skills invoke --user` gives. Gemini CLI runs in its print mode; Claude Code offers MCP
prompts only in its interactive mode (its print mode answers that no such command exists), so it is typed at
in a tmux pane.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, "clients"))

from hosts_conformance import agents, sandbox  # noqa: E402
from hosts_conformance.run_claude import NOT_A_KEY  # noqa: E402
from tmux_screen import Screen  # noqa: E402

ACTIVATION_OPEN = "<albedo-skill-activation>"
DRIVER = Path(__file__).with_name("gemini_driver.py")
CLAUDE_DRIVER = Path(__file__).with_name("claude_driver.py")
# What Claude Code 2.1.332 calls the prompt `demo` of the server `albedo`: the command typed, and the name its
# slash menu shows for it (run: the menu lists `/albedo:demo (MCP)`, and typing that is an unknown command)
CLAUDE_COMMAND, CLAUDE_MENU_NAME = "/mcp__albedo__demo", "/albedo:demo (MCP)"
HANG_GUARD_SECONDS = 300


SERVER = [sys.executable, "-m", "albedo_skills_ls.cli", "mcp"]


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
    server = SERVER + ["-w", str(workspace), "--no-user-roots"]
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


@pytest.fixture(scope="module")
def claude() -> str:
    installed = agents.ensure(agents.BY_ID["claude-code"])
    assert installed.ok, f"Claude Code could not be installed: {installed.note}"
    return installed.agent.executable


def claude_home(home: Path, workspace: Path) -> None:
    """What a person's Claude Code holds after its first run, so that no first-run screen stands in the way:
    the onboarding done, the API key of the environment approved (by its last 20 characters, as Claude Code
    records the answer), the workspace trusted."""
    home.mkdir(parents=True)
    (home / ".claude.json").write_text(json.dumps({
        "hasCompletedOnboarding": True,
        "customApiKeyResponses": {"approved": [NOT_A_KEY[-20:]], "rejected": []},
        "projects": {str(workspace): {"hasTrustDialogAccepted": True}},
    }), encoding="utf-8")


def test_claude_code_submits_the_activation_for_the_prompts_slash_command(claude, world, tmp_path):
    workspace, home = world
    home = home.with_name("claude-home")
    workspace = workspace.resolve()
    claude_home(home, workspace)
    prefix = sandbox.isolation_command()
    assert prefix, "no loopback-only network namespace on this machine (unshare -n / -rn refused)"
    requests = tmp_path / "requests.json"
    server = SERVER + ["-w", str(workspace), "--no-user-roots"]
    screen = Screen(tmp_path, [*prefix, sys.executable, str(CLAUDE_DRIVER), claude, str(home), str(workspace),
                               str(requests), *server], env={"PATH": os.environ["PATH"]}, cwd=workspace)
    try:
        screen.type(CLAUDE_COMMAND)  # the menu lists it once the server's prompts are in
        screen.wait_for(lambda text: CLAUDE_MENU_NAME in text, "the prompt in the slash menu")
        screen.type(" merge a.txt b.txt")
        screen.wait_for(lambda text: f"{CLAUDE_COMMAND} merge a.txt b.txt" in text and CLAUDE_MENU_NAME not in text,
                        "the command typed, the menu closed")
        screen.keys("Enter")
        screen.wait_for(lambda text: text.count("● ok") == 1, "the fake model's answer")
        with_words = claude_turn(requests, 1)
        screen.type(CLAUDE_COMMAND)  # and with nothing after it
        screen.wait_for(lambda text: CLAUDE_MENU_NAME in text, "the prompt in the slash menu again")
        screen.keys("Escape")  # the menu closed, the command kept, as a person sends it
        screen.wait_for(lambda text: CLAUDE_MENU_NAME not in text, "the menu closed")
        screen.keys("Enter")
        screen.wait_for(lambda text: text.count("● ok") == 2, "the fake model's second answer")
        without_words = claude_turn(requests, 2)
    finally:
        screen.close()
    for turn, typed in ((with_words, "merge a.txt b.txt"), (without_words, "")):
        activations = [text for text in turn if ACTIVATION_OPEN in text]
        assert len(activations) == 1, turn
        assert activations[0] == expected_input(workspace, typed)


def claude_turn(requests: Path, count: int) -> list[str]:
    """The text blocks of the last user turn of the `count`th request the fake model received (the driver writes
    them once they arrive, and the screen showed the answer to it): what that command submitted."""
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while not requests.exists() or len(json.loads(requests.read_text(encoding="utf-8"))) < count:
        assert time.monotonic() < deadline, f"the model's answer was shown, but request {count} was not recorded"
        time.sleep(0.1)
    messages = json.loads(requests.read_text(encoding="utf-8"))[count - 1]["messages"]
    # Claude Code 2.1.332 puts a message of its own after the turn (role `system`: today's date)
    content = next(message for message in reversed(messages) if message["role"] == "user")["content"]
    return [content] if isinstance(content, str) else [block.get("text", "") for block in content]
