"""`commands.catalog` entries are engine values (`CommandEntry`); their JSON keeps the route's exact shape."""

from __future__ import annotations

import json

from albedo_skills_ls.skills.activation.commands import command_catalog, command_entries
from albedo_skills_ls.skills.core.model import CommandEntry

from conftest import Layout, write_skill


def test_the_json_keeps_its_key_order_and_values(layout: Layout) -> None:
    path = write_skill(layout.roots[1], "demo", {"name": "demo", "description": "Does things."})
    catalog = layout.discover(builtins=("help", "reload"))
    assert all(isinstance(entry, CommandEntry) for entry in command_entries(catalog))
    text = json.dumps(command_catalog(catalog))
    expected = [
        {"command": "/help", "name": "help", "kind": "builtin",
         "description": "List the available commands and skills.", "arguments": []},
        {"command": "/reload", "name": "reload", "kind": "builtin",
         "description": "Re-run skill discovery and swap the catalog in place (`/reload session`).",
         "arguments": [{"name": "scope", "type": "string", "required": False,
                        "description": "`session`: re-run discovery and swap this session's catalog.",
                        "values": ["session"]}]},
        {"command": "/demo", "name": "demo", "kind": "skill", "description": "Does things.",
         "arguments": [{"name": "arguments", "type": "string", "required": False,
                        "description": "Free text handed to the skill exactly as typed."}],
         "path": str(path), "scope": "workspace"},
    ]
    assert text == json.dumps(expected)  # byte for byte: key order included
