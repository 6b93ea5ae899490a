"""Open documents as values, and what each one is.

Part of the server core (it imports no feature module). `OpenDocument` is one open buffer as a snapshot read it
(lsp/buffers.py); `kind_of` is the one place that decides whether a document is a `SKILL.md`, a chat buffer,
an agent's instruction file (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`: its `/commands` are checked as typed and
fixed by quick fix) or neither; the server core and every feature ask it.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import unquote

from lsprotocol import types

from ..skills.document.frontmatter import lines_of
from ..skills.document.skill_file import SKILL_FILE
from ..skills.language.mentions import AGENT_INSTRUCTION_FILES
from .convert import LineSource, from_client_character, to_lsp_range
from .settings import Settings
from .uris import uri_to_path

Kind = Literal["skill", "chat", "instructions"]


@dataclass(frozen=True)
class OpenDocument:
    uri: str
    path: str | None  # None for documents that are not files (`untitled:` chat buffers)
    text: str
    version: int | None
    language_id: str | None
    kind: Kind | None

    @property
    def source(self) -> LineSource:
        return LineSource(self.path or self.uri, self.text)

    def line(self, number: int) -> str:
        lines = lines_of(self.text)
        return lines[number].rstrip("\r\n") if 0 <= number < len(lines) else ""

    def character(self, position: types.Position, encoding: str) -> int:
        """The client's column as a code-point index into its line."""
        return from_client_character(self.line(position.line), position.character, encoding)

    def to_lsp(self, where: Any, encoding: str) -> types.Range:
        return to_lsp_range(where, self.source, encoding)


def base_name(uri: str) -> str:
    path = uri_to_path(uri)
    if path is not None:
        return os.path.basename(path)
    return unquote(uri).rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]


def is_skill_file(uri: str) -> bool:
    """A document named `SKILL.md`, open or not: its name alone decides."""
    return base_name(uri) == SKILL_FILE


def kind_of(uri: str, language_id: str | None, settings: Settings) -> Kind | None:
    """The one place a document is classified: `skill` for a document named SKILL.md (whatever the chat
    settings say), `chat` for one the chat settings select by language id or file name, `instructions` for an
    agent's instruction file by its name (`AGENTS.md`...; a chat pattern matching it wins), else None."""
    if is_skill_file(uri):
        return "skill"
    if language_id is not None and language_id in settings.chat_language_ids:
        return "chat"
    name = base_name(uri)
    if any(fnmatch.fnmatch(name, pattern) for pattern in settings.chat_file_patterns):
        return "chat"
    if name in AGENT_INSTRUCTION_FILES:
        return "instructions"
    return None
