"""Codex: its `app-server` JSON-RPC `skills/list`, which gives each loaded skill and each refusal
(`errors[]`, with path and message), then `codex debug prompt-input`, the input its model would be given:
the description each skill has there (cut, or left out, by the catalog budget). No login or key is needed;
`CODEX_HOME` must exist."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import time

from . import sandbox
from .agents import Agent
from .seen import Seen, loaded, refused, texts
from .tree import PathMap, Tree


def _requests(project: str) -> str:
    messages = [
        {"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "albedo-conformance", "version": "0"}}},
        {"method": "initialized"},
        {"id": 2, "method": "skills/list", "params": {"cwds": [project], "forceReload": True}},
    ]
    return "".join(json.dumps(message) + "\n" for message in messages)


def _ask(agent: Agent, env: dict[str, str], project: str, scratch: str) -> dict:
    """Send the requests and read answers until `skills/list` is answered (closing stdin first would end
    the server before it answers)."""
    with open(os.path.join(scratch, "stderr"), "wb") as err:
        server = subprocess.Popen([agent.executable, "app-server"], env=env, cwd=project, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=err)
    assert server.stdin is not None and server.stdout is not None
    deadline = time.monotonic() + sandbox.AGENT_TIMEOUT_SECONDS
    try:
        server.stdin.write(_requests(project).encode())
        server.stdin.flush()
        buffer = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([server.stdout], [], [], deadline - time.monotonic())
            if not ready:
                break
            chunk = os.read(server.stdout.fileno(), 1 << 16)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if message.get("id") == 2:
                    return message
    finally:
        server.stdin.close()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    with open(os.path.join(scratch, "stderr"), encoding="utf-8", errors="replace") as err:
        raise RuntimeError(f"codex app-server gave no answer to skills/list: {err.read()[-800:]}")


_ROOT = re.compile(r"^- `(?P<key>r\d+)` = `(?P<path>.+)`$")
# `- <name>: <description> (file: r2/folder/SKILL.md)`; a name may hold `: `, so the entry is split later,
# knowing the name from `skills/list`.
_PROMPT_ENTRY = re.compile(r"^- (?P<entry>.*) \(file: (?P<key>r\d+)/(?P<rel>.+)\)$")


def prompt_skills(prompt_input: str) -> dict[str, str] | None:
    """{absolute SKILL.md path: "<name>: <description>"} from `codex debug prompt-input`'s skills section,
    or None when the output has no such section."""
    try:
        found = json.loads(prompt_input)
    except ValueError:
        return None
    for text in texts(found):
        if "<skills_instructions>" not in text:
            continue
        roots: dict[str, str] = {}
        listed: dict[str, str] = {}
        for line in text.splitlines():
            if (root := _ROOT.match(line)) is not None:
                roots[root["key"]] = root["path"]
            elif (entry := _PROMPT_ENTRY.match(line)) is not None and entry["key"] in roots:
                listed[os.path.join(roots[entry["key"]], entry["rel"])] = entry["entry"]
        return listed
    return None


def observe(agent: Agent, tree: Tree, paths: PathMap, scratch: str) -> Seen:
    codex_home = os.path.join(tree.home, ".codex")
    os.makedirs(codex_home, exist_ok=True)
    env = sandbox.agent_env(tree.home, {"CODEX_HOME": codex_home, "RUST_LOG": "error"})
    answer = _ask(agent, env, tree.project, scratch)
    prompt = os.path.join(scratch, "prompt")
    os.makedirs(prompt)
    ran = sandbox.run([agent.executable, "debug", "prompt-input"], env, tree.project, prompt)
    shown = prompt_skills(ran.stdout)
    if shown is None:
        raise RuntimeError(ran.failed("codex debug prompt-input (no skills section)"))
    described = {paths.file(path): text for path, text in shown.items()}
    # `skills/list` gives a skill's resolved path; the prompt gives the path as seen through its root (a
    # linked folder's own path), which is the file the skill is: take it where the two are one file.
    through_root = {os.path.realpath(path): path for path in shown}
    seen: Seen = {}
    for listing in answer["result"]["data"]:
        for skill in listing["skills"]:
            if skill.get("enabled", True):
                rel = paths.file(through_root.get(os.path.realpath(skill["path"]), skill["path"]))
                # Not in the prompt: loaded, but its model is not shown it (the budget left it out).
                entry = described.get(rel, "")
                loaded(seen, rel, skill["name"], description=entry.removeprefix(f"{skill['name']}: "))
        for error in listing["errors"]:
            refused(seen, paths.file(error["path"]), error["message"])
    return seen
