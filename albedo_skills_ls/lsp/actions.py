"""`textDocument/codeAction`: quick fixes for a SKILL.md or a chat buffer (its `command-unknown`), each a
`WorkspaceEdit` (the server writes nothing).

The fixes come from the engine re-checking the buffer (`quick_fixes`), never from the client's
diagnostic text. An action is offered for a finding the client sent in the request context (same code and
range; that diagnostic is attached) or for one whose range touches the requested range.
"""

from __future__ import annotations

from lsprotocol import types

from ..skills.authoring.fixes import Fix, command_fixes, quick_fixes
from ..skills.language.unknown_commands import check_text
from .convert import LineSource, to_lsp_diagnostic
from .documents import OpenDocument
from .request import Request

QUICK_FIX = types.CodeActionKind.QuickFix


def _touches(a: types.Range, b: types.Range) -> bool:
    def key(position: types.Position) -> tuple[int, int]:
        return position.line, position.character

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def _wants_quick_fixes(only: list[str] | None) -> bool:
    return not only or any(kind == QUICK_FIX or QUICK_FIX.startswith(f"{kind}.") for kind in only)


def _workspace_edit(request: Request, document: OpenDocument, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    if request.client.versioned_edits:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=document.uri, version=document.version
                    ),
                    edits=edits,
                )
            ]
        )
    return types.WorkspaceEdit(changes={document.uri: edits})


def fixes_of(request: Request, document: OpenDocument) -> list[Fix]:
    """A `SKILL.md`'s quick fixes, or a chat buffer's or an instruction file's (its `command-unknown`), against
    the catalog serving it."""
    assert document.path is not None
    catalog = request.workspaces.session_for(document.path).snapshot
    commands = request.findings.command_findings.commands(catalog)
    if document.kind == "skill":
        return quick_fixes(document.path, document.text, commands)
    return command_fixes(check_text(commands, document.path, document.text))


def code_actions(
    request: Request, document: OpenDocument, params: types.CodeActionParams
) -> list[types.CodeAction]:
    if not _wants_quick_fixes(params.context.only):
        return []
    source = document.source
    sent = list(params.context.diagnostics)
    actions = []
    for fix in fixes_of(request, document):
        diagnostic = to_lsp_diagnostic(fix.diagnostic, source, request.encoding, LineSource)
        matched = next(
            (d for d in sent if str(d.code) == fix.diagnostic.code and d.range == diagnostic.range), None
        )
        if matched is None and not _touches(diagnostic.range, params.range):
            continue
        edits = [
            types.TextEdit(range=document.to_lsp(edit.range, request.encoding), new_text=edit.new_text)
            for edit in fix.edits
        ]
        actions.append(
            types.CodeAction(
                title=fix.title,
                kind=QUICK_FIX,
                diagnostics=[matched or diagnostic],
                is_preferred=fix.preferred,
                edit=_workspace_edit(request, document, edits),
            )
        )
    return actions
