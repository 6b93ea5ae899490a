"""Gemini CLI: `gemini skills list --all --debug`, one text block per skill (name, `[Enabled]`, Description,
Location), and on stderr a "Skill conflict detected" line per name it found twice. Project skills are
read only in a trusted folder, so the run trusts it (`GEMINI_CLI_TRUST_WORKSPACE`)."""

from __future__ import annotations

import re

from . import sandbox
from .agents import Agent
from .seen import Seen, loaded, note
from .tree import PathMap, Tree

_HEADING = re.compile(r"^(?P<name>\S.*?) \[(?P<state>Enabled|Disabled)\]")
_DESCRIPTION = re.compile(r"^\s+Description:\s?(?P<text>.*)$")
_LOCATION = re.compile(r"^\s+Location:\s+(?P<path>.+?)\s*$")
_CONFLICT = re.compile(r'Skill conflict detected: "(?P<name>[^"]*)" from "(?P<winner>[^"]*)" is overriding the same '
                       r'skill from "(?P<loser>[^"]*)"\.')


def observe(agent: Agent, tree: Tree, paths: PathMap, scratch: str) -> Seen:
    env = sandbox.agent_env(tree.home, {"GEMINI_CLI_TRUST_WORKSPACE": "true", "GEMINI_CLI_NO_RELAUNCH": "true"})
    ran = sandbox.run([agent.executable, "skills", "list", "--all", "--debug"], env, tree.project, scratch)
    if ran.returncode != 0 or "Discovered Agent Skills" not in ran.stdout and ran.stdout.strip():
        raise RuntimeError(ran.failed("gemini skills list"))
    seen: Seen = {}
    heading, description = None, None
    for line in ran.stdout.splitlines():
        if (match := _HEADING.match(line)) is not None:
            heading, description = match, None
        elif (said := _DESCRIPTION.match(line)) is not None and heading is not None:
            description = said["text"]
        elif (where := _LOCATION.match(line)) is not None and heading is not None:
            if heading["state"] == "Enabled":
                loaded(seen, paths.file(where["path"]), heading["name"], description=(description or "").strip())
            heading = None
        elif description is not None and heading is not None and line.strip():
            description += "\n" + line  # a description over several lines
    for conflict in _CONFLICT.finditer(ran.stderr):
        note(seen, paths.file(conflict["loser"]), conflict.group(0))
    return seen
