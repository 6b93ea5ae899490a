"""Codex names a skill inside a plugin folder `<plugin>:<name>` (seen when run: the conformance fixture's
`a-plugin`); the manifest is read only up to its bound."""

from __future__ import annotations

import json
from pathlib import Path

from albedo_skills_ls.skills.core import limits
from albedo_skills_ls.skills.hosts.codex import plugin_name


def _plugin(tmp_path: Path, manifest_bytes: int) -> Path:
    plugin = tmp_path / ".agents" / "skills" / "pack"
    (plugin / ".codex-plugin").mkdir(parents=True)
    text = json.dumps({"name": "pack"})
    text = text[:-1] + ', "pad": "' + "x" * (manifest_bytes - len(text) - 11) + '"}'
    (plugin / ".codex-plugin" / "plugin.json").write_text(text)
    assert len(text.encode()) == manifest_bytes
    skill = plugin / "skills" / "inner" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: inner\ndescription: d\n---\n")
    return skill


def test_a_manifest_at_the_bound_names_the_plugin(tmp_path: Path) -> None:
    assert plugin_name(str(_plugin(tmp_path, limits.MAX_PLUGIN_MANIFEST_BYTES))) == "pack"


def test_a_manifest_one_byte_past_the_bound_is_not_read(tmp_path: Path) -> None:
    assert plugin_name(str(_plugin(tmp_path, limits.MAX_PLUGIN_MANIFEST_BYTES + 1))) is None


def test_the_search_stops_at_the_root(tmp_path: Path) -> None:
    """A manifest above the root (here, in the project folder) does not name the root's skills."""
    (tmp_path / ".codex-plugin").mkdir()
    (tmp_path / ".codex-plugin" / "plugin.json").write_text('{"name": "outside"}')
    skill = tmp_path / ".agents" / "skills" / "plain" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: plain\ndescription: d\n---\n")
    assert plugin_name(str(skill)) is None


def test_a_skill_file_directly_in_the_root_reads_nothing_above_it(tmp_path: Path) -> None:
    (tmp_path / ".agents" / ".codex-plugin").mkdir(parents=True)
    (tmp_path / ".agents" / ".codex-plugin" / "plugin.json").write_text('{"name": "above"}')
    skill = tmp_path / ".agents" / "skills" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: top\ndescription: d\n---\n")
    assert plugin_name(str(skill)) is None


def test_a_fifo_named_plugin_json_neither_blocks_nor_names(tmp_path: Path) -> None:
    import os

    skill = _plugin(tmp_path, 100)
    manifest = skill.parents[2] / ".codex-plugin" / "plugin.json"
    manifest.unlink()
    os.mkfifo(manifest)
    assert plugin_name(str(skill)) is None
