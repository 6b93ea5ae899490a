"""`textDocument/documentLink` for a SKILL.md's relative references, and `textDocument/definition`.

Links: the references of `skills.references` that resolve to an existing file or folder inside the skill
folder. URLs are not links of ours (editors link them already) and are never fetched.
Definition: on a `/command` in a chat buffer, the skill's SKILL.md; on a reference in a SKILL.md, the file.
"""

from __future__ import annotations

from lsprotocol import types

from ..skills.catalog import references
from . import chat
from .dispatch import by_kind, isolated
from .documents import OpenDocument
from .server import AlbedoLanguageServer
from .uris import path_to_uri


def _links(document: OpenDocument) -> list[references.Link]:
    assert document.path is not None
    return references.document_links(document.path, document.text)


def skill_links(ls: AlbedoLanguageServer, document: OpenDocument) -> list[types.DocumentLink]:
    return [
        types.DocumentLink(
            range=document.to_lsp(link.reference.range, ls.encoding),
            target=path_to_uri(link.target),
            tooltip=f"Open {link.reference.target}" if ls.client.link_tooltips else None,
        )
        for link in _links(document)
    ]


def reference_definition(
    ls: AlbedoLanguageServer, document: OpenDocument, position: types.Position
) -> types.Location | None:
    """On a reference that resolves, the start of the file it names."""
    character = document.character(position, ls.encoding)
    for link in _links(document):
        where = link.reference.range
        if where.start.line == position.line and where.start.character <= character <= where.end.character:
            start = types.Position(line=0, character=0)
            return types.Location(uri=path_to_uri(link.target), range=types.Range(start=start, end=start))
    return None


def register(server: AlbedoLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkOptions(resolve_provider=False))
    @isolated
    def document_link(ls: AlbedoLanguageServer, params: types.DocumentLinkParams) -> list[types.DocumentLink]:
        return by_kind(ls, params.text_document.uri, [], skill=lambda document: skill_links(ls, document))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @isolated
    def definition(ls: AlbedoLanguageServer, params: types.DefinitionParams) -> types.Location | None:
        return by_kind(
            ls,
            params.text_document.uri,
            None,
            skill=lambda document: reference_definition(ls, document, params.position),
            chat=lambda document: chat.definition(ls, document, params.position),
        )
