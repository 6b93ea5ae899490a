"""Chat buffers: slash-command completion, hover and go to definition (their `unknown-command` diagnostics
are the server core's, like every document's).

A chat buffer is an open document whose language id is in `albedoSkills.chat.languageIds` or whose file
name matches one of `albedoSkills.chat.filePatterns` (fnmatch on the base name); a `SKILL.md` never is
(`documents.kind_of` decides).
It uses the session of the workspace folder that contains it, else the first one (decisions.md section 6).
What a `/command` is, and what it names, is decided by the engine (`skills.slash`); this module translates.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from lsprotocol import types

from ..skills import authoring, slash
from ..skills.activation import command_entries
from ..skills.discovery import read_skill_text
from ..skills.model import FILE_START, Catalog
from .convert import LineSource, path_to_uri, to_lsp_range
from .documents import OpenDocument, fits_typed, markup
from .server import AlbedoLanguageServer


def catalog_for(ls: AlbedoLanguageServer, document: OpenDocument) -> Catalog:
    return ls.session_for(document.path).snapshot


def completion_items(
    ls: AlbedoLanguageServer, document: OpenDocument, position: types.Position
) -> list[types.CompletionItem]:
    character = document.character(position, ls.encoding)
    typing = slash.typing_at(document.text, position.line, character)
    if typing is None:
        return []
    catalog = catalog_for(ls, document)
    edit_range = document.to_lsp(typing.replace, ls.encoding)
    if typing.kind == "argument":
        entry = slash.entry_for(catalog, typing.command)
        if entry is None:
            return []
        return [
            types.CompletionItem(
                label=value,
                kind=types.CompletionItemKind.EnumMember,
                detail=f"argument of {entry.command}",
                text_edit=types.TextEdit(range=edit_range, new_text=value),
                sort_text=f"{index:04d}",
            )
            for index, value in enumerate(slash.argument_values(entry))
            if fits_typed(value, typing.prefix)
        ]
    typed = "/" + typing.prefix
    cached = _command_items.get(ls)
    if cached is not None and cached[0] is catalog and cached[1] == typed and cached[2] == edit_range:
        return cached[3]
    items = []
    for index, entry in enumerate(command_entries(catalog)):  # built-ins first, then catalog order
        if not fits_typed(entry.command, typed):
            continue
        builtin = entry.kind == "builtin"
        items.append(
            types.CompletionItem(
                label=entry.command,
                kind=types.CompletionItemKind.Keyword if builtin else types.CompletionItemKind.Function,
                detail=slash.detail_of(entry),
                documentation=markup(ls, entry.description, "completion"),
                text_edit=types.TextEdit(range=edit_range, new_text=entry.command),
                sort_text=f"{index:04d}",
            )
        )
    _command_items[ls] = (catalog, typed, edit_range, items)
    return items


# The last command list each server built, with the snapshot, the typed text and the range it was built
# for: a client asks again at every `/` and on re-triggers at the same place, and building ~130 lsprotocol
# items (each field validated) took about 1 ms at 128 skills (benchmarks/). Another snapshot, text or range
# rebuilds it; one entry per server, so it never grows. Nothing mutates the items once built.
_command_items: WeakKeyDictionary[
    AlbedoLanguageServer, tuple[Catalog, str, types.Range, list[types.CompletionItem]]
] = WeakKeyDictionary()


def hover(ls: AlbedoLanguageServer, document: OpenDocument, position: types.Position) -> types.Hover | None:
    use = slash.use_at(document.text, position.line, document.character(position, ls.encoding))
    if use is None:
        return None
    entry = slash.entry_for(catalog_for(ls, document), use.command)
    if entry is None:
        return None
    return types.Hover(
        contents=markup(ls, slash.describe(entry), "hover"),
        range=document.to_lsp(use.range, ls.encoding),
    )


def definition(
    ls: AlbedoLanguageServer, document: OpenDocument, position: types.Position
) -> types.Location | None:
    """A skill's `/command` opens its `SKILL.md` at the `name` value (built-ins have no source)."""
    use = slash.use_at(document.text, position.line, document.character(position, ls.encoding))
    if use is None:
        return None
    entry = slash.entry_for(catalog_for(ls, document), use.command)
    if entry is None or entry.path is None:  # built-ins have no source
        return None
    path = entry.path
    opened = ls.open_text(path)
    text = opened[0] if opened else read_skill_text(path)
    where = authoring.name_range(text, path) if text is not None else FILE_START
    return types.Location(uri=path_to_uri(path), range=to_lsp_range(where, LineSource(path, text), ls.encoding))
