"""The assembly: the server core with every feature registered on it.

The one module that imports both layers. The core (`server`, `dispatch`, `request`, `documents`, `client`,
`convert`, `settings`) imports no feature. The server core's own methods are registered by `lifecycle`,
`diagnostics` and `commands`; every editor feature is an entry of `methods.METHODS`, registered through the
dispatcher. A new feature is an entry there, and nowhere else.
"""

from __future__ import annotations

from . import commands, diagnostics, dispatch, lifecycle, pygls_internals
from .methods import METHODS
from .server import AlbedoLanguageServer

# `lifecycle` first: it answers `initialize`, where the client's features are read before anything else
CORE = (lifecycle, diagnostics, commands)


def create_server() -> AlbedoLanguageServer:
    """A server with every feature registered, forwarding its logs to the client. Refuses
    (`PyglsInternalsMissing`) when the installed pygls lacks an internal the server relies on."""
    server = AlbedoLanguageServer()
    pygls_internals.check(server)
    for module in CORE:
        module.register(server)
    dispatch.register(server, METHODS)
    server.forward_logs()
    return server
