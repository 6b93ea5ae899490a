"""The smallest useful pygls server: the baseline for "process start to `initialize` result".

    python benchmarks/minimal_server.py

One trivial feature (hover answers nothing), started on stdio exactly as `python -m albedo_skills_ls` is, so
the difference between the two is what our server adds on top of Python + pygls + lsprotocol.
"""

from __future__ import annotations

from lsprotocol import types
from pygls.lsp.server import LanguageServer

server = LanguageServer("minimal-server", "0.0.1")


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: types.HoverParams) -> types.Hover | None:
    return None


if __name__ == "__main__":
    server.start_io()
