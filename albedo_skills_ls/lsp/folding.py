"""`textDocument/foldingRange` for a `SKILL.md`: the frontmatter and each body section
(`skills/authoring/folding.py`).

Every fold is whole lines (no characters are sent), so a client that folds only whole lines
(`lineFoldingOnly`) and one that folds anywhere get the same answer."""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.folding import folding_ranges
from .documents import OpenDocument
from .request import Request

_KINDS = {"frontmatter": types.FoldingRangeKind.Region, "section": types.FoldingRangeKind.Region}


def folding_range(
    request: Request, document: OpenDocument, params: types.FoldingRangeParams
) -> list[types.FoldingRange]:
    return [
        types.FoldingRange(start_line=fold.start_line, end_line=fold.end_line, kind=_KINDS[fold.kind])
        for fold in folding_ranges(document.text)
    ]
