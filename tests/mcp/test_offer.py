"""What the offer makes of a frontmatter, without the MCP library: every field as written, as JSON values."""

from __future__ import annotations

import pytest

from albedo_skills_ls.mcp.offer import _NotOfferable, frontmatter_json


def document(fields: str) -> bytes:
    return f"---\nname: demo\ndescription: Merges files.\n{fields}---\n# Body\n".encode()


@pytest.mark.parametrize("fields, expected", [
    ("version: 1\n", {"version": 1}),
    ("version: '1'\n", {"version": "1"}),
    ("ratio: 0.5\nbeta: true\nnothing: null\n", {"ratio": 0.5, "beta": True, "nothing": None}),
    ("released: 2026-12-06\n", {"released": "2026-12-06"}),  # a date: its ISO text
    ("metadata:\n  team: docs\n  tags: [a, b]\n", {"metadata": {"team": "docs", "tags": ["a", "b"]}}),
])
def test_the_frontmatter_keeps_every_field_as_written(fields, expected):
    assert frontmatter_json(document(fields), "/x/SKILL.md") == {"name": "demo", "description": "Merges files."} | expected


def test_a_frontmatter_a_safe_load_refuses_leaves_the_skill_out_with_its_reason():
    with pytest.raises(_NotOfferable, match="ConstructorError"):
        frontmatter_json(document("kind: !custom x\n"), "/x/SKILL.md")
