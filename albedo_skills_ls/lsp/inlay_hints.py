"""An inlay hint after a `SKILL.md`'s `description:`: its length against the spec's 1,024 characters, and
where a chosen agent (`albedoSkills.hosts`) shows its model less ("412 / 1,024 · cut to 90 in Codex CLI";
the figures of `albedo-skills hosts --format json`)."""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.agent_figures import description_hint, hint_position
from .convert import to_client_character
from .documents import OpenDocument
from .request import Request
from .skill_buffer import agent_figures, skill_buffer


def inlay_hint(request: Request, document: OpenDocument, params: types.InlayHintParams) -> list[types.InlayHint] | None:
    buffer = skill_buffer(document)
    if buffer is None or buffer.parsed.description is None:
        return None
    where = hint_position(buffer.document.text, "description")
    if where is None or not params.range.start.line <= where[0] <= params.range.end.line:
        return []
    line = buffer.document.line(where[0])
    position = types.Position(line=where[0], character=to_client_character(line, where[1], request.encoding))
    label = description_hint(buffer.description_length, agent_figures(request, buffer))
    return [types.InlayHint(position=position, label=label, padding_left=True)]
