"""What one request sees: taken by the dispatcher when a request starts and handed to the feature's answer.

Part of the server core. An answer reads everything through its `Request`: the open documents as of the
request's start (`buffers`, each document read from pygls's store at most once), the settings and the
client's features then in force, the sessions (each holding its catalog, an immutable snapshot swapped whole
by a reload) and the findings. It never takes the server object and never asks pygls: what it may do beyond
answering is named here too (`show_message`, and `memory`, what the features keep between requests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from lsprotocol import types

from .buffers import Buffers
from .client import ClientFeatures
from .findings import Findings
from .settings import Settings
from .workspaces import Workspaces


@dataclass
class FeatureMemory:
    """What the editor features of one server keep from one request to the next."""

    # the folder moves this server's own rename edits asked for: the client then asks `willRenameFiles` about
    # them too, and the edit already holds their text edits (lsp/rename.py)
    folder_renames_sent: set[tuple[str, str]] = field(default_factory=set)
    # a chat buffer's command items, built once per catalog snapshot and client (lsp/chat.py)
    chat_commands: Any = None


@dataclass(frozen=True)
class Request:
    buffers: Buffers
    settings: Settings
    client: ClientFeatures
    workspaces: Workspaces
    findings: Findings
    memory: FeatureMemory
    show_message: Callable[[types.MessageType, str], None]

    @property
    def encoding(self) -> str:
        """The position encoding negotiated with the client (UTF-16 unless it offered another)."""
        return self.client.position_encoding
