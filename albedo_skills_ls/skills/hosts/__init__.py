"""Which other agents load each skill, and why not: one model per agent, one shared walk, one verdict each.

`report(workspace, home, ids)` walks every agent's roots once, then asks each chosen agent's model for its
verdict on every file found. Adding an agent is one module here (its `MODEL`) and one line in `_MODULES`.
Nothing here changes Albedo's own catalog or diagnostics (decisions.md section 9): the verdicts are a
separate value, shown beside them.
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import Any, NamedTuple

from .model import HostModel
from .verdicts import FactsCache, HostReport, host_report, root_paths
from .walker import Found, walk

# host id -> module, in the order tables list them
_MODULES = {
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
HOST_IDS: tuple[str, ...] = tuple(_MODULES)


def model(host_id: str) -> HostModel:
    """The model of one agent; KeyError for an id not in HOST_IDS."""
    return import_module(f"{__name__}.{_MODULES[host_id]}").MODEL


def models(ids: tuple[str, ...] | None = None) -> tuple[HostModel, ...]:
    return tuple(model(host_id) for host_id in (ids or HOST_IDS))


class Report(NamedTuple):
    workspace: str | None
    home: str
    files: tuple[Found, ...]
    hosts: tuple[HostReport, ...]
    truncated: str | None  # why the walk stopped early, or None

    def to_json(self) -> dict[str, Any]:
        return {
            "hosts": {
                entry.host.id: {
                    "version": entry.host.version,
                    "evidence": str(entry.host.evidence),
                    "skills": {path: verdict.to_json() for path, verdict in entry.verdicts.items()},
                }
                for entry in self.hosts
            }
        }


def report(workspace: str | None, home: str | None = None, ids: tuple[str, ...] | None = None) -> Report:
    """Every chosen agent's verdict on every SKILL.md (any letter case) under any agent's roots."""
    home_path = os.path.abspath(home if home is not None else os.path.expanduser("~"))
    workspace_path = os.path.abspath(workspace) if workspace is not None else None
    every_root = [root for host in models() for root in root_paths(host, workspace_path, home_path)]
    found = walk(every_root)
    files = tuple(sorted(found.files, key=lambda f: f.path))
    chosen = models(ids)
    facts = FactsCache()
    return Report(
        workspace_path,
        home_path,
        files,
        tuple(host_report(host, files, workspace_path, home_path, facts) for host in chosen),
        found.truncated,
    )
