"""`textDocument/documentLink` for a SKILL.md's relative references, and `textDocument/definition`.

Links: the references of `skills.references` that resolve to an existing file or folder inside the skill
folder. URLs are not links of ours (editors link them already) and are never fetched.
Definition: on a `/command` in a chat buffer, the skill's SKILL.md; on a reference in a SKILL.md, the file.
"""

from __future__ import annotations

from lsprotocol import types

from ..skills.catalog import references
from .documents import OpenDocument
from .request import Request
from .uris import path_to_uri


def _links(document: OpenDocument) -> list[references.Link]:
    assert document.path is not None
    return references.document_links(document.path, document.text)


def skill_links(request: Request, document: OpenDocument, params: types.DocumentLinkParams) -> list[types.DocumentLink]:
    return [
        types.DocumentLink(
            range=document.to_lsp(link.reference.range, request.encoding),
            target=path_to_uri(link.target),
            tooltip=f"Open {link.reference.target}" if request.client.link_tooltips else None,
        )
        for link in _links(document)
    ]


def reference_definition(
    request: Request, document: OpenDocument, params: types.DefinitionParams
) -> types.Location | None:
    """On a reference that resolves, the start of the file it names."""
    position = params.position
    character = document.character(position, request.encoding)
    for link in _links(document):
        where = link.reference.range
        if where.start.line == position.line and where.start.character <= character <= where.end.character:
            start = types.Position(line=0, character=0)
            return types.Location(uri=path_to_uri(link.target), range=types.Range(start=start, end=start))
    return None
