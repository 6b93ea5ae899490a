"""`textDocument/completion`: slash commands in chat buffers, fields and values in SKILL.md frontmatter.

One handler serves both and dispatches by document kind. `/` is the trigger character. Every result is a
list or a `CompletionList` (an empty list when there is nothing to offer), never None.

Items carry a `filterText` only when it differs from the label (the template's `---`): Neovim 0.7's omnifunc
uses a `textEdit`'s start only for items without one, and otherwise inserts at the keyword start, so
accepting `/help` after a `/` would leave `//help`. Without one, Neovim 0.11 shows the items as sent, so the
server sends only those that fit what is typed (`documents.fits_typed`). Chat items say what they replace
through the list's `itemDefaults.editRange` when the client takes it, else each through its own textEdit
(`chat._replacing`; docs/server.md).
"""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.completion import complete_frontmatter
from ..skills.authoring.fields import folder_name_of
from . import chat
from ..skills.document.frontmatter import lines_of
from .dispatch import by_kind, isolated
from .documents import OpenDocument
from .markup import as_is, fits_typed, markup
from .server import AlbedoLanguageServer

TRIGGER_CHARACTERS = ["/"]

_TEMPLATE_FILTER = "---"  # what a user types to start a frontmatter; the template's label is a word
_KINDS = {
    "field": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.Value,
    "template": types.CompletionItemKind.Snippet,
}


def skill_items(
    ls: AlbedoLanguageServer, document: OpenDocument, position: types.Position
) -> list[types.CompletionItem]:
    assert document.path is not None
    suggestions = complete_frontmatter(
        document.text,
        position.line,
        document.character(position, ls.encoding),
        folder_name_of(document.path),
    )
    snippets = ls.client.snippets
    lines = lines_of(document.text)
    items = []
    for index, suggestion in enumerate(suggestions):
        where = suggestion.replace  # one line: the key or value typed so far
        line = lines[where.start.line] if where.start.line < len(lines) else ""
        typed = line[where.start.character : where.end.character]
        filter_text = _TEMPLATE_FILTER if suggestion.kind == "template" else None
        if not fits_typed(filter_text or suggestion.label, typed):
            continue
        items.append(
            types.CompletionItem(
                label=suggestion.label,
                kind=_KINDS[suggestion.kind],
                detail=suggestion.detail or None,
                documentation=markup(ls.client, suggestion.documentation, "completion"),
                text_edit=types.TextEdit(
                    range=document.to_lsp(where, ls.encoding),
                    new_text=suggestion.snippet if snippets else suggestion.text,
                ),
                insert_text_format=types.InsertTextFormat.Snippet if snippets else types.InsertTextFormat.PlainText,
                filter_text=filter_text,
                sort_text=f"{index:04d}",
                insert_text_mode=as_is(ls.client),
            )
        )
    return items


def register(server: AlbedoLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS))
    @isolated
    def completion(
        ls: AlbedoLanguageServer, params: types.CompletionParams
    ) -> types.CompletionList | list[types.CompletionItem]:
        return by_kind(
            ls,
            params.text_document.uri,
            [],
            skill=lambda document: skill_items(ls, document, params.position),
            chat=lambda document: chat.completion_items(ls, document, params.position),
        )
