"""Chat buffers: slash-command completion, hover and go to definition (their `unknown-command` diagnostics
are the server core's, like every document's).

A chat buffer is an open document whose language id is in `albedoSkills.chat.languageIds` or whose file
name matches one of `albedoSkills.chat.filePatterns` (fnmatch on the base name); a `SKILL.md` never is
(`documents.kind_of` decides).
It uses the session of the workspace folder that contains it, else the first one (docs/design.md#6-the-editor-faces).
What a `/command` is, and what it names, is decided by the engine (`skills/language/slash.py`); this module translates.
"""

from __future__ import annotations

from dataclasses import dataclass

import attrs
from lsprotocol import types

from ..skills.language import slash
from ..skills.activation.commands import command_entries
from ..skills.authoring.fields import name_range
from ..skills.core.model import FILE_START, Catalog
from ..skills.document.skill_file import read_skill_text
from .client import ClientFeatures
from .convert import LineSource, to_lsp_range
from .documents import OpenDocument
from .markup import as_is, fits_typed, markup
from .request import Request
from .uris import path_to_uri


def catalog_for(request: Request, document: OpenDocument) -> Catalog:
    return request.workspaces.session_for(document.path).snapshot


def completion_items(
    request: Request, document: OpenDocument, params: types.CompletionParams
) -> types.CompletionList | list[types.CompletionItem]:
    """The commands (or a command's argument values) that fit what is typed, each replacing it."""
    position = params.position
    character = document.character(position, request.encoding)
    typing = slash.typing_at(document.text, position.line, character)
    if typing is None:
        return []
    catalog = catalog_for(request, document)
    edit_range = document.to_lsp(typing.replace, request.encoding)
    if typing.kind == "argument":
        entry = slash.entry_for(catalog, typing.command)
        if entry is None:
            return []
        items = [
            types.CompletionItem(
                label=value,
                kind=types.CompletionItemKind.EnumMember,
                detail=f"argument of {entry.command}",
                sort_text=f"{index:04d}",
                insert_text_mode=as_is(request.client),
            )
            for index, value in enumerate(slash.argument_values(entry))
            if fits_typed(value, typing.prefix)
        ]
        return _replacing(request, items, edit_range)
    typed = "/" + typing.prefix
    commands = _commands(request, catalog)
    if commands.last is not None and commands.last[:2] == (typed, edit_range):  # a re-trigger at the same place
        return commands.last[2]
    if typing.prefix:
        fitting = [item for item in commands.items if fits_typed(item.label, typed)]
    else:  # every command starts with `/`: after a bare `/`, all of them fit
        fitting = list(commands.items)
    answer = _replacing(request, fitting, edit_range, commands.fields)
    commands.last = (typed, edit_range, answer)
    return answer


_ITEM_FIELDS = tuple(attribute.name for attribute in attrs.fields(types.CompletionItem))
ItemFields = tuple[tuple[str, object], ...]  # every field of a CompletionItem, as (name, value)


def fields_of(item: types.CompletionItem) -> ItemFields:
    return tuple((name, getattr(item, name)) for name in _ITEM_FIELDS)


def _replacing(
    request: Request,
    items: list[types.CompletionItem],
    edit_range: types.Range,
    fields: dict[str, ItemFields] | None = None,
) -> types.CompletionList | list[types.CompletionItem]:
    """`items` (whose label is the text to insert) as an answer where each replaces `edit_range`.

    A client that takes `itemDefaults.editRange` gets the items as they are, under that one range: nothing is
    built per request. Any other gets a copy of each item with its own textEdit (Neovim 0.7's omnifunc needs
    it, else accepting `/help` after a `/` leaves `//help`: see completion.py). Either way the list is
    complete (`isIncomplete` false, as a bare list means): the client filters further typing itself.
    `fields` holds the items' fields by label when they were read ahead (`_Commands.fields`).
    """
    if not items:
        return []
    if request.client.completion_default_range:
        return types.CompletionList(
            is_incomplete=False, items=items, item_defaults=types.CompletionItemDefaults(edit_range=edit_range)
        )
    return [
        _with_edit(fields[item.label] if fields is not None else fields_of(item), edit_range, item.label)
        for item in items
    ]


def _with_edit(fields: ItemFields, edit_range: types.Range, new_text: str) -> types.CompletionItem:
    """A copy of an item (given by its `fields`) whose textEdit puts `new_text` over `edit_range`, item and
    edit filled slot by slot: every value was validated when the item or the range was built, so the
    constructors' validation is not run again. With the fields read once per snapshot
    (`_Commands.fields`) this is about half the cost of the two constructors."""
    set_slot = object.__setattr__
    edit = object.__new__(types.TextEdit)
    set_slot(edit, "range", edit_range)
    set_slot(edit, "new_text", new_text)
    copy = object.__new__(types.CompletionItem)
    for name, value in fields:
        set_slot(copy, name, value)
    set_slot(copy, "text_edit", edit)
    return copy


@dataclass
class _Commands:
    """A server's command items for one snapshot, and its last answer with what it answered."""

    catalog: Catalog
    client: ClientFeatures  # the items' documentation is Markdown or plain text, as the client renders
    items: tuple[types.CompletionItem, ...]  # every command, without a range
    last: tuple[str, types.Range, types.CompletionList | list[types.CompletionItem]] | None = None
    # the items' fields by label, read with them for a client without itemDefaults (None for the others,
    # which never copy an item)
    fields: dict[str, ItemFields] | None = None


def _commands(request: Request, catalog: Catalog) -> _Commands:
    """Every command of `catalog` as an item without a range, built once per snapshot and client.

    A client asks at every `/`, each time at another place, and building ~130 lsprotocol items (each field
    validated) takes 0.5-1 ms at 128 skills (benchmarks/). The cached items carry no range, so the place does
    not matter; another snapshot rebuilds them. One entry per server (its `FeatureMemory`), so it never grows.
    Nothing mutates the items once built (`_with_edit` copies them)."""
    cached = request.memory.chat_commands
    if cached is not None and cached.catalog is catalog and cached.client is request.client:
        return cached
    items = tuple(
        types.CompletionItem(
            label=entry.command,
            kind=types.CompletionItemKind.Keyword if entry.kind == "builtin" else types.CompletionItemKind.Function,
            detail=slash.detail_of(entry),
            documentation=markup(request.client, entry.description, "completion"),
            sort_text=f"{index:04d}",
            insert_text_mode=as_is(request.client),
        )
        for index, entry in enumerate(command_entries(catalog))  # built-ins first, then catalog order
    )
    fields = None if request.client.completion_default_range else {item.label: fields_of(item) for item in items}
    cached = request.memory.chat_commands = _Commands(catalog, request.client, items, fields=fields)
    return cached


def hover(request: Request, document: OpenDocument, params: types.HoverParams) -> types.Hover | None:
    position = params.position
    use = slash.use_at(document.text, position.line, document.character(position, request.encoding))
    if use is None:
        return None
    entry = slash.entry_for(catalog_for(request, document), use.command)
    if entry is None:
        return None
    return types.Hover(
        contents=markup(request.client, slash.describe(entry), "hover"),
        range=document.to_lsp(use.range, request.encoding),
    )


def definition(
    request: Request, document: OpenDocument, params: types.DefinitionParams
) -> types.Location | None:
    """A skill's `/command` opens its `SKILL.md` at the `name` value (built-ins have no source)."""
    position = params.position
    use = slash.use_at(document.text, position.line, document.character(position, request.encoding))
    if use is None:
        return None
    entry = slash.entry_for(catalog_for(request, document), use.command)
    if entry is None or entry.path is None:  # built-ins have no source
        return None
    path = entry.path
    opened = request.buffers.text(path)
    text = opened[0] if opened else read_skill_text(path)
    where = name_range(text, path) if text is not None else FILE_START
    return types.Location(uri=path_to_uri(path), range=to_lsp_range(where, LineSource(path, text), request.encoding))
