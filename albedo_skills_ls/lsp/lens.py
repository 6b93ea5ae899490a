"""Code lens on a `SKILL.md`'s `name:`: "used in N places" (the count Find References returns), and with
`albedoSkills.hosts` set, "loads in 4 of 5 agents · not in Gemini CLI" (the agents' report).

The first lens runs `albedoSkills.showReferences` with the document's URI and the name's position: a
client-side command (the VS Code extension and the Neovim plugin register it to open their references
view), never sent to the server. The agents' lens has no command: it is a figure to read; the hover on the
opening `---` explains each verdict.
"""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.agent_figures import lens_title
from ..skills.language.mentions import target_at
from .documents import OpenDocument
from .find_references import mentions_of, uses
from .request import Request
from .skill_buffer import agent_figures, skill_buffer

SHOW_REFERENCES = "albedoSkills.showReferences"


def code_lens(request: Request, document: OpenDocument, params: types.CodeLensParams) -> list[types.CodeLens] | None:
    buffer = skill_buffer(document)
    if buffer is None or buffer.parsed.name_range is None:
        return None
    name = buffer.parsed.name
    assert document.path is not None and name is not None
    where = document.to_lsp(buffer.parsed.name_range, request.encoding)
    target = target_at(request.workspaces.session_placing(document.path).snapshot, document.path, name)
    count = len(uses(mentions_of(request, target)))
    title = f"used in {count} place{'s' if count != 1 else ''}"
    lenses = [
        types.CodeLens(
            range=where,
            command=types.Command(title=title, command=SHOW_REFERENCES, arguments=[document.uri, where.start]),
        )
    ]
    figures = agent_figures(request, buffer)
    if figures is not None:
        lenses.append(types.CodeLens(range=where, command=types.Command(title=lens_title(figures), command="")))
    return lenses
