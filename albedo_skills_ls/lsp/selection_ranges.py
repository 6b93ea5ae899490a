"""`textDocument/selectionRange` (the editor's Expand Selection) in a `SKILL.md` or a chat buffer: for each
cursor, the ranges around it from the word to the whole document (`skills/authoring/selection.py`), in the
client's position encoding."""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.selection import selection_ranges
from ..skills.core.model import Position
from .convert import from_client_character, to_lsp_range
from .documents import OpenDocument
from .request import Request


def selection_range(
    request: Request, document: OpenDocument, params: types.SelectionRangeParams
) -> list[types.SelectionRange]:
    lines = document.source  # split once: every cursor and range is converted through it
    cursors = [
        Position(where.line, from_client_character(lines.line(where.line), where.character, request.encoding))
        for where in params.positions
    ]
    answers = []
    for chain in selection_ranges(document.text, cursors, frontmatter=document.kind == "skill"):
        parent = None
        for where in reversed(chain):  # the protocol nests them: the smallest holds its parent
            parent = types.SelectionRange(range=to_lsp_range(where, lines, request.encoding), parent=parent)
        assert parent is not None  # the engine's chain always ends with the whole document
        answers.append(parent)
    return answers
