"""`textDocument/documentSymbol` for a SKILL.md: frontmatter fields (metadata entries nested) and headings.

Hierarchical `DocumentSymbol`s for clients that support them, a flat `SymbolInformation` list otherwise.
"""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.outline import OutlineItem, outline
from .documents import OpenDocument
from .request import Request

_KINDS = {"field": types.SymbolKind.Property, "heading": types.SymbolKind.String}


def _symbol(request: Request, document: OpenDocument, item: OutlineItem) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=item.name,
        detail=item.detail or None,
        kind=_KINDS[item.kind],
        range=document.to_lsp(item.range, request.encoding),
        selection_range=document.to_lsp(item.selection, request.encoding),
        children=[_symbol(request, document, child) for child in item.children] or None,
    )


def _flat(
    request: Request, document: OpenDocument, items: tuple | list, container: str | None = None
) -> list[types.SymbolInformation]:
    found = []
    for item in items:
        found.append(
            types.SymbolInformation(
                name=item.name,
                kind=_KINDS[item.kind],
                location=types.Location(uri=document.uri, range=document.to_lsp(item.range, request.encoding)),
                container_name=container,
            )
        )
        found.extend(_flat(request, document, item.children, item.name))
    return found


def skill_symbols(
    request: Request, document: OpenDocument, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
    items = outline(document.text, document.path or document.uri)
    if request.client.hierarchical_symbols:
        return [_symbol(request, document, item) for item in items]
    return _flat(request, document, items)
