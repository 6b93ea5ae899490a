"""Claude Code: `claude -p --output-format stream-json` against a fake Anthropic model on 127.0.0.1.

Claude prints nothing about the skills it skips, and its init event leaves out the skills whose description
it made up, so the answer is read from what it sends the model: the list after "The following skills are
available for use with the Skill tool:" (`- <name>: <description>` lines). Those are names, not paths: a
name is the skill's folder (Claude names the command after it), looked up in the two roots Claude reads,
the copy picked by its description when the name is in both; a name that is no folder's (a plugin's
`plugin:skill`) is the file under a Claude root whose description it shows.
"""

from __future__ import annotations

import json
import os
import re

from . import sandbox
from .agents import Agent
from .fake_model import FakeAnthropic
from .seen import Seen, loaded, texts
from .tree import PathMap, Tree

LIST_HEADER = "The following skills are available for use with the Skill tool:"
# `- <command>: <description>`, or `- <command> (<name>): <description>` when the frontmatter's name differs
# from the command (2.1.332; the command is the folder's name); without `: <description>` when the budget
# lists it by name alone.
_ENTRY = re.compile(r"^- (?P<command>[^:()]+?)(?: \((?P<name>[^()]*)\))?(?:: (?P<description>.*))?$")
NOT_A_KEY = "sk-ant-conformance-not-a-key"  # any string: it only skips the login screen


def skill_list(request: dict) -> list[tuple[str, str]]:
    """(command, description) of each skill the request shows the model, in its order; a description over
    several lines keeps them (a line that does not open an entry continues the one before)."""
    for text in texts(request):
        if LIST_HEADER not in text:
            continue
        listed: list[tuple[str, str]] = []
        for line in text.split(LIST_HEADER, 1)[1].splitlines():
            if not line.strip():
                if listed:
                    break
                continue
            entry = _ENTRY.match(line)
            if entry is not None:
                listed.append((entry["command"].strip(), entry["description"] or ""))
            elif listed:
                command, description = listed[-1]
                listed[-1] = (command, description + "\n" + line)
        return listed
    return []


def observe(agent: Agent, tree: Tree, paths: PathMap, scratch: str) -> Seen:
    roots = [os.path.join(tree.home, ".claude", "skills"), os.path.join(tree.project, ".claude", "skills")]
    with FakeAnthropic() as fake:
        env = sandbox.agent_env(tree.home, {
            "ANTHROPIC_API_KEY": NOT_A_KEY, "ANTHROPIC_BASE_URL": fake.url, "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1"})
        ran = sandbox.run([agent.executable, "-p", "--output-format", "stream-json", "--verbose",
                           "--no-session-persistence", "hi"], env, tree.project, scratch)
        requests = list(fake.requests)
    listed = next((found for found in map(skill_list, requests) if found), None)
    if listed is None:
        raise RuntimeError(ran.failed("claude -p (no skill list reached the fake model)"))
    # A command the init event names but the model's list leaves out (`disable-model-invocation: true`):
    # loaded, shown to the model with no description at all.
    shown = {command for command, _ in listed}
    listed += [(command, None) for command in init_event(ran.stdout).get("slash_commands", [])
               if command not in shown]
    seen: Seen = {}
    taken: set[str] = set()
    for name, description in listed:
        candidates = [path for path in (paths.file(os.path.join(root, name, "SKILL.md")) for root in roots)
                      if path is not None and path not in taken]
        described = [path for path in candidates if description is None or _describes(tree, path, description)]
        if not candidates:
            if ":" not in name or description is None:
                continue  # one of Claude's built-ins (`claude-api` shares its description with a public skill)
            # A plugin's skill (`plugin:skill`): the file under a Claude root whose description it shows.
            described = [path for path in paths.known - taken if _under_any(tree, path, roots)
                         and _describes(tree, path, description)]
            if len(described) != 1:
                continue
        chosen = (described or candidates)[0]  # user root first: the order Claude lists them in
        taken.add(chosen)
        loaded(seen, chosen, name, description=description if description is not None else "")
    return seen


def _under_any(tree: Tree, rel: str, roots: list[str]) -> bool:
    path = os.path.join(tree.base, rel)
    return any(path.startswith(root + os.sep) for root in roots)


def _describes(tree: Tree, rel: str, description: str) -> bool:
    try:
        with open(os.path.join(tree.base, rel), encoding="utf-8", errors="replace") as skill:
            text = skill.read()
    except OSError:
        return False
    head = description.split("\n", 1)[0][:60]
    # A generated file names its id (`s0042`) in its description; the first words find the copy otherwise.
    marked = re.search(r"\bs\d{4,}\b", head)
    return bool(head) and (head in text if marked is None else marked.group(0) in text)


def init_event(stdout: str) -> dict:
    """The first stream-json event (names of skills and slash commands)."""
    for line in stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("type") == "system" and event.get("subtype") == "init":
            return event
    return {}
