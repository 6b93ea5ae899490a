"""The documents' generated parts: the server settings' table in docs/server.md, the whole of
docs/diagnostics.md (diagnostics_doc.py), the agents' sections of docs/hosts.md (hosts_doc.py) and the table
of agent modules in ARCHITECTURE.md."""

from __future__ import annotations

import json

from ..lsp.settings import SETTINGS, default_of
from ..skills.hosts import AGENT_MODULES, model
from . import diagnostics_doc, hosts_doc
from .sections import replace_section
from .vscode import plain


def server_settings(current: str) -> str:
    rows = ["| setting | default | what it does |", "| --- | --- | --- |"]
    rows += [f"| `{setting.key}` | `{json.dumps(default_of(setting), ensure_ascii=False)}` | {plain(setting.description)} |"
             for setting in SETTINGS.values()]
    return replace_section(current, "settings", "<!-- -->", "albedo_skills_ls/lsp/settings.py", "\n".join(rows) + "\n")


def agent_modules(current: str) -> str:
    rows = ["| module | agent | how its rules are known |", "| --- | --- | --- |"]
    for host_id, module in AGENT_MODULES.items():
        host = model(host_id)
        rows.append(f"| `hosts/{module}.py` | `{host_id}`: {host.title} | {host.evidence.short} |")
    return replace_section(current, "agents", "<!-- -->", "AGENT_MODULES in albedo_skills_ls/skills/hosts/",
                           "\n".join(rows) + "\n")


OUTPUTS = (
    ("docs/server.md", server_settings),
    ("docs/diagnostics.md", diagnostics_doc.render),
    ("docs/hosts.md", hosts_doc.render),
    ("ARCHITECTURE.md", agent_modules),
)
