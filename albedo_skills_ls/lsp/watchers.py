"""File watchers: the five roots (user roots too) watched through the client, so a change reloads; and the
workspace's `AGENTS.md`, `CLAUDE.md`, `GEMINI.md` and chat files, so their `command-unknown` follows the disk.

Part of the server core. `watcher_globs` decides what to watch from the sessions and the settings (plain
values in, lsprotocol values out); `Watchers.register` asks the client, replacing an earlier registration
when the folders or roots changed.
"""

from __future__ import annotations

from typing import Any, Iterable

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from ..skills.catalog.candidates import USER_ROOTS, WORKSPACE_ROOTS
from ..skills.catalog.session import SkillsSession
from ..skills.language.mentions import AGENT_INSTRUCTION_FILES
from .client import ClientFeatures
from .settings import Settings
from .uris import path_to_uri

REGISTRATION_ID = "albedo-skills-watchers"


def watcher_globs(sessions: Iterable[SkillsSession], settings: Settings, relative: bool) -> list[types.FileSystemWatcher]:
    """Watch the five roots for any change below them, and in each workspace folder the agent files and chat
    files whose `/commands` `command-unknown` reads from the disk: a `RelativePattern` where the client takes
    one (`ClientFeatures.relative_watcher_patterns`), else an absolute glob."""
    bases: list[tuple[str, str]] = []
    prose = "{" + ",".join(AGENT_INSTRUCTION_FILES + settings.chat_file_patterns) + "}"
    for session in sessions:
        if session.workspace:
            bases += [(session.workspace, f"{rel}/**") for rel, _scope in WORKSPACE_ROOTS]
            bases.append((session.workspace, f"**/{prose}"))
    if settings.user_roots:
        home = settings.home_folder()
        bases += [(home, f"{rel}/**") for rel, _scope in USER_ROOTS]
    watchers = []
    for base, rel in dict.fromkeys(bases):
        if relative:
            pattern: Any = types.RelativePattern(base_uri=path_to_uri(base), pattern=rel)
        else:
            pattern = f"{base}/{rel}"
        watchers.append(types.FileSystemWatcher(glob_pattern=pattern))
    return watchers


class Watchers:
    def __init__(self) -> None:
        self.registered = False

    async def register(
        self, server: LanguageServer, client: ClientFeatures, sessions: Iterable[SkillsSession], settings: Settings
    ) -> None:
        """Register the watchers of `sessions` with the client through `server`, replacing the last registration."""
        if not client.watcher_registration:
            return
        method = types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        if self.registered:
            await server.client_unregister_capability_async(
                types.UnregistrationParams(unregisterations=[types.Unregistration(id=REGISTRATION_ID, method=method)])
            )
        globs = watcher_globs(sessions, settings, client.relative_watcher_patterns)
        options = types.DidChangeWatchedFilesRegistrationOptions(watchers=globs)
        await server.client_register_capability_async(
            types.RegistrationParams(
                registrations=[types.Registration(id=REGISTRATION_ID, method=method, register_options=options)]
            )
        )
        self.registered = True
