"""The completion items a client without `itemDefaults` gets are filled slot by slot (lsp/chat.py), skipping
lsprotocol's validation: they must be exactly what the constructors build, every slot set, and serialise
the same. If lsprotocol adds a field to CompletionItem or TextEdit, these fail before any editor does."""

from __future__ import annotations

from lsprotocol import converters, types

from albedo_skills_ls.lsp.chat import _with_edit, fields_of

EDIT_RANGE = types.Range(start=types.Position(line=2, character=4), end=types.Position(line=2, character=7))


def built_item(**extra) -> types.CompletionItem:
    return types.CompletionItem(
        label="/demo",
        kind=types.CompletionItemKind.Function,
        detail="skill · workspace",
        documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value="Does the demo."),
        sort_text="0003",
        **extra,
    )


def test_a_slot_filled_copy_equals_the_constructed_item_and_serialises_the_same():
    copy = _with_edit(fields_of(built_item()), EDIT_RANGE, "/demo")
    expected = built_item(text_edit=types.TextEdit(range=EDIT_RANGE, new_text="/demo"))
    assert copy == expected  # attrs compares every field: an unset slot raises here
    converter = converters.get_converter()
    assert converter.unstructure(copy) == converter.unstructure(expected)
    assert converter.unstructure(copy)["textEdit"] == {
        "range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 7}},
        "newText": "/demo",
    }


def test_the_copy_leaves_the_cached_item_untouched():
    cached = built_item()
    _with_edit(fields_of(cached), EDIT_RANGE, "/demo")
    assert cached.text_edit is None and cached == built_item()
