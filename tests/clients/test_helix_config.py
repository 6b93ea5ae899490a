"""The Helix configuration users copy (editors/helix/languages.toml, written by `python -m
albedo_skills_ls.generate` from the server's declarations; tests/unit/test_generated.py holds it to them).
Helix itself is not run here (it is not packaged for Debian 12): this checks that the file parses as TOML
and wires the server to Markdown and to the chat language."""

from __future__ import annotations

import tomllib
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[2] / "editors" / "helix" / "languages.toml"


def test_the_helix_snippet_parses_and_wires_the_server():
    config = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    server = config["language-server"]["albedo-skills"]
    assert server["command"] == "albedo-skills-ls"
    assert set(server["config"]) == {"albedoSkills"}
    languages = {language["name"]: language for language in config["language"]}
    assert "albedo-skills" in languages["markdown"]["language-servers"]
    chat = languages["albedo-chat"]
    assert chat["language-servers"] == ["albedo-skills"] and chat["file-types"]
    assert languages["markdown"]["roots"] == chat["roots"]
