"""The Neovim plugin's, the Emacs package's and the Helix configuration's part: what they must know before any
server runs, to choose the buffers a server gets (the file `SKILL.md`, the folders that mark a workspace, the
chat buffers by language id and file name, the agents' instruction files) and the defaults of the settings
they read themselves. None sends a default: the server's apply (docs/editors.md)."""

from __future__ import annotations

import json
import re
from typing import Any

from ..lsp.server import CATALOG_CHANGED
from ..lsp.settings import OWN_CHAT_LANGUAGE_ID, SETTINGS, default_of
from ..skills.catalog.candidates import USER_ROOTS, WORKSPACE_ROOTS
from ..skills.document.skill_file import SKILL_FILE
from ..skills.language.mentions import AGENT_INSTRUCTION_FILES
from .sections import DECLARATIONS, header, replace_section

# a repository's top folder is a workspace too, beside the first folder of each workspace root
REPOSITORY_MARKER = ".git"
ROOT_MARKERS = (*sorted({relative.split("/")[0] for relative, _scope in WORKSPACE_ROOTS}), REPOSITORY_MARKER)


def _lua(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        if not value.isascii():  # Lua 5.1 (Neovim 0.7) reads no \u escape
            raise ValueError(f"{value!r}: only ASCII names are written into Lua")
        return json.dumps(value)  # a Lua string literal too, for ASCII names and patterns
    if isinstance(value, (list, tuple)):
        return "{ " + ", ".join(_lua(item) for item in value) + " }"
    raise TypeError(f"no Lua literal for {value!r}")


def _lua_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z_]\w*", key) else f'["{key}"]'


def declared_lua(_current: str) -> str:
    read_here = [setting for setting in SETTINGS.values() if "neovim" in setting.clients]
    lines = [
        header("--", DECLARATIONS).rstrip("\n"),
        "return {",
        f"  SKILL_FILE = {_lua(SKILL_FILE)},",
        f"  CATALOG_CHANGED = {_lua(CATALOG_CHANGED)},",
        f"  ROOT_MARKERS = {_lua(ROOT_MARKERS)},",
        f"  USER_ROOTS = {_lua([relative for relative, _scope in USER_ROOTS])},",
        f"  AGENT_INSTRUCTION_FILES = {_lua(AGENT_INSTRUCTION_FILES)},",
        f"  DEFAULT_CHAT_LANGUAGE_IDS = {_lua(default_of(SETTINGS['chat.languageIds']))},",
        f"  DEFAULT_CHAT_FILE_PATTERNS = {_lua(default_of(SETTINGS['chat.filePatterns']))},",
        "  -- the settings the plugin reads itself, with their defaults (it never sends them)",
        "  SETTING_DEFAULTS = {",
        *[f"    {_lua_key(setting.key)} = {_lua(default_of(setting))}," for setting in read_here],
        "  },",
        "}",
        "",
    ]
    return "\n".join(lines)


def glob_to_emacs_regexp(pattern: str) -> str:
    """A chat file pattern as an Emacs regexp over a whole file path: a pattern without `/` matches the base
    name, as the server matches it (`fnmatch`: `*` any run of characters, `?` one, `[...]` a class)."""
    if "/" in pattern:
        raise ValueError(f"{pattern!r}: only base-name patterns are translated for Emacs")
    out = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and "]" in pattern[index + 2 :]:
            close = pattern.index("]", index + 2)
            inner = pattern[index + 1 : close]
            out.append("[^" + inner[1:] + "]" if inner.startswith("!") else "[" + inner + "]")
            index = close
        else:
            out.append("\\" + char if char in ".*+?[^$\\" else char)
        index += 1
    return "\\(?:\\`\\|/\\)" + "".join(out) + "\\'"


def _elisp(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "'(" + " ".join(_elisp(item) for item in value) + ")"
    raise TypeError(f"no Emacs Lisp literal for {value!r}")


def emacs_section(current: str) -> str:
    patterns = default_of(SETTINGS["chat.filePatterns"])
    chat_files = "\\|".join(glob_to_emacs_regexp(pattern) for pattern in patterns)
    skill_file = "/" + re.sub(r"([.*+?\[^$\\])", r"\\\1", SKILL_FILE) + "\\'"
    body = "\n".join([
        f"(defconst albedo-skills-default-root-markers {_elisp(ROOT_MARKERS)}",
        '  "What marks a workspace: the skill roots\' first folders, and .git.")',
        f"(defconst albedo-skills-default-chat-file-regexp {_elisp(chat_files)}",
        f'  "The files the server calls chats by default: {", ".join(patterns)}.")',
        f"(defconst albedo-skills-skill-file-regexp {_elisp(skill_file)})",
        f"(defconst albedo-skills-chat-language-id {_elisp(OWN_CHAT_LANGUAGE_ID)}",
        '  "The language id of chat buffers, a chat to the server by default.")',
        f"(defconst albedo-skills-catalog-changed {_elisp(CATALOG_CHANGED)})",
        "",
    ])
    return replace_section(current, "names", ";;", DECLARATIONS, body)


def _toml(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string too, for the names and globs declared
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    raise TypeError(f"no TOML literal for {value!r}")


def helix_config(_current: str) -> str:
    """editors/helix/languages.toml, the configuration Helix users merge into theirs."""
    roots = _toml(ROOT_MARKERS)
    globs = "[" + ", ".join(f"{{ glob = {_toml(pattern)} }}" for pattern in default_of(SETTINGS["chat.filePatterns"])) + "]"
    return "\n".join([
        "# albedo-skills-ls for Helix: merge into ~/.config/helix/languages.toml (or a project's .helix/languages.toml).",
        "# Helix sends `config` as the initializationOptions and answers workspace/configuration with it.",
        "# The server must be on PATH (`pipx install .` in a clone of albedo-skills-ls), or give its full path.",
        header("#", DECLARATIONS).rstrip("\n"),
        "",
        "[language-server.albedo-skills]",
        'command = "albedo-skills-ls"',
        "",
        "[language-server.albedo-skills.config.albedoSkills]",
        "userRoots = true",
        "",
        "# Helix attaches servers by language, not by file name: the server runs for every Markdown file. That does",
        "# no harm: it reports only on SKILL.md files and completes only in chat buffers. Keep your other Markdown",
        "# servers in the list (marksman is Helix's default).",
        "[[language]]",
        'name = "markdown"',
        'language-servers = ["marksman", "albedo-skills"]',
        f"roots = {roots}",
        "",
        "# Chat files: `/` at a message start completes the skills' commands.",
        "[[language]]",
        f"name = {_toml(OWN_CHAT_LANGUAGE_ID)}            # also the language id sent to the server (one of its default chat ids)",
        f"scope = {_toml('text.' + OWN_CHAT_LANGUAGE_ID)}",
        f"file-types = {globs}",
        'grammar = "markdown"',
        'language-servers = ["albedo-skills"]',
        f"roots = {roots}",
        "",
    ])


OUTPUTS = (
    ("lua/albedo_skills/declared.lua", declared_lua),
    ("albedo-skills.el", emacs_section),
    ("editors/helix/languages.toml", helix_config),
)
