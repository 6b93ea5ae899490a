"""Lifecycle: initialize, initialized, workspace folders, configuration and watched files."""

from __future__ import annotations

from lsprotocol import types

from . import settings as settings_module
from .diagnostics import enable_pull_diagnostics
from .server import AlbedoLanguageServer, log


async def reregister_watchers(ls: AlbedoLanguageServer) -> None:
    """Folders or roots changed: watch the new set. A client that refuses still gets reloads on demand."""
    try:
        await ls.watchers.register(ls, ls.client, ls.workspaces.sessions, ls.settings)
    except Exception as exc:
        log.warning("could not register file watchers: %s", exc)


def register(server: AlbedoLanguageServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: AlbedoLanguageServer, params: types.InitializeParams) -> None:
        ls.take_client(params.capabilities, params.client_info)
        ls.apply_settings(settings_module.parse(settings_module.section_of(params.initialization_options)))
        if ls.client.pull_diagnostics:
            enable_pull_diagnostics(ls)
        for register_if_declared in ls.offered:  # the methods.py entries only the declaring clients are offered
            register_if_declared(ls)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: AlbedoLanguageServer, params: types.InitializedParams) -> None:
        await ls.start_sessions()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def folders_changed(ls: AlbedoLanguageServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        # pygls has already updated `ls.workspace.folders`; keep sessions for folders that stayed.
        ls.workspaces.rebuild()
        if ls.settings.enable:
            for session in ls.workspaces.sessions:
                session.snapshot  # discovers new sessions once; existing ones keep their snapshot
        ls.refresh_diagnostics()
        await reregister_watchers(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(ls: AlbedoLanguageServer, params: types.DidChangeConfigurationParams) -> None:
        section = settings_module.section_of(params.settings)
        if section is not None:
            ls.apply_settings(settings_module.parse(section, ls.settings))
        else:  # the client only says "something changed": ask for the values
            await ls.pull_configuration()
        await reregister_watchers(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files_changed(ls: AlbedoLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        if ls.settings.enable and ls.settings.auto_reload:
            ls.schedule_reload()
