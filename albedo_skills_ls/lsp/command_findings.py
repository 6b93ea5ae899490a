"""`command-unknown` in the editor (skills/language/unknown_commands.py): the catalog's commands indexed once
per snapshot, an open buffer checked as typed, the workspace's skills, agent files and chat files as saved,
and the old names of the skills this server renamed (a `/old` left behind is then named for what it became).

Part of the server core, and plain Python: no pygls. An `AGENTS.md`, `CLAUDE.md` or `GEMINI.md` the editor
sends (the VS Code extension and the Neovim plugin do) is checked as typed, like a chat buffer; one it does
not send is read from the disk.
"""

from __future__ import annotations

from typing import Mapping

from ..skills.catalog.session import SkillsSession
from ..skills.core.model import Catalog, Diagnostic
from ..skills.language.unknown_commands import Commands, Unknown, check_catalog, check_text, commands_of


class CommandFindings:
    def __init__(self) -> None:
        self.renamed: dict[str, str] = {}  # old name -> new, each rename this server planned
        self._commands: tuple[Catalog | None, int, Commands | None] = (None, -1, None)
        self._on_disk: dict[str, tuple[Catalog, tuple[str, ...], Mapping[str, tuple[Diagnostic, ...]]]] = {}

    def clear(self) -> None:
        """The disk or the settings changed: the saved files are read again."""
        self._on_disk = {}

    def remember_rename(self, old: str, new: str) -> None:
        self.renamed[old] = new
        self._on_disk = {}

    def commands(self, catalog: Catalog) -> Commands:
        """The commands of a snapshot, indexed once while the snapshot and the renames stay the same."""
        last, renames, commands = self._commands
        if last is not catalog or renames != len(self.renamed) or commands is None:
            commands = commands_of(catalog, self.renamed)
            self._commands = (catalog, len(self.renamed), commands)
        return commands

    def in_buffer(self, catalog: Catalog, path: str, text: str, *, skill_file: bool) -> list[Unknown]:
        return check_text(self.commands(catalog), path, text, skip_frontmatter=skill_file)

    def on_disk(self, session: SkillsSession, chat_patterns: tuple[str, ...]) -> Mapping[str, tuple[Diagnostic, ...]]:
        """A workspace folder's saved files, once per snapshot (and chat patterns)."""
        catalog = session.snapshot
        key = session.workspace or ""
        cached = self._on_disk.get(key)
        if cached is not None and cached[0] is catalog and cached[1] == chat_patterns:
            return cached[2]
        found, _truncated = check_catalog(catalog, self.commands(catalog), chat_patterns)
        self._on_disk[key] = (catalog, chat_patterns, found)
        return found
