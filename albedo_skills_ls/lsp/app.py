"""The assembly: the server core with every feature registered on it.

The one module that imports both layers. The core (`server`, `documents`, `client`, `convert`, `settings`)
imports no feature; each feature module imports the core and exposes `register(server)`. A new feature
module is added to `FEATURES` here, and nowhere else.
"""

from __future__ import annotations

from . import (
    actions,
    commands,
    completion,
    diagnostics,
    find_references,
    folding,
    hover,
    inlay_hints,
    lens,
    lifecycle,
    links,
    pygls_internals,
    rename,
    selection_ranges,
    symbols,
    workspace_symbols,
)
from .server import AlbedoLanguageServer

# `lifecycle` first: it answers `initialize`, where the client's features are read before anything else
# The editing features after `symbols` register at `initialize`, only for clients that declare them.
FEATURES = (lifecycle, diagnostics, commands, completion, hover, actions, links, symbols) + (
    find_references, rename, workspace_symbols, lens, inlay_hints, folding, selection_ranges
)


def create_server() -> AlbedoLanguageServer:
    """A server with every feature registered, forwarding its logs to the client. Refuses
    (`PyglsInternalsMissing`) when the installed pygls lacks an internal the server relies on."""
    server = AlbedoLanguageServer()
    pygls_internals.check(server)
    for feature in FEATURES:
        feature.register(server)
    server.forward_logs()
    return server
