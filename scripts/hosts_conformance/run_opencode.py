"""OpenCode: `opencode debug skill`, a JSON array of the skills it registered (name, description,
location), and `duplicate skill name` warnings on stderr. Its winner for a name found twice changes from
run to run, so the driver runs it several times and keeps every outcome.

OpenCode keeps its helper binaries in `~/.cache/opencode`; the scratch home links that folder to one kept
beside the cached agent (a cold cache doubles each run's time)."""

from __future__ import annotations

import json
import re

from . import sandbox
from .agents import Agent
from .run_copilot import share_home_cache
from .seen import Seen, loaded, note
from .tree import PathMap, Tree

_DUPLICATE = re.compile(r'message="duplicate skill name" name=(?P<name>\S+) existing=(?P<existing>\S+) '
                        r'duplicate=(?P<duplicate>\S+)')


def observe(agent: Agent, tree: Tree, paths: PathMap, scratch: str) -> Seen:
    share_home_cache(agent, tree, "opencode")
    env = sandbox.agent_env(tree.home, {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
                                        "OPENCODE_DISABLE_SHARE": "1"})
    ran = sandbox.run([agent.executable, "debug", "skill", "--print-logs", "--log-level", "WARN"], env,
                      tree.project, scratch)
    try:
        listed = json.loads(ran.stdout)
    except ValueError:
        raise RuntimeError(ran.failed("opencode debug skill (no JSON)")) from None
    seen: Seen = {}
    for skill in listed:
        location = skill.get("location", "")
        if location.startswith("/"):
            said = None if skill.get("description") else "listed with no description"
            # OpenCode leaves a skill without a description out of what its model is shown (run).
            loaded(seen, paths.file(location), skill["name"], said, skill.get("description") or "")
    for duplicate in _DUPLICATE.finditer(ran.stderr):
        for path in (duplicate["existing"], duplicate["duplicate"]):
            note(seen, paths.file(path), f"duplicate skill name {duplicate['name']}")
    return seen
