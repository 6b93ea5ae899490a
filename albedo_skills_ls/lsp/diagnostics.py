"""Document sync and diagnostics: live checks of open `SKILL.md` and chat buffers, and pull diagnostics.

Push clients get `textDocument/publishDiagnostics` (with the buffer's version); pull clients ask with
`textDocument/diagnostic` and `workspace/diagnostic`, and get result ids so unchanged reports stay small.
"""

from __future__ import annotations

from lsprotocol import types

from .buffers import Buffers
from .delivery import result_id
from .documents import is_skill_file
from .server import AlbedoLanguageServer
from .uris import path_to_uri, uri_to_path

DIAGNOSTIC_IDENTIFIER = "albedo-skills"


def _skill_path(uri: str) -> str | None:
    """A `SKILL.md` file, open or (at save and close) not."""
    return uri_to_path(uri) if is_skill_file(uri) else None


def _checked_path(ls: AlbedoLanguageServer, uri: str, buffers: Buffers) -> str | None:
    """An open `SKILL.md`, chat buffer or file a skill bundles (a file): the documents checked live. Decided
    from the document's name and language id, without reading its text."""
    path = uri_to_path(uri)
    if path is None or not ls.settings.enable:
        return None
    return path if ls.findings.checks_live(path, buffers) else None


def register(server: AlbedoLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: AlbedoLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        buffers = ls.buffers()
        path = _checked_path(ls, params.text_document.uri, buffers)
        if path and not ls.client.pull_diagnostics and ls.settings.enable:
            ls.publish(path, buffers)  # with the buffer's version
        if path and ls.settings.enable and ls.findings.in_user_skill(path):
            ls.refresh_diagnostics("opened")  # its user-root skill is now read whole: its other files too

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: AlbedoLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        # which document it is, not its text (the live check reads it once typing pauses)
        path = _checked_path(ls, params.text_document.uri, ls.buffers())
        if path and ls.settings.enable:
            ls.schedule_live_check(path)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: AlbedoLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        # Clients without file watchers still see collisions move once a SKILL.md is saved, and the security
        # reading of a file a skill bundles follow its saved text.
        saved = uri_to_path(params.text_document.uri)
        bundled = saved is not None and ls.settings.security and ls.findings.bundled(saved)
        if (_skill_path(params.text_document.uri) or bundled) and ls.settings.enable and ls.settings.auto_reload:
            ls.schedule_reload()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: AlbedoLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        path = _skill_path(params.text_document.uri)
        closed = uri_to_path(params.text_document.uri)
        if path is None and closed in ls.delivered.published:
            path = closed  # a chat buffer (no longer open, so known by what it was sent): clear it
        if path and not ls.client.pull_diagnostics:
            # back to the disk's state as the snapshot knows it (nothing, for a file outside the roots)
            ls.publish(path, ls.buffers())
        if closed is not None and ls.settings.enable and ls.findings.in_user_skill(closed):
            ls.refresh_diagnostics("closed")  # its user-root skill may be read no more: clear what it showed


def enable_pull_diagnostics(server: AlbedoLanguageServer) -> None:
    """Registered from `initialize`, before capabilities are computed, only for clients that pull
    (`ClientFeatures.pull_diagnostics`)."""
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier=DIAGNOSTIC_IDENTIFIER, inter_file_dependencies=True, workspace_diagnostics=True
        ),
    )
    def document_diagnostic(
        ls: AlbedoLanguageServer, params: types.DocumentDiagnosticParams
    ) -> types.DocumentDiagnosticReport:
        path = uri_to_path(params.text_document.uri)
        if path is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[], result_id=result_id(()))
        buffers = ls.buffers()
        found = ls.findings.for_file(path, buffers)
        converter = ls.converter(buffers)
        key = converter.key(path, found)  # what the items depend on: unchanged key, unchanged report
        if params.previous_result_id == (report_id := result_id(key)):
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=report_id)
        return types.RelatedFullDocumentDiagnosticReport(items=converter.items(path, found), result_id=report_id)

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    def workspace_diagnostic(
        ls: AlbedoLanguageServer, params: types.WorkspaceDiagnosticParams
    ) -> types.WorkspaceDiagnosticReport:
        previous = {item.uri: item.value for item in params.previous_result_ids}
        items: list = []
        # files reported before that have nothing now get an empty report, so the client clears them
        buffers = ls.buffers()
        reported = ls.delivered.pulled(ls.findings.everything(buffers))
        converter = ls.converter(buffers)
        for path, found in sorted(reported.items()):
            uri = path_to_uri(path)
            opened = buffers.text(path)
            version = opened[1] if opened else None
            report_id = result_id(converter.key(path, found))
            if previous.get(uri) == report_id:
                items.append(
                    types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, version=version, result_id=report_id)
                )
            else:
                items.append(
                    types.WorkspaceFullDocumentDiagnosticReport(
                        uri=uri, version=version, items=converter.items(path, found), result_id=report_id
                    )
                )
        return types.WorkspaceDiagnosticReport(items=items)
