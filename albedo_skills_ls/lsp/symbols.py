"""`textDocument/documentSymbol` for a SKILL.md: frontmatter fields (metadata entries nested) and headings.

Hierarchical `DocumentSymbol`s for clients that support them, a flat `SymbolInformation` list otherwise.
"""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.outline import OutlineItem, outline
from .dispatch import by_kind, isolated
from .documents import OpenDocument
from .server import AlbedoLanguageServer

_KINDS = {"field": types.SymbolKind.Property, "heading": types.SymbolKind.String}


def _symbol(ls: AlbedoLanguageServer, document: OpenDocument, item: OutlineItem) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=item.name,
        detail=item.detail or None,
        kind=_KINDS[item.kind],
        range=document.to_lsp(item.range, ls.encoding),
        selection_range=document.to_lsp(item.selection, ls.encoding),
        children=[_symbol(ls, document, child) for child in item.children] or None,
    )


def _flat(
    ls: AlbedoLanguageServer, document: OpenDocument, items: tuple | list, container: str | None = None
) -> list[types.SymbolInformation]:
    found = []
    for item in items:
        found.append(
            types.SymbolInformation(
                name=item.name,
                kind=_KINDS[item.kind],
                location=types.Location(uri=document.uri, range=document.to_lsp(item.range, ls.encoding)),
                container_name=container,
            )
        )
        found.extend(_flat(ls, document, item.children, item.name))
    return found


def skill_symbols(
    ls: AlbedoLanguageServer, document: OpenDocument
) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
    items = outline(document.text, document.path or document.uri)
    if ls.client.hierarchical_symbols:
        return [_symbol(ls, document, item) for item in items]
    return _flat(ls, document, items)


def register(server: AlbedoLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @isolated
    def document_symbol(
        ls: AlbedoLanguageServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
        return by_kind(
            ls, params.text_document.uri, [], skill=lambda document: skill_symbols(ls, document), skill_needs_file=False
        )
