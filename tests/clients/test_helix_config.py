"""The Helix configuration users copy (editors/helix/languages.toml). Helix itself is not run here (it is not
packaged for Debian 12): this checks the file parses as TOML and agrees with the server's defaults."""

from __future__ import annotations

import tomllib
from pathlib import Path

from albedo_skills_ls.lsp.settings import DEFAULT_CHAT_LANGUAGE_IDS
from albedo_skills_ls.skills.language.mentions import DEFAULT_CHAT_PATTERNS

CONFIG = Path(__file__).resolve().parents[2] / "editors" / "helix" / "languages.toml"
ROOT_MARKERS = [".agents", ".albedo", ".git"]  # as in the Neovim plugin and the Emacs package


def test_the_helix_snippet_agrees_with_the_server():
    config = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    server = config["language-server"]["albedo-skills"]
    assert server["command"] == "albedo-skills-ls"
    assert set(server["config"]) == {"albedoSkills"}
    languages = {language["name"]: language for language in config["language"]}
    assert "albedo-skills" in languages["markdown"]["language-servers"]
    chat = languages["albedo-chat"]
    assert chat["name"] in DEFAULT_CHAT_LANGUAGE_IDS  # Helix sends the language name as the language id
    assert [entry["glob"] for entry in chat["file-types"]] == list(DEFAULT_CHAT_PATTERNS)
    assert chat["language-servers"] == ["albedo-skills"]
    assert languages["markdown"]["roots"] == chat["roots"] == ROOT_MARKERS
