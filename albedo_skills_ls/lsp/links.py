"""`textDocument/documentLink` for a SKILL.md's relative references, and `textDocument/definition`.

Links: the references of `skills.references` that resolve to an existing file or folder inside the skill
folder. URLs are not links of ours (editors link them already) and are never fetched.
Definition: on a `/command` in a chat buffer, the skill's SKILL.md; on a reference in a SKILL.md, the file.
"""

from __future__ import annotations

from lsprotocol import types

from ..skills import references
from . import chat
from .convert import path_to_uri
from .documents import OpenDocument, isolated, open_document
from .server import AlbedoLanguageServer


def _links(document: OpenDocument) -> list[references.Link]:
    assert document.path is not None
    return references.document_links(document.path, document.text)


def register(server: AlbedoLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkOptions(resolve_provider=False))
    @isolated
    def document_link(ls: AlbedoLanguageServer, params: types.DocumentLinkParams) -> list[types.DocumentLink]:
        document = open_document(ls, params.text_document.uri)
        if document is None or document.kind != "skill" or document.path is None:
            return []
        return [
            types.DocumentLink(
                range=document.to_lsp(link.reference.range, ls.encoding),
                target=path_to_uri(link.target),
                tooltip=f"Open {link.reference.target}" if ls.client.link_tooltips else None,
            )
            for link in _links(document)
        ]

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @isolated
    def definition(ls: AlbedoLanguageServer, params: types.DefinitionParams) -> types.Location | None:
        document = open_document(ls, params.text_document.uri)
        if document is None:
            return None
        if document.kind == "chat":
            return chat.definition(ls, document, params.position)
        if document.kind != "skill" or document.path is None:
            return None
        character = document.character(params.position, ls.encoding)
        for link in _links(document):
            where = link.reference.range
            if where.start.line == params.position.line and where.start.character <= character <= where.end.character:
                start = types.Position(line=0, character=0)
                return types.Location(uri=path_to_uri(link.target), range=types.Range(start=start, end=start))
        return None
