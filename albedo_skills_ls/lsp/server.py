"""The server core: sessions (one per workspace folder), settings, reloads and diagnostics delivery.

The server owns no rules. It keeps one `SkillsSession` per workspace folder (the engine's snapshot holder),
turns engine values into LSP values, and decides *when* to compute: at `initialized`, on a debounced
reload after file events, and on a short debounce after each keystroke in an open `SKILL.md`.
It imports no feature module: features register their handlers on it (`register(server)` in each feature
module) and `app.create_server()` assembles the two. What the client can do is `self.client`, resolved once
at `initialize` (`client.ClientFeatures`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from typing import Any, Callable
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..skills import slash
from ..skills.catalog import SkillsSession, bounded_file_diagnostics, check_buffer, placement
from ..skills.discovery import WORKSPACE_ROOTS, USER_ROOTS
from ..skills.model import Catalog, Diagnostic
from ..skills.paths import is_within
from . import settings as settings_module
from .client import ClientFeatures
from .convert import path_to_uri, uri_to_path
from .delivery import Converter, Rendering
from .documents import Kind, open_document
from .host_findings import HostFindings
from .protocol import AlbedoProtocol
from .settings import Settings

log = logging.getLogger("albedo_skills_ls")

LIVE_DEBOUNCE_SECONDS = 0.1  # after a keystroke in an open SKILL.md
RELOAD_DEBOUNCE_SECONDS = 0.2  # after file events: a storm of them costs one reload
WATCHER_REGISTRATION_ID = "albedo-skills-watchers"
CATALOG_CHANGED = "albedoSkills/catalogChanged"


class AlbedoLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("albedo-skills-ls", __version__, protocol_cls=AlbedoProtocol)
        self.settings = Settings()
        self.client = ClientFeatures()  # until `initialize` says more: see `take_client`
        self.sessions: list[SkillsSession] = []
        # push mode: what each file last received, so only changes are sent and stale files are cleared
        self.published: dict[str, Rendering] = {}
        # pull mode: files whose last workspace report had diagnostics
        self.pulled_paths: set[str] = set()
        self._live_timers: dict[str, asyncio.TimerHandle] = {}
        self._reload_timer: asyncio.TimerHandle | None = None
        self._watchers_registered = False
        self._log_handler: ClientLogHandler | None = None
        self.ready = asyncio.Event()  # set once the first discovery finished (tests and requests wait on it)
        self.host_findings = HostFindings()  # other agents' verdicts (`albedoSkills.hosts`, the hover)
        # features registered at `initialize`, once the client said it has them (so only they are advertised)
        self.offered: list[Callable[[AlbedoLanguageServer], None]] = []

    # --- the client --------------------------------------------------------------------------------------

    def take_client(self, capabilities: types.ClientCapabilities, client: types.ClientInfo | None = None) -> None:
        """`initialize`: what the client can do, read once; handlers read `self.client` from then on."""
        self.client = ClientFeatures.of(capabilities, client)

    @property
    def encoding(self) -> str:
        return self.client.position_encoding

    @property
    def pull_diagnostics(self) -> bool:
        return self.client.pull_diagnostics

    # --- sessions ----------------------------------------------------------------------------------------

    def folder_paths(self) -> list[str | None]:
        """Workspace folders in the client's order; with none, one session over the user roots alone."""
        paths = [uri_to_path(folder.uri) for folder in self.workspace.folders.values()]
        found = [path for path in paths if path]
        if not found and self.workspace.root_uri:
            root = uri_to_path(self.workspace.root_uri)
            if root:
                found = [root]
        return list(dict.fromkeys(found)) or [None]

    def rebuild_sessions(self) -> None:
        """Sessions for the current folders and settings; kept where nothing that matters changed."""
        current = {session.workspace: session for session in self.sessions}
        wanted = []
        for folder in self.folder_paths():
            key = os.path.abspath(folder) if folder else None
            session = current.get(key)
            if session is None or (session.user_roots, session.home, session.builtins) != self.settings.discovery_key():
                session = SkillsSession(
                    folder,
                    self.settings.home,
                    user_roots=self.settings.user_roots,
                    builtins=self.settings.builtin_commands,
                )
            wanted.append(session)
        self.sessions = wanted

    def primary(self) -> SkillsSession:
        if not self.sessions:
            self.rebuild_sessions()
        return self.sessions[0]

    def session_for(self, path: str | None) -> SkillsSession:
        """The session of the folder containing `path` (the deepest), else the first one."""
        best: SkillsSession | None = None
        if path:
            for session in self.sessions:
                root = session.workspace
                if root and is_within(path, root):
                    if best is None or len(root) > len(best.workspace or ""):
                        best = session
        return best or self.primary()

    def session_placing(self, path: str) -> SkillsSession:
        """The session whose roots hold this `SKILL.md` (user roots: the first session), else `session_for`."""
        for session in self.sessions:
            if placement(session.snapshot, path) is not None:
                return session
        return self.session_for(path)

    def reload_all(self) -> list[dict[str, Any]]:
        """Discovery again for every session (each swaps its own snapshot), then diagnostics follow."""
        summaries = [session.reload() for session in self.sessions]
        self.refresh_diagnostics()
        return summaries

    def schedule_reload(self) -> None:
        if self._reload_timer is not None:
            self._reload_timer.cancel()
        loop = asyncio.get_running_loop()
        self._reload_timer = loop.call_later(RELOAD_DEBOUNCE_SECONDS, self._debounced_reload)

    def _debounced_reload(self) -> None:
        self._reload_timer = None
        guarded(self.reload_all, "reload")

    # --- diagnostics -------------------------------------------------------------------------------------

    def open_text(self, path: str) -> tuple[str, int | None] | None:
        """An open buffer's text and version, keyed the way pygls keys documents."""
        # pygls keys documents by the percent-decoded URI (a folder with a space is `%20` in a URI)
        document = self.workspace.text_documents.get(unquote(path_to_uri(path)))
        if document is None:
            return None
        return document.source, document.version

    def open_kind(self, path: str) -> Kind | None:
        """The kind of the open buffer of this file (`documents.kind_of`), None when it is not open."""
        document = open_document(self, path_to_uri(path))
        return document.kind if document else None

    def diagnostics_for(self, path: str) -> tuple[Diagnostic, ...]:
        """What the editor shows for one file now: bounded (skills/limits.py MAX_FILE_DIAGNOSTICS)."""
        return bounded_file_diagnostics(path, self._all_diagnostics_for(path))

    def _all_diagnostics_for(self, path: str) -> tuple[Diagnostic, ...]:
        """Albedo's findings for one file, then the chosen agents' refusals (`albedoSkills.hosts`)."""
        own = self._own_diagnostics_for(path)
        if not self.settings.enable or not self.settings.hosts:
            return own
        return own + self.hosts_diagnostics(self.session_for(path)).get(path, ())

    def home(self) -> str:
        return os.path.abspath(self.settings.home or os.path.expanduser("~"))

    def hosts_diagnostics(self, session: SkillsSession) -> dict[str, tuple[Diagnostic, ...]]:
        return self.host_findings.diagnostics(session.workspace, self.home(), self.settings.hosts)

    def _own_diagnostics_for(self, path: str) -> tuple[Diagnostic, ...]:
        """One file's diagnostics now: an open buffer is checked from its text, any other from the snapshot."""
        if not self.settings.enable:
            return ()
        document = open_document(self, path_to_uri(path))
        if document is not None and document.kind == "skill":
            return check_buffer(self.session_placing(path).snapshot, path, document.text)
        if document is not None and document.kind == "chat":  # its `/commands`, against its folder's catalog
            return slash.check_chat(self.session_for(path).snapshot, path, document.text)
        for session in self.sessions:
            found = session.snapshot.file_diagnostics.get(path)
            if found is not None:
                return found
        return ()

    def all_diagnostics(self) -> dict[str, tuple[Diagnostic, ...]]:
        """Every file known to any snapshot, plus open `SKILL.md` and chat buffers (first session wins shared
        files)."""
        if not self.settings.enable:
            return {}
        paths: dict[str, None] = {}
        for session in self.sessions:
            paths.update(dict.fromkeys(session.snapshot.file_diagnostics))
            if self.settings.hosts:  # files only other agents read (.claude/skills...) have findings too
                paths.update(dict.fromkeys(self.hosts_diagnostics(session)))
        for uri in list(self.workspace.text_documents):
            path = uri_to_path(uri)
            if path and self.open_kind(path) is not None:
                paths[path] = None
        return {path: self.diagnostics_for(path) for path in paths}

    def converter(self) -> Converter:
        return Converter(self.encoding, self.open_text)

    def rendering(self, path: str, found: tuple[Diagnostic, ...]) -> Rendering:
        """One file's diagnostics as a client receives them, with the key they depend on (`delivery`)."""
        return self.converter().render(path, found)

    def publish(self, path: str, found: tuple[Diagnostic, ...]) -> None:
        self.send(path, self.rendering(path, found))

    def send(self, path: str, rendering: Rendering) -> None:
        opened = self.open_text(path)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=path_to_uri(path), diagnostics=rendering.items, version=opened[1] if opened else None
            )
        )
        self.remember(path, rendering)

    def remember(self, path: str, rendering: Rendering) -> None:
        if rendering.items:
            self.published[path] = rendering
        else:
            self.published.pop(path, None)

    def refresh_diagnostics(self, reason: str = "reload") -> None:
        """After a reload or a settings change: push what changed (and clear what went), or ask pullers to
        pull; then announce `albedoSkills/catalogChanged`, after every diagnostic it implies was sent.
        "What changed" is what the client would receive, not the engine's values (`delivery`)."""
        self.host_findings.clear()  # the disk or the settings changed: other agents' verdicts are read again
        if self.pull_diagnostics:
            if self.client.diagnostic_refresh:
                self.workspace_diagnostic_refresh(None)
        else:
            wanted = self.all_diagnostics()
            converter = self.converter()
            for path in sorted(set(wanted) | set(self.published)):
                rendering, changed = converter.refreshed(path, wanted.get(path, ()), self.published.get(path))
                if changed:
                    self.send(path, rendering)
                else:
                    self.remember(path, rendering)
        self.announce(reason)

    def announce(self, reason: str) -> None:
        """A custom notification clients (and tests) can wait on instead of guessing with timers."""
        snapshots = [session.snapshot for session in self.sessions] if self.settings.enable else []
        self.protocol.notify(
            CATALOG_CHANGED,
            {
                "reason": reason,
                "enabled": self.settings.enable,
                "skills": sum(len(snapshot.skills) for snapshot in snapshots),
                "diagnostics": sum(len(snapshot.diagnostics) for snapshot in snapshots),
            },
        )

    def schedule_live_check(self, path: str) -> None:
        """Re-check an edited buffer once typing pauses (push clients; pull clients ask by themselves)."""
        if self.pull_diagnostics:
            return
        timer = self._live_timers.pop(path, None)
        if timer is not None:
            timer.cancel()
        loop = asyncio.get_running_loop()
        self._live_timers[path] = loop.call_later(LIVE_DEBOUNCE_SECONDS, self._live_check, path)

    def _live_check(self, path: str) -> None:
        self._live_timers.pop(path, None)
        guarded(lambda: self.publish(path, self.diagnostics_for(path)), "live diagnostics")

    # --- settings ----------------------------------------------------------------------------------------

    def apply_settings(self, new: Settings) -> None:
        """Take new settings: report invalid values, rebuild what they change, republish."""
        old = self.settings
        self.settings = new
        # A client re-sends the same settings (initializationOptions, then workspace/configuration, then each
        # didChangeConfiguration): show a problem when it appears, not again while it persists.
        for problem in new.problems:
            if problem not in old.problems:
                self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=problem))
        if self._log_handler is not None:
            self._log_handler.setLevel(_LEVELS.get(new.log_level, logging.INFO))
        if not self.ready.is_set():
            return  # still starting: `start_sessions` discovers with these settings
        if old.discovery_key() != new.discovery_key():
            self.rebuild_sessions()
            if new.enable:
                for session in self.sessions:
                    session.reload()
        elif new.enable and not old.enable:
            for session in self.sessions:  # the disk may have changed while we were off
                session.reload()
        if old != new:
            self.refresh_diagnostics("settings")

    async def pull_configuration(self) -> None:
        if not self.client.configuration:
            return
        try:
            result = await self.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=settings_module.SECTION)])
            )
        except Exception as exc:  # a client that fails here still gets the initializationOptions settings
            log.warning("workspace/configuration failed: %s", exc)
            return
        if result and isinstance(result[0], dict):
            self.apply_settings(settings_module.parse(result[0], self.settings))

    # --- file watching -----------------------------------------------------------------------------------

    def watcher_globs(self) -> list[types.FileSystemWatcher]:
        """Watch the five roots (user roots too) for any change below them."""
        relative = self.client.relative_watcher_patterns
        bases: list[tuple[str, str]] = []
        for session in self.sessions:
            if session.workspace:
                bases += [(session.workspace, rel) for rel, _scope in WORKSPACE_ROOTS]
        if self.settings.user_roots:
            home = os.path.abspath(self.settings.home or os.path.expanduser("~"))
            bases += [(home, rel) for rel, _scope in USER_ROOTS]
        watchers = []
        for base, rel in dict.fromkeys(bases):
            if relative:
                pattern: Any = types.RelativePattern(base_uri=path_to_uri(base), pattern=f"{rel}/**")
            else:
                pattern = f"{base}/{rel}/**"
            watchers.append(types.FileSystemWatcher(glob_pattern=pattern))
        return watchers

    async def register_watchers(self) -> None:
        if not self.client.watcher_registration:
            return
        if self._watchers_registered:
            await self.client_unregister_capability_async(
                types.UnregistrationParams(
                    unregisterations=[
                        types.Unregistration(
                            id=WATCHER_REGISTRATION_ID, method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES
                        )
                    ]
                )
            )
        await self.client_register_capability_async(
            types.RegistrationParams(
                registrations=[
                    types.Registration(
                        id=WATCHER_REGISTRATION_ID,
                        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(
                            watchers=self.watcher_globs()
                        ),
                    )
                ]
            )
        )
        self._watchers_registered = True

    # --- logs ------------------------------------------------------------------------------------------

    def forward_logs(self) -> None:
        """Send our own log records at or above `albedoSkills.logLevel` to the client's log."""
        self._log_handler = ClientLogHandler(self)
        self._log_handler.setLevel(_LEVELS.get(self.settings.log_level, logging.INFO))
        log.addHandler(self._log_handler)

    # --- start-up ----------------------------------------------------------------------------------------

    async def start_sessions(self) -> None:
        """`initialized`: settings, discovery for every session (with progress), diagnostics, watchers."""
        await self.pull_configuration()
        self.rebuild_sessions()
        token: str | None = None
        if self.client.work_done_progress:
            token = str(uuid.uuid4())
            try:
                await self.work_done_progress.create_async(token)
                self.work_done_progress.begin(
                    token, types.WorkDoneProgressBegin(title="Albedo skills", message="discovering skills")
                )
            except Exception as exc:
                log.debug("no progress: %s", exc)
                token = None
        for index, session in enumerate(self.sessions):
            if self.settings.enable:
                session.reload()
            if token:
                self.work_done_progress.report(
                    token,
                    types.WorkDoneProgressReport(
                        message=f"{session.workspace or 'user roots'}",
                        percentage=int(100 * (index + 1) / len(self.sessions)),
                    ),
                )
        if token:
            snapshots = [session.snapshot for session in self.sessions]
            self.work_done_progress.end(
                token, types.WorkDoneProgressEnd(message=summary_line(snapshots))
            )
        try:
            await self.register_watchers()
        except Exception as exc:
            log.warning("could not register file watchers: %s", exc)
        self.ready.set()
        self.refresh_diagnostics("initialized")


def summary_line(snapshots: list[Catalog]) -> str:
    skills = sum(len(snapshot.skills) for snapshot in snapshots)
    diagnostics = sum(len(snapshot.diagnostics) for snapshot in snapshots)
    return f"{skills} skill(s), {diagnostics} diagnostic(s)"


def guarded(action: Callable[[], Any], what: str) -> Any:
    """Run a background step; a failure is logged, never fatal to the server."""
    try:
        return action()
    except Exception:
        log.exception("%s failed", what)
        return None


# --- logs to the client ----------------------------------------------------------------------------------

_LEVELS = {"error": logging.ERROR, "warning": logging.WARNING, "info": logging.INFO, "debug": logging.DEBUG}
_MESSAGE_TYPES = {
    logging.ERROR: types.MessageType.Error,
    logging.WARNING: types.MessageType.Warning,
    logging.INFO: types.MessageType.Info,
    logging.DEBUG: types.MessageType.Log,
}


class ClientLogHandler(logging.Handler):
    """Forwards our own log records at or above `logLevel` to `window/logMessage`."""

    def __init__(self, server: AlbedoLanguageServer) -> None:
        super().__init__(logging.INFO)
        self.server = server
        self._sending = False

    def emit(self, record: logging.LogRecord) -> None:
        if self._sending or self.server.protocol.writer is None:
            return
        self._sending = True  # a failure while sending must not log its way back in here
        try:
            kind = _MESSAGE_TYPES.get(record.levelno, types.MessageType.Log)
            self.server.window_log_message(types.LogMessageParams(type=kind, message=self.format(record)))
        except Exception:
            pass
        finally:
            self._sending = False
