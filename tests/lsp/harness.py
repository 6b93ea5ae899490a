"""Drive the real server over stdio with pytest-lsp, on real trees in temporary folders.

`start(...)` launches `python -m albedo_skills_ls`, answers the server's own requests (registration,
configuration), initializes with the capabilities a test chooses, and returns once the server announced
its first catalog (`albedoSkills/catalogChanged`): tests wait on signals, never on clocks.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient

CATALOG_CHANGED = "albedoSkills/catalogChanged"
SERVER_COMMAND = [sys.executable, "-m", "albedo_skills_ls"]


def uri(path: str | Path) -> str:
    return from_fs_path(str(path))


def write_skill(root: Path, folder: str, frontmatter: str, body: str = "# Instructions\n\nDo the thing.\n") -> Path:
    """`root/folder/SKILL.md` with the given frontmatter lines between `---` delimiters."""
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{frontmatter.rstrip(chr(10))}\n---\n{body}", encoding="utf-8")
    return path


def valid(name: str, description: str = "Does a useful thing.") -> str:
    return f"name: {name}\ndescription: {description}"


def capabilities(
    *,
    pull: bool = False,
    progress: bool = True,
    dynamic_watchers: bool = True,
    configuration: bool = True,
    encodings: list[str] | None = None,
) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None,
        window=types.WindowClientCapabilities(work_done_progress=progress),
        workspace=types.WorkspaceClientCapabilities(
            configuration=configuration,
            workspace_folders=True,
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=dynamic_watchers, relative_pattern_support=True
            ),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
        ),
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(related_document_support=True) if pull else None,
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True
            ),
            completion=types.CompletionClientCapabilities(
                completion_item=types.ClientCompletionItemOptions(snippet_support=True)
            ),
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        ),
    )


class Session:
    """A started client plus what it recorded: registrations and catalog announcements."""

    def __init__(self, client: LanguageClient, result: types.InitializeResult) -> None:
        self.client = client
        self.result = result
        self.registrations: list[types.Registration] = []
        self.announcements: list[Any] = []  # every albedoSkills/catalogChanged, in order

    def expect(self, method: str) -> asyncio.Future:
        """A future for the next notification `method`; create it before the action that causes it."""
        return asyncio.wrap_future(self.client.protocol.wait_for_notification(method))

    def diagnostics(self, path: str | Path) -> list[types.Diagnostic]:
        return list(self.client.diagnostics.get(uri(path), []))

    def codes(self, path: str | Path) -> list[str]:
        return sorted(str(d.code) for d in self.diagnostics(path))

    async def command(self, name: str, *arguments: Any) -> Any:
        return await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=list(arguments))
        )

    def open(self, path: str | Path, text: str | None = None, language_id: str = "markdown", version: int = 1) -> None:
        content = Path(path).read_text(encoding="utf-8") if text is None else text
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri(path), language_id=language_id, version=version, text=content)
            )
        )

    def change(self, path: str | Path, text: str, version: int) -> None:
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def close(self, path: str | Path) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri(path)))
        )

    def files_changed(self, *changes: tuple[str | Path, types.FileChangeType]) -> None:
        self.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=uri(path), type=kind) for path, kind in changes]
            )
        )

    async def stop(self) -> None:
        await self.client.shutdown_session()
        await self.client.stop()


async def start(
    folders: list[Path] | None,
    home: Path,
    *,
    caps: types.ClientCapabilities | None = None,
    settings: dict[str, Any] | None = None,
    root_uri_only: bool = False,
) -> Session:
    """Start the server on `folders` with `home` as the user's home (through the `home` setting)."""
    options = {"albedoSkills": {"home": str(home), **(settings or {})}}
    env = dict(os.environ, HOME=str(home))
    client = await ClientServerConfig(server_command=SERVER_COMMAND, server_env=env).start()
    client.set_configuration(options)
    session_holder: list[Session] = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        session_holder[0].registrations.extend(params.registrations)

    @client.feature(types.CLIENT_UNREGISTER_CAPABILITY)
    def unregister_capability(params: types.UnregistrationParams) -> None:
        return None

    @client.feature(CATALOG_CHANGED)
    def catalog_changed(params: Any) -> None:
        session_holder[0].announcements.append(params)

    ready = asyncio.wrap_future(client.protocol.wait_for_notification(CATALOG_CHANGED))
    folder_items = [types.WorkspaceFolder(uri=uri(f), name=f.name) for f in folders or []]
    params = types.InitializeParams(
        capabilities=caps or capabilities(),
        initialization_options=options,
        workspace_folders=None if root_uri_only else folder_items,
        root_uri=uri(folders[0]) if folders else None,
    )
    # the session must exist before `initialized`, which triggers the first registration
    session = Session(client, None)  # type: ignore[arg-type]
    session_holder.append(session)
    session.result = await client.initialize_session(params)
    await ready
    return session
