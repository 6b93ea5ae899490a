"""`textDocument/references` on a skill's `name:` or a `/name` (in a chat buffer or a `SKILL.md`): every
mention the engine finds (`skills/language/mentions.py`), read from open buffers where they are open.

Also the shared first step of rename and the code lens: which skill is under the cursor (`target_under`)
and its mentions as the editor's buffers have them (`mentions_of`).
"""

from __future__ import annotations

import os
from typing import Any

from lsprotocol import types

from ..skills.language import mention_scan
from ..skills.language.mentions import Mention, Mentions, MentionedSkill, find_mentions, target_at, target_of
from ..skills.core.model import Range
from ..skills.document.skill_file import SKILL_FILE
from .buffers import Buffers
from .convert import LineSource, to_lsp_range
from .documents import OpenDocument
from .request import Request
from .uris import path_to_uri


def target_under(
    request: Request, document: OpenDocument, position: types.Position
) -> tuple[MentionedSkill, Range] | None:
    """The skill named under the cursor (its `name:`, or a `/name` the catalog runs) and the name's range."""
    if document.kind is None or document.path is None:
        return None
    character = document.character(position, request.encoding)
    under = mention_scan.name_under(document.text, position.line, character, skill_file=document.kind == "skill")
    if under is None:
        return None
    if under.kind == "name":
        catalog = request.workspaces.session_placing(document.path).snapshot
        return target_at(catalog, document.path, under.name), under.range
    target = target_of(request.workspaces.session_for(document.path).snapshot, under.name)
    return (target, under.range) if target is not None else None


def catalog_of(request: Request, target: MentionedSkill):  # type: ignore[no-untyped-def]
    return request.workspaces.session_placing(target.path).snapshot


def search_options(request: Request) -> dict[str, Any]:
    """What a search of mentions takes from the editor: the workspace folders, every open file buffer's text
    (read instead of the disk), the open chat buffers (searched besides the files found) and the chat file
    patterns."""
    texts: dict[str, str] = {}
    chats: list[str] = []
    for path in request.buffers.paths() if request.settings.enable else ():
        document = request.buffers.at(path)
        if document is not None and document.path is not None:
            texts[document.path] = document.text
            if document.kind == "chat":
                chats.append(document.path)
    return {
        "folders": workspace_folders(request),
        "texts": texts,
        "extra_files": chats,
        "chat_patterns": request.settings.chat_file_patterns,
    }


def mentions_of(request: Request, target: MentionedSkill) -> Mentions:
    """The target's mentions, open buffers read as they are, open chat buffers searched too."""
    return find_mentions(catalog_of(request, target), target, request.settings.home_folder(), **search_options(request))


def workspace_folders(request: Request) -> list[str]:
    return [session.workspace for session in request.workspaces.sessions if session.workspace]


def source(buffers: Buffers, path: str) -> LineSource:
    """A file's lines as the editor has them: its open buffer's text, else the disk's."""
    opened = buffers.text(path)
    return LineSource(path, opened[0] if opened else None)


def location(request: Request, mention: Mention) -> types.Location:
    """Where a mention is; a mirror link is shown as the `SKILL.md` reached through it."""
    if mention.kind == "mirror":
        start = types.Position(line=0, character=0)
        return types.Location(uri=path_to_uri(os.path.join(mention.path, SKILL_FILE)), range=types.Range(start=start, end=start))
    where = to_lsp_range(mention.range, source(request.buffers, mention.path), request.encoding)
    return types.Location(uri=path_to_uri(mention.path), range=where)


def uses(found: Mentions) -> list[Mention]:
    """The mentions that use the skill (its own `name:` declares it)."""
    return [mention for mention in found.mentions if mention.kind != "name"]


def references(request: Request, document: OpenDocument, params: types.ReferenceParams) -> list[types.Location] | None:
    found = target_under(request, document, params.position)
    if found is None:
        return None
    mentions = mentions_of(request, found[0])  # the request's one snapshot: the search and the ranges
    chosen = mentions.mentions if params.context.include_declaration else uses(mentions)
    return [location(request, mention) for mention in chosen]
