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
from ..skills.document.frontmatter import lines_of
from .documents import OpenDocument
from .markup import as_is, fits_typed, markup
from .request import Request

TRIGGER_CHARACTERS = ["/"]

_TEMPLATE_FILTER = "---"  # what a user types to start a frontmatter; the template's label is a word
_KINDS = {
    "field": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.Value,
    "template": types.CompletionItemKind.Snippet,
}


def skill_items(
    request: Request, document: OpenDocument, params: types.CompletionParams
) -> list[types.CompletionItem]:
    position = params.position
    assert document.path is not None
    suggestions = complete_frontmatter(
        document.text,
        position.line,
        document.character(position, request.encoding),
        folder_name_of(document.path),
    )
    snippets = request.client.snippets
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
                documentation=markup(request.client, suggestion.documentation, "completion"),
                text_edit=types.TextEdit(
                    range=document.to_lsp(where, request.encoding),
                    new_text=suggestion.snippet if snippets else suggestion.text,
                ),
                insert_text_format=types.InsertTextFormat.Snippet if snippets else types.InsertTextFormat.PlainText,
                filter_text=filter_text,
                sort_text=f"{index:04d}",
                insert_text_mode=as_is(request.client),
            )
        )
    return items
