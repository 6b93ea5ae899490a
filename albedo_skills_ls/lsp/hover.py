"""`textDocument/hover`: frontmatter keys of a SKILL.md, which agents load it (on the opening `---`), a
security finding (in a SKILL.md or a file a skill bundles), and `/commands` in chat buffers."""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.hover import hover_field
from ..skills.core.model import Range
from .documents import OpenDocument
from .markup import markup
from .request import Request

OPENING = "---"
BOM = "\ufeff"


def agents_hover(request: Request, document: OpenDocument) -> types.Hover | None:
    """On the frontmatter's opening `---`: which agents load this skill (every agent, from the file as saved)."""
    path, first_line = document.path, document.line(0)
    assert path is not None
    opening = first_line.removeprefix(BOM).rstrip()
    if opening != OPENING:
        return None
    from ..skills.hosts.table import markdown_for_file

    workspace = request.workspaces.session_for(path).workspace
    report = request.findings.host_findings.report(workspace, request.settings.home_folder(), None)
    markdown = markdown_for_file(report, path)
    if markdown is None:
        return None
    start = len(first_line) - len(first_line.removeprefix(BOM))
    where = Range.of(0, start, 0, start + len(OPENING))
    return types.Hover(contents=markup(request.client, markdown, "hover"),
                       range=document.to_lsp(where, request.encoding))


def security_hover(request: Request, document: OpenDocument, params: types.HoverParams) -> types.Hover | None:
    """Over a security finding (in a SKILL.md or a file a skill bundles): what it is and how to silence it."""
    from ..skills.core.model import Position
    from ..skills.security.explain import findings_at, hover_markdown

    if document.path is None:
        return None
    here = Position(params.position.line, document.character(params.position, request.encoding))
    found = findings_at(request.findings.for_file(document.path, request.buffers), here)
    if not found:
        return None
    where = document.to_lsp(found[0].range, request.encoding)
    return types.Hover(contents=markup(request.client, hover_markdown(found), "hover"), range=where)


def skill_hover(request: Request, document: OpenDocument, params: types.HoverParams) -> types.Hover | None:
    """Which agents load the skill (on the opening `---`), else a security finding, else the frontmatter key
    under the cursor."""
    position = params.position
    if position.line == 0 and document.path is not None:
        agents = agents_hover(request, document)
        if agents is not None:
            return agents
    security = security_hover(request, document, params)
    if security is not None:
        return security
    found = hover_field(document.text, position.line, document.character(position, request.encoding))
    if found is None:
        return None
    markdown, where = found
    return types.Hover(contents=markup(request.client, markdown, "hover"),
                       range=document.to_lsp(where, request.encoding))
