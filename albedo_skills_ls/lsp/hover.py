"""`textDocument/hover`: frontmatter keys of a SKILL.md, which agents load it (on the opening `---`), a
security finding (in a SKILL.md or a file a skill bundles), and `/commands` in chat buffers."""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.hover import hover_field
from ..skills.core.model import Range
from . import chat
from .dispatch import by_kind, isolated, open_document
from .documents import OpenDocument
from .markup import markup
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
    return types.Hover(contents=markup(ls.client, markdown, "hover"), range=document.to_lsp(where, ls.encoding))


def security_hover(ls: AlbedoLanguageServer, document: OpenDocument, position: types.Position) -> types.Hover | None:
    """Over a security finding (in a SKILL.md or a file a skill bundles): what it is and how to silence it."""
    from ..skills.core.model import Position
    from ..skills.security.explain import findings_at, hover_markdown

    if document.path is None:
        return None
    here = Position(position.line, document.character(position, ls.encoding))
    found = findings_at(ls.findings.for_file(document.path, ls.buffers()), here)
    if not found:
        return None
    where = document.to_lsp(found[0].range, ls.encoding)
    return types.Hover(contents=markup(ls.client, hover_markdown(found), "hover"), range=where)


def skill_hover(ls: AlbedoLanguageServer, document: OpenDocument, position: types.Position) -> types.Hover | None:
    """Which agents load the skill (on the opening `---`), else a security finding, else the frontmatter key
    under the cursor."""
    if position.line == 0 and document.path is not None:
        agents = agents_hover(ls, document)
        if agents is not None:
            return agents
    security = security_hover(ls, document, position)
    if security is not None:
        return security
    found = hover_field(document.text, position.line, document.character(position, ls.encoding))
    if found is None:
        return None
    markdown, where = found
    return types.Hover(contents=markup(ls.client, markdown, "hover"), range=document.to_lsp(where, ls.encoding))


def register(server: AlbedoLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @isolated
    def hover(ls: AlbedoLanguageServer, params: types.HoverParams) -> types.Hover | None:
        document = open_document(ls, params.text_document.uri)
        if document is not None and document.kind is None and document.path and ls.findings.bundled(document.path):
            return security_hover(ls, document, params.position)  # a file a skill bundles
        return by_kind(
            ls,
            params.text_document.uri,
            None,
            skill=lambda document: skill_hover(ls, document, params.position),
            chat=lambda document: chat.hover(ls, document, params.position),
            skill_needs_file=False,
        )
