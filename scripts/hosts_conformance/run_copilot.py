"""Copilot CLI: `copilot skill list --json` with `COPILOT_OFFLINE=true`: a JSON array of skills (name,
source, the skill's folder, enabled), and on stderr "The following skills failed to load:" with one
`• <path>: <message>` line per refusal (project paths relative to the working folder).

Copilot unpacks itself into `~/.cache/copilot` on first use (235 MB); the scratch home links that folder to
one kept beside the cached agent, so it is unpacked once, not on every run."""

from __future__ import annotations

import json
import os
import re

from . import sandbox
from .agents import Agent
from .seen import Seen, loaded, refused
from .tree import PathMap, Tree

_FAILURE = re.compile(r"^\s*•\s+(?P<path>.+?SKILL\.md): (?P<message>.+?)\s*$", re.MULTILINE | re.IGNORECASE)


def share_home_cache(agent: Agent, tree: Tree, name: str) -> None:
    """Link the scratch home's `~/.cache/<name>` to a folder kept beside the cached agent."""
    kept = os.path.join(agent.cache_dir, "home-cache", name)
    os.makedirs(kept, exist_ok=True)
    link = os.path.join(tree.home, ".cache", name)
    if not os.path.islink(link):
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(kept, link)


def observe(agent: Agent, tree: Tree, paths: PathMap, scratch: str) -> Seen:
    share_home_cache(agent, tree, "copilot")
    env = sandbox.agent_env(tree.home, {"COPILOT_OFFLINE": "true", "COPILOT_AUTO_UPDATE": "false"})
    ran = sandbox.run([agent.executable, "skill", "list", "--json"], env, tree.project, scratch)
    try:
        listed = json.loads(ran.stdout)
    except ValueError:
        raise RuntimeError(ran.failed("copilot skill list --json (no JSON)")) from None
    seen: Seen = {}
    for skill in listed:
        if skill.get("source") != "builtin" and skill.get("enabled", True):
            loaded(seen, paths.folder(skill["path"]), skill["name"], description=skill.get("description") or "")
    for failure in _FAILURE.finditer(ran.stderr):
        refused(seen, paths.file(failure["path"], relative_to=tree.project), failure["message"])
    return seen
