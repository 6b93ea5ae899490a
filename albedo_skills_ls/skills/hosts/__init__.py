"""Stage 6, which other agents load each skill, and why not: one model per agent, one shared walk, one verdict each.

`report(workspace, home, ids)` walks every agent's roots once, then asks each chosen agent's model for its
verdict on every file found. `AGENT_MODULES` declares the agent models (id → module, in the order tables list
them); adding an agent is its module here (its `MODEL`), its line there and its tests (ARCHITECTURE.md).
Nothing here changes Albedo's own catalog or diagnostics (docs/design.md#9-other-chats-and-other-agents): the verdicts are a
separate value, shown beside them.
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import Any, NamedTuple

from .model import HostModel
from .verdicts import FactsCache, HostReport, host_report, root_paths
from .walker import Cut, Found, walk

# host id -> module, in the order tables list them: the one declaration of the agent models
AGENT_MODULES = {
    "albedo": "albedo",
    "skills-ref": "skills_ref",
    "codex": "codex",
    "claude-code": "claude_code",
    "gemini-cli": "gemini_cli",
    "opencode": "opencode",
    "copilot-cli": "copilot_cli",
    "vscode": "vscode",
    "zed": "zed",
    "cline": "cline",
    "roo-code": "roo_code",
    "goose": "goose",
    "claude-upload": "claude_upload",
}
HOST_IDS: tuple[str, ...] = tuple(AGENT_MODULES)


def model(host_id: str) -> HostModel:
    """The model of one agent; KeyError for an id not in HOST_IDS."""
    return import_module(f"{__name__}.{AGENT_MODULES[host_id]}").MODEL


def models(ids: tuple[str, ...] | None = None) -> tuple[HostModel, ...]:
    return tuple(model(host_id) for host_id in (ids or HOST_IDS))


class Report(NamedTuple):
    workspace: str | None
    home: str
    files: tuple[Found, ...]
    hosts: tuple[HostReport, ...]
    truncated: Cut | None  # where a bound of the walk cut it, or None

    def to_json(self) -> dict[str, Any]:
        return {
            "truncated": None if self.truncated is None else self.truncated.to_json(),
            "hosts": {
                entry.host.id: {
                    "version": entry.host.version,
                    "evidence": str(entry.host.evidence),
                    "skills": {path: verdict.to_json() for path, verdict in entry.verdicts.items()},
                }
                for entry in self.hosts
            }
        }


class Walked(NamedTuple):
    """One walk of every agent's roots, with each file read at most once: what every report on the same
    (workspace, home) shares, whichever agents it judges."""

    workspace: str | None
    home: str
    files: tuple[Found, ...]  # in path order
    truncated: Cut | None
    facts: FactsCache


def walked(workspace: str | None, home: str | None = None, user_roots: bool = True) -> Walked:
    """`user_roots` False walks only the workspace's folders: every agent judged as if the home folder held
    no skills (`hosts --no-user-roots`, as `check --no-user-roots` reads only the workspace roots)."""
    home_path = os.path.abspath(home if home is not None else os.path.expanduser("~"))
    workspace_path = os.path.abspath(workspace) if workspace is not None else None
    walked_home = home_path if user_roots else None
    every_root = [root for host in models() for root in root_paths(host, workspace_path, walked_home)]
    found = walk(every_root)
    files = tuple(sorted(found.files, key=lambda f: f.path))
    return Walked(workspace_path, home_path, files, found.truncated, FactsCache())


def report(
    workspace: str | None,
    home: str | None = None,
    ids: tuple[str, ...] | None = None,
    done: Walked | None = None,
    judged: dict[str, HostReport] | None = None,
    user_roots: bool = True,
) -> Report:
    """Every chosen agent's verdict on every SKILL.md (any letter case) under any agent's roots. `done`: a walk
    of the same folders to reuse; `judged`: each agent's verdicts on it so far, by id, reused and filled in."""
    seen = done if done is not None else walked(workspace, home, user_roots)
    judged = {} if judged is None else judged
    for host in models(ids):
        if host.id not in judged:
            judged[host.id] = host_report(host, seen.files, seen.workspace, seen.home, seen.facts)
    return Report(
        seen.workspace, seen.home, seen.files, tuple(judged[host.id] for host in models(ids)), seen.truncated
    )
