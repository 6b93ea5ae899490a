"""`workspace/symbol`: every skill of every root, by a subsequence of its name or description
(`skills/language/workspace_symbols.py`); a copy hidden by another of the same name is marked deprecated and says
which one wins."""

from __future__ import annotations

from lsprotocol import types

from ..skills.language.workspace_symbols import find_symbols
from .convert import LineSource, to_lsp_range
from .request import Request
from .uris import path_to_uri


def workspace_symbol(request: Request, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
    found = []
    for symbol in find_symbols([session.snapshot for session in request.workspaces.sessions], params.query):
        opened = request.buffers.text(symbol.path)
        where = to_lsp_range(symbol.range, LineSource(symbol.path, opened[0] if opened else None), request.encoding)
        hidden = symbol.hidden_by is not None
        found.append(
            types.SymbolInformation(
                name=symbol.name,
                kind=types.SymbolKind.Module,
                location=types.Location(uri=path_to_uri(symbol.path), range=where),
                container_name=f"{symbol.scope} skill, hidden by {symbol.hidden_by}" if hidden else f"{symbol.scope} skill",
                tags=[types.SymbolTag.Deprecated] if hidden else None,
            )
        )
    return found
