"""`textDocument/hover`: frontmatter keys of a SKILL.md, and `/commands` in chat buffers."""

from __future__ import annotations

from lsprotocol import types

from ..skills import authoring
from . import chat
from .documents import isolated, markup, open_document
from .server import AlbedoLanguageServer


def register(server: AlbedoLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @isolated
    def hover(ls: AlbedoLanguageServer, params: types.HoverParams) -> types.Hover | None:
        document = open_document(ls, params.text_document.uri)
        if document is None:
            return None
        if document.kind == "chat":
            return chat.hover(ls, document, params.position)
        if document.kind != "skill":
            return None
        found = authoring.hover_field(
            document.text, params.position.line, document.character(params.position, ls.encoding)
        )
        if found is None:
            return None
        markdown, where = found
        return types.Hover(
            contents=markup(ls, markdown, "hover"),
            range=document.to_lsp(where, ls.encoding),
        )
