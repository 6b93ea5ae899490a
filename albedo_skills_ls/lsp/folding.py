"""`textDocument/foldingRange` for a `SKILL.md`: the frontmatter and each body section
(`skills/authoring/folding.py`)."""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.folding import folding_ranges
from .documents import isolated, open_document
from .server import AlbedoLanguageServer

_KINDS = {"frontmatter": types.FoldingRangeKind.Region, "section": types.FoldingRangeKind.Region}


def enable(server: AlbedoLanguageServer) -> None:
    """Registered from `initialize` for clients that declare `textDocument.foldingRange`."""
    if not server.client.folding:
        return

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    @isolated
    def folding_range(ls: AlbedoLanguageServer, params: types.FoldingRangeParams) -> list[types.FoldingRange] | None:
        document = open_document(ls, params.text_document.uri)
        if document is None or document.kind != "skill" or not ls.settings.folding:
            return None
        return [
            types.FoldingRange(start_line=fold.start_line, end_line=fold.end_line, kind=_KINDS[fold.kind])
            for fold in folding_ranges(document.text)
        ]


def register(server: AlbedoLanguageServer) -> None:
    server.offered.append(enable)
