"""An open `SKILL.md` as the inline features (code lens, inlay hints) read it: its identity from its text,
and the chosen agents' figures for the file (`skills/authoring/agent_figures.py`)."""

from __future__ import annotations

from typing import NamedTuple

from ..skills.authoring.agent_figures import AgentFigures, figures_for
from ..skills.authoring.fields import folder_name_of
from ..skills.document.rules import ParsedSkill, check_document, description_length
from .documents import OpenDocument
from .request import Request


class SkillBuffer(NamedTuple):
    document: OpenDocument
    parsed: ParsedSkill

    @property
    def description_length(self) -> int:
        return description_length(self.parsed.description or "")


def skill_buffer(document: OpenDocument | None) -> SkillBuffer | None:
    """The buffer's parse when it is a `SKILL.md` file with a name; None otherwise."""
    if document is None or document.kind != "skill" or document.path is None:
        return None
    parsed = check_document(document.text, document.path, folder_name_of(document.path))
    return SkillBuffer(document, parsed) if parsed.name else None


def agent_figures(request: Request, buffer: SkillBuffer) -> AgentFigures | None:
    """The chosen agents' figures for this file (`albedoSkills.hosts`), None when no agent is chosen."""
    if not request.settings.hosts or buffer.document.path is None:
        return None
    session = request.workspaces.session_for(buffer.document.path)
    settings = request.settings
    report = request.findings.host_findings.report(session.workspace, settings.home_folder(), settings.hosts)
    return figures_for(report, buffer.document.path, buffer.description_length)
