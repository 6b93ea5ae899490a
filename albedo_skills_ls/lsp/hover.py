"""`textDocument/hover`: frontmatter keys of a SKILL.md, which agents load it (on the opening `---`), and
`/commands` in chat buffers."""

from __future__ import annotations

from lsprotocol import types

from ..skills import authoring
from ..skills.model import Range
from . import chat
from .documents import OpenDocument, by_kind, isolated, markup
from .server import AlbedoLanguageServer

OPENING = "---"
BOM = "\ufeff"


def agents_hover(ls: AlbedoLanguageServer, document: OpenDocument) -> types.Hover | None:
    """On the frontmatter's opening `---`: which agents load this skill (every agent, from the file as saved)."""
    path, first_line = document.path, document.line(0)
    assert path is not None
    opening = first_line.removeprefix(BOM).rstrip()
    if opening != OPENING:
        return None
    from ..skills.hosts.table import markdown_for_file

    report = ls.findings.host_findings.report(ls.workspaces.session_for(path).workspace, ls.settings.home_folder(), None)
    markdown = markdown_for_file(report, path)
    if markdown is None:
        return None
    start = len(first_line) - len(first_line.removeprefix(BOM))
    where = Range.of(0, start, 0, start + len(OPENING))
    return types.Hover(contents=markup(ls, markdown, "hover"), range=document.to_lsp(where, ls.encoding))


def skill_hover(ls: AlbedoLanguageServer, document: OpenDocument, position: types.Position) -> types.Hover | None:
    """Which agents load the skill (on the opening `---`), else the frontmatter key under the cursor."""
    if position.line == 0 and document.path is not None:
        agents = agents_hover(ls, document)
        if agents is not None:
            return agents
    found = authoring.hover_field(document.text, position.line, document.character(position, ls.encoding))
    if found is None:
        return None
    markdown, where = found
    return types.Hover(contents=markup(ls, markdown, "hover"), range=document.to_lsp(where, ls.encoding))


def register(server: AlbedoLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @isolated
    def hover(ls: AlbedoLanguageServer, params: types.HoverParams) -> types.Hover | None:
        return by_kind(
            ls,
            params.text_document.uri,
            None,
            skill=lambda document: skill_hover(ls, document, params.position),
            chat=lambda document: chat.hover(ls, document, params.position),
            skill_needs_file=False,
        )
