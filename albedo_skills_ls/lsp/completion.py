"""`textDocument/completion`: slash commands in chat buffers, fields and values in SKILL.md frontmatter.

One handler serves both and dispatches by document kind. `/` is the trigger character. Every result is a
list (empty when there is nothing to offer), never None.

Items carry a `filterText` only when it differs from the label (the template's `---`): Neovim 0.7's omnifunc
uses a `textEdit`'s start only for items without one, and otherwise inserts at the keyword start, so
accepting `/help` after a `/` would leave `//help`.
"""

from __future__ import annotations

from lsprotocol import types

from ..skills import authoring
from . import chat
from .documents import OpenDocument, isolated, markup, open_document
from .server import AlbedoLanguageServer

TRIGGER_CHARACTERS = ["/"]

_KINDS = {
    "field": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.Value,
    "template": types.CompletionItemKind.Snippet,
}


def snippet_support(ls: AlbedoLanguageServer) -> bool:
    text_document = ls.client_capabilities.text_document
    completion = text_document.completion if text_document else None
    item = completion.completion_item if completion else None
    return bool(item and item.snippet_support)


def skill_items(
    ls: AlbedoLanguageServer, document: OpenDocument, position: types.Position
) -> list[types.CompletionItem]:
    assert document.path is not None
    suggestions = authoring.complete_frontmatter(
        document.text,
        position.line,
        document.character(position, ls.encoding),
        authoring.folder_name_of(document.path),
    )
    snippets = snippet_support(ls)
    return [
        types.CompletionItem(
            label=suggestion.label,
            kind=_KINDS[suggestion.kind],
            detail=suggestion.detail or None,
            documentation=markup(ls, suggestion.documentation, "completion"),
            text_edit=types.TextEdit(
                range=document.to_lsp(suggestion.replace, ls.encoding),
                new_text=suggestion.snippet if snippets else suggestion.text,
            ),
            insert_text_format=types.InsertTextFormat.Snippet if snippets else types.InsertTextFormat.PlainText,
            filter_text="---" if suggestion.kind == "template" else None,
            sort_text=f"{index:04d}",
        )
        for index, suggestion in enumerate(suggestions)
    ]


def register(server: AlbedoLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS))
    @isolated
    def completion(ls: AlbedoLanguageServer, params: types.CompletionParams) -> list[types.CompletionItem]:
        document = open_document(ls, params.text_document.uri)
        if document is None:
            return []
        if document.kind == "skill" and document.path is not None:
            return skill_items(ls, document, params.position)
        if document.kind == "chat":
            return chat.completion_items(ls, document, params.position)
        return []
