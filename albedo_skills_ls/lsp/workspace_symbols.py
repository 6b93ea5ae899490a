"""`workspace/symbol`: every skill of every root, by a subsequence of its name or description
(`skills/language/workspace_symbols.py`); a copy hidden by another of the same name is marked deprecated and says
which one wins."""

from __future__ import annotations

from lsprotocol import types

from ..skills.language.workspace_symbols import find_symbols
from .convert import LineSource, to_lsp_range
from .uris import path_to_uri
from .dispatch import offer
from .server import AlbedoLanguageServer


def register(server: AlbedoLanguageServer) -> None:
    # VS Code asks as soon as Go to Symbol in Workspace opens, often while the first discovery still runs; an
    # empty answer then reads "No matching workspace symbols" and is not asked again until the query changes.
    # So the answer waits for the catalog, as the commands do.
    @offer(server, types.WORKSPACE_SYMBOL, "workspace_symbols", kinds=None, after_discovery=True)
    def workspace_symbol(ls: AlbedoLanguageServer, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
        return symbols_of(ls, params.query)


def symbols_of(ls: AlbedoLanguageServer, query: str) -> list[types.SymbolInformation]:
    found = []
    buffers = ls.buffers()
    for symbol in find_symbols([session.snapshot for session in ls.workspaces.sessions], query):
        opened = buffers.text(symbol.path)
        where = to_lsp_range(symbol.range, LineSource(symbol.path, opened[0] if opened else None), ls.encoding)
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
