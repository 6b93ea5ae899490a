"""Helpers for the editor-feature tests: requests by position, UTF-16 arithmetic, applying edits, and
waiting for diagnostics by signal (a publish notification), never by clock."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Callable

from lsprotocol import types

from .harness import Session, capabilities, uri

PUBLISH = "textDocument/publishDiagnostics"
SIGNAL_TIMEOUT = 20  # a safety net for a broken server, not a wait: every wait ends on a notification


def utf16(text: str) -> int:
    """Length of `text` in UTF-16 code units (the LSP default)."""
    return len(text.encode("utf-16-le")) // 2


def position(text: str, line: int, column: int) -> types.Position:
    """The LSP position of code-point `column` on `line` of `text`."""
    return types.Position(line=line, character=utf16(text.split("\n")[line][:column]))


def end_of(text: str, needle: str, occurrence: int = 0) -> types.Position:
    """The LSP position just after the `occurrence`-th `needle` in `text`."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    before = text[: index + len(needle)]
    line = before.count("\n")
    return types.Position(line=line, character=utf16(before.rsplit("\n", 1)[-1]))


def start_of(text: str, needle: str, occurrence: int = 0) -> types.Position:
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    before = text[:index]
    return types.Position(line=before.count("\n"), character=utf16(before.rsplit("\n", 1)[-1]))


def span(text: str, needle: str, occurrence: int = 0) -> types.Range:
    return types.Range(start=start_of(text, needle, occurrence), end=end_of(text, needle, occurrence))


def _offset(text: str, where: types.Position) -> int:
    lines = text.split("\n")
    offset = sum(len(line) + 1 for line in lines[: where.line])
    line = lines[where.line] if where.line < len(lines) else ""
    units = 0
    for index, char in enumerate(line):
        if units >= where.character:
            return offset + index
        units += utf16(char)
    return offset + len(line)


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP text edits (UTF-16 positions) to `text`, last first so earlier offsets stay valid."""
    spans = sorted(
        ((_offset(text, edit.range.start), _offset(text, edit.range.end), edit.new_text) for edit in edits),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def edits_for(edit: types.WorkspaceEdit, target: str) -> list[types.TextEdit]:
    found: list[types.TextEdit] = []
    for key, edits in (edit.changes or {}).items():
        if key == target:
            found.extend(edits)
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == target:
            found.extend(e for e in change.edits if isinstance(e, types.TextEdit))
    return found


async def until(session: Session, condition: Callable[[], bool], first: asyncio.Future, method: str = PUBLISH) -> None:
    """Await `first` (a notification future created before the action), then further notifications of
    `method` until `condition()` holds (state is re-checked after each registration, so none is missed)."""
    await asyncio.wait_for(first, SIGNAL_TIMEOUT)
    while not condition():
        following = session.expect(method)
        if condition():
            return
        await asyncio.wait_for(following, SIGNAL_TIMEOUT)


def codes(session: Session, path: str | Path) -> list[str]:
    return sorted(str(d.code) for d in session.client.diagnostics.get(uri(path), []))


async def open_until(
    session: Session, path: str | Path, text: str, condition: Callable[[], bool] | None = None, language_id: str = "markdown"
) -> None:
    """Open a document and wait for its diagnostics (and, when given, until `condition()` holds)."""
    target = uri(path)
    session.client.diagnostics.pop(target, None)
    first = session.expect(PUBLISH)
    session.open(path, text, language_id=language_id)
    await until(session, lambda: target in session.client.diagnostics and (condition is None or condition()), first)


async def change_until(
    session: Session, path: str | Path, text: str, version: int, condition: Callable[[], bool]
) -> None:
    """Replace a buffer's text, then wait on publish notifications until `condition()` holds."""
    first = session.expect(PUBLISH)
    session.change(path, text, version)
    await until(session, condition, first)


def feature_caps(
    *, snippets: bool = True, markdown: bool = True, hierarchical: bool = True, default_range: bool = False, **kwargs
) -> types.ClientCapabilities:
    """The harness's capabilities plus what the editor features look at. `default_range`: the client takes
    `CompletionList.itemDefaults.editRange` (VS Code, Neovim 0.10+), else each item needs its textEdit."""
    caps = capabilities(**kwargs)
    text_document = caps.text_document
    assert text_document is not None
    formats = [types.MarkupKind.Markdown, types.MarkupKind.PlainText] if markdown else [types.MarkupKind.PlainText]
    text_document.completion = types.CompletionClientCapabilities(
        completion_item=types.ClientCompletionItemOptions(snippet_support=snippets, documentation_format=formats),
        completion_list=types.CompletionListCapabilities(item_defaults=["editRange"]) if default_range else None,
    )
    text_document.hover = types.HoverClientCapabilities(content_format=formats)
    text_document.document_symbol = types.DocumentSymbolClientCapabilities(
        hierarchical_document_symbol_support=hierarchical
    )
    text_document.document_link = types.DocumentLinkClientCapabilities(tooltip_support=True)
    return caps


async def completion(
    session: Session, path: str | Path, where: types.Position
) -> types.CompletionList | list[types.CompletionItem]:
    """The answer as sent: a bare list, or a `CompletionList` (with its `itemDefaults`)."""
    result = await session.client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri(path)), position=where)
    )
    assert result is not None, "completion answers a list, never null"
    return result


def items_of(result: types.CompletionList | list[types.CompletionItem]) -> list[types.CompletionItem]:
    return list(result.items if isinstance(result, types.CompletionList) else result)


async def complete(session: Session, path: str | Path, where: types.Position) -> list[types.CompletionItem]:
    return items_of(await completion(session, path, where))


def edit_of(result: types.CompletionList | list[types.CompletionItem], item: types.CompletionItem) -> types.TextEdit:
    """The edit a client applies when the user accepts `item` of `result`: the item's own textEdit, else (LSP
    3.17) the list's default edit range with the item's `textEditText`, else its `insertText`, else its label."""
    if item.text_edit is not None:
        assert isinstance(item.text_edit, types.TextEdit), item.text_edit
        return item.text_edit
    assert isinstance(result, types.CompletionList) and result.item_defaults is not None, "no edit for the item"
    default = result.item_defaults.edit_range
    assert isinstance(default, types.Range), default
    return types.TextEdit(range=default, new_text=item.text_edit_text or item.insert_text or item.label)


def accepted(text: str, result: types.CompletionList | list[types.CompletionItem], label: str) -> str:
    """`text` after the user accepts the item labelled `label`."""
    (item,) = [item for item in items_of(result) if item.label == label]
    return apply_edits(text, [edit_of(result, item)])


async def hover(session: Session, path: str | Path, where: types.Position) -> types.Hover | None:
    return await session.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri(path)), position=where)
    )
