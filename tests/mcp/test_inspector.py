"""The MCP Inspector's command line (`mcp-inspector --cli`, npm `@modelcontextprotocol/inspector`, pinned)
against `albedo-skills mcp`: it lists and gets the prompts, lists and reads the resources, and lists and calls
the tools, as a person checking the server by hand would.

The Inspector is installed from npm into ~/.cache/albedo-skills-ls on first use (as the agents are). Its
separate `@modelcontextprotocol/inspector-cli` package (1.0.3) is deprecated and does not start (it imports a
file its package lacks), so the Inspector's own CLI mode is what is run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "albedo-skills-ls" / "mcp-inspector-2.12.0"


@pytest.fixture(scope="module")
def inspector() -> Path:
    program = CACHE / "node_modules" / ".bin" / "mcp-inspector"
    if not program.exists():
        npm = shutil.which("npm")
        assert npm, "npm is needed to install the MCP Inspector (Node 20 with npm: see the README)"
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", "--loglevel=error", INSPECTOR],
                       check=True, capture_output=True, timeout=600)
    return program


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / ".agents" / "skills" / "demo"
    (folder / "references").mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: demo\ndescription: Merges files the way this project likes.\n---\n\n# Merge\n\nMerge them.\n",
        encoding="utf-8",
    )
    (folder / "references" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    return tmp_path


def inspect(inspector: Path, workspace: Path, *method: str) -> dict:
    server = [sys.executable, "-m", "albedo_skills_ls.cli", "mcp", "-w", str(workspace), "--no-user-roots"]
    done = subprocess.run([str(inspector), "--cli", *server, "--method", *method], capture_output=True, text=True,
                          timeout=120, cwd=workspace)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_the_inspector_lists_and_gets_the_prompts(inspector, workspace):
    listed = inspect(inspector, workspace, "prompts/list")
    assert [(p["name"], p["description"]) for p in listed["prompts"]] == [("demo", "Merges files the way this project likes.")]
    got = inspect(inspector, workspace, "prompts/get", "--prompt-name", "demo", "--prompt-args", "arguments=a.txt b.txt")
    (message,) = got["messages"]
    expected = subprocess.run(
        [sys.executable, "-m", "albedo_skills_ls.cli", "invoke", "/demo", "a.txt b.txt", "--user", "-w", str(workspace),
         "--no-user-roots"], capture_output=True, text=True, check=True,
    )
    assert message["role"] == "user" and message["content"]["text"] == json.loads(expected.stdout)["input"]


def test_the_inspector_lists_and_reads_the_resources(inspector, workspace):
    listed = inspect(inspector, workspace, "resources/list")
    assert [r["uri"] for r in listed["resources"]] == ["skill://demo/SKILL.md"]
    read = inspect(inspector, workspace, "resources/read", "--uri", "skill://demo/references/guide.md")
    assert read["contents"] == [{"uri": "skill://demo/references/guide.md", "mimeType": "text/markdown", "text": "# Guide\n"}]


def test_the_inspector_lists_and_calls_the_tools(inspector, workspace):
    listed = inspect(inspector, workspace, "tools/list")
    assert sorted(t["name"] for t in listed["tools"]) == ["activate_skill", "read_skill_file"]
    called = inspect(inspector, workspace, "tools/call", "--tool-name", "activate_skill", "--tool-arg", "command=/demo",
                     "--tool-arg", "arguments=x")
    assert called["structuredContent"]["name"] == "demo" and called["structuredContent"]["arguments"] == "x"
