"""Gemini CLI: `gemini skills list --all --debug`, one text block per skill (name, `[Enabled]`, Description,
Location), and on stderr a "Skill conflict detected" line per name it found twice. Project skills are
read only in a trusted folder, so the run trusts it (`GEMINI_CLI_TRUST_WORKSPACE`)."""

from __future__ import annotations

import re

from . import sandbox
from .agents import Agent
from .seen import Seen, loaded, note
from .tree import PathMap, Tree

# One block per skill, ending at its Location line. A name or description holding line breaks prints over
# several lines, so a block is read whole: `<name> [Enabled]`, `  Description: <text>`, `  Location: <path>`.
_BLOCK = re.compile(r"(?s)^\n*(?P<name>.*?) \[(?P<state>Enabled|Disabled)\][^\n]*\n  Description: ?(?P<description>.*?)\n*"
                    r"  Location:\s+(?P<path>[^\n]+?)\s*$")
_LOCATION = re.compile(r"^  Location:.*$", re.MULTILINE)
_CONFLICT = re.compile(r'Skill conflict detected: "(?P<name>[^"]*)" from "(?P<winner>[^"]*)" is overriding the same '
                       r'skill from "(?P<loser>[^"]*)"\.')


def observe(agent: Agent, tree: Tree, paths: PathMap, scratch: str) -> Seen:
    env = sandbox.agent_env(tree.home, {"GEMINI_CLI_TRUST_WORKSPACE": "true", "GEMINI_CLI_NO_RELAUNCH": "true"})
    ran = sandbox.run([agent.executable, "skills", "list", "--all", "--debug"], env, tree.project, scratch)
    if ran.returncode != 0 or "Discovered Agent Skills" not in ran.stdout and ran.stdout.strip():
        raise RuntimeError(ran.failed("gemini skills list"))
    seen: Seen = {}
    listing = ran.stdout.split("Discovered Agent Skills:", 1)[-1]
    begin = 0
    for location in _LOCATION.finditer(listing):
        block = _BLOCK.match(listing[begin:location.end()])
        begin = location.end() + 1
        if block is not None and block["state"] == "Enabled":
            loaded(seen, paths.file(block["path"]), block["name"], description=block["description"])
    for conflict in _CONFLICT.finditer(ran.stderr):
        note(seen, paths.file(conflict["loser"]), conflict.group(0))
    return seen
