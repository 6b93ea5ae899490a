"""The server core's wiring: the pygls server holding the state objects, and *when* things are computed.

The server owns no rules and little state of its own. The state lives in plain objects it holds:
`workspaces` (one `SkillsSession` per workspace folder, `workspaces.py`), `findings` (each file's
diagnostics by its kind, `findings.py`), `delivered` (what the client holds, `delivery.py`), `watchers`
(`watchers.py`) and `client` (what the client can do, resolved once at `initialize`, `client.py`). This class
connects them to pygls and decides when to compute: at `initialized`, on a debounced reload after file
events, and on a short debounce after each keystroke in an open `SKILL.md`.
It imports no feature module: the method table (`methods.py`) registers the features' answers on it, each
called with a `Request` the dispatcher takes (`dispatch.py`), and `app.create_server()` assembles the two.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any, Callable

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from . import settings as settings_module
from .buffers import Buffers
from .client import ClientFeatures
from .client_log import ClientLogHandler, set_client_level
from .delivery import Converter, Delivered, Rendering
from .findings import Findings
from .pygls_internals import AlbedoProtocol
from .request import FeatureMemory, Request
from .settings import Settings
from .watchers import Watchers
from .workspaces import Workspaces
from .uris import path_to_uri, uri_to_path

log = logging.getLogger("albedo_skills_ls")

LIVE_DEBOUNCE_SECONDS = 0.1  # after a keystroke in an open SKILL.md
RELOAD_DEBOUNCE_SECONDS = 0.2  # after file events: a storm of them costs one reload
CATALOG_CHANGED = "albedoSkills/catalogChanged"


class AlbedoLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("albedo-skills-ls", __version__, protocol_cls=AlbedoProtocol)
        self.settings = Settings()
        self.client = ClientFeatures()  # until `initialize` says more: see `take_client`
        self.workspaces = Workspaces(self.folder_paths, lambda: self.settings)
        self.findings = Findings(self.workspaces, lambda: self.settings)
        self.delivered = Delivered()
        self.watchers = Watchers()
        self.memory = FeatureMemory()  # what the editor features keep between requests (request.py)
        self._live_timers: dict[str, asyncio.TimerHandle] = {}
        self._reload_timer: asyncio.TimerHandle | None = None
        self._log_handler: ClientLogHandler | None = None
        self.ready = asyncio.Event()  # set once the first discovery finished (tests and requests wait on it)
        # features registered at `initialize`, once the client said it has them (so only they are advertised)
        self.offered: list[Callable[[AlbedoLanguageServer], None]] = []

    # --- the client and its documents ----------------------------------------------------------------------

    def take_client(self, capabilities: types.ClientCapabilities, client: types.ClientInfo | None = None) -> None:
        """`initialize`: what the client can do, read once; handlers read `self.client` from then on."""
        self.client = ClientFeatures.of(capabilities, client)

    @property
    def encoding(self) -> str:
        return self.client.position_encoding

    def folder_paths(self) -> list[str | None]:
        """Workspace folders in the client's order; with none, one session over the user roots alone."""
        paths = [uri_to_path(folder.uri) for folder in self.workspace.folders.values()]
        found = [path for path in paths if path]
        if not found and self.workspace.root_uri:
            root = uri_to_path(self.workspace.root_uri)
            if root:
                found = [root]
        return list(dict.fromkeys(found)) or [None]

    def buffers(self) -> Buffers:
        """The open documents as of now, each read from pygls's store at most once: taken when a publish or a
        request starts and handed down (the one place the store is read)."""
        return Buffers(self.workspace.text_documents, self.settings)

    def request(self) -> Request:
        """What a request's answer reads, taken once when the request starts (request.py)."""
        return Request(self.buffers(), self.settings, self.client, self.workspaces, self.findings, self.memory,
                       self._show_message)

    def _show_message(self, kind: types.MessageType, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    # --- reloads ---------------------------------------------------------------------------------------------

    def reload_all(self) -> list[dict[str, Any]]:
        """Discovery again for every session (each swaps its own snapshot), then diagnostics follow."""
        summaries = self.workspaces.reload_all()
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

    # --- diagnostics delivery --------------------------------------------------------------------------------

    def converter(self, buffers: Buffers) -> Converter:
        return Converter(self.encoding, buffers)

    def publish(self, path: str, buffers: Buffers) -> None:
        """One file's diagnostics now, checked, converted and versioned on one snapshot's text."""
        self.send(path, self.converter(buffers).render(path, self.findings.for_file(path, buffers)), buffers)

    def send(self, path: str, rendering: Rendering, buffers: Buffers) -> None:
        opened = buffers.text(path)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=path_to_uri(path), diagnostics=rendering.items, version=opened[1] if opened else None
            )
        )
        self.delivered.remember(path, rendering)

    def refresh_diagnostics(self, reason: str = "reload") -> None:
        """After a reload or a settings change: push what changed (and clear what went), or ask pullers to
        pull; then announce `albedoSkills/catalogChanged`, after every diagnostic it implies was sent.
        "What changed" is what the client would receive, not the engine's values (`delivery`)."""
        self.findings.clear()
        buffers = self.buffers()
        everything = self.findings.everything(buffers)  # every reading of this reload, the security reading's too
        if self.client.pull_diagnostics:
            if self.client.diagnostic_refresh:
                self.workspace_diagnostic_refresh(None)
        else:
            for path, rendering in self.delivered.changes(everything, self.converter(buffers)):
                self.send(path, rendering, buffers)
        self.announce(reason, sum(len(found) for found in everything.values()))

    def announce(self, reason: str, diagnostics: int) -> None:
        """A notification clients and tests wait on instead of timers. `diagnostics` counts what the client is
        given once every reading of the reload landed: the Problems panel's count, as `check` counts."""
        enabled = self.settings.enable
        skills = self.workspaces.skill_count() if enabled else 0
        payload = {"reason": reason, "enabled": enabled, "skills": skills, "diagnostics": diagnostics}
        self.protocol.notify(CATALOG_CHANGED, payload)

    def schedule_live_check(self, path: str) -> None:
        """Re-check an edited buffer once typing pauses (push clients; pull clients ask by themselves)."""
        if self.client.pull_diagnostics:
            return
        timer = self._live_timers.pop(path, None)
        if timer is not None:
            timer.cancel()
        loop = asyncio.get_running_loop()
        self._live_timers[path] = loop.call_later(LIVE_DEBOUNCE_SECONDS, self._live_check, path)

    def _live_check(self, path: str) -> None:
        self._live_timers.pop(path, None)
        guarded(lambda: self.publish(path, self.buffers()), "live diagnostics")

    # --- settings --------------------------------------------------------------------------------------------

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
            set_client_level(self._log_handler, new.log_level)
        if not self.ready.is_set():
            return  # still starting: `start_sessions` discovers with these settings
        if old.discovery_key() != new.discovery_key():
            self.workspaces.rebuild()
        if new.enable and (old.discovery_key() != new.discovery_key() or not old.enable):
            self.workspaces.reload_all()  # new roots, or the disk may have changed while we were off
        if old.inline_key() != new.inline_key():
            self.refresh_inline_features()  # before the announcement below: a client waiting on it has both
        if old != new:
            self.refresh_diagnostics("settings")

    def refresh_inline_features(self) -> None:
        """An editor shows old lenses and hints until the document changes, or until asked to ask again (only
        clients that declared refresh support are asked; the others ask again on their own)."""
        if self.client.code_lens and self.client.code_lens_refresh:
            self.workspace_code_lens_refresh(None)
        if self.client.inlay_hints and self.client.inlay_hint_refresh:
            self.workspace_inlay_hint_refresh(None)

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

    def forward_logs(self) -> None:
        """Send our own log records at or above `albedoSkills.logLevel` to the client's log."""
        self._log_handler = ClientLogHandler(self)
        set_client_level(self._log_handler, self.settings.log_level)
        log.addHandler(self._log_handler)

    # --- start-up --------------------------------------------------------------------------------------------

    async def start_sessions(self) -> None:
        """`initialized`: settings, discovery for every session (with progress), diagnostics, watchers."""
        await self.pull_configuration()
        self.workspaces.rebuild()
        sessions = self.workspaces.sessions
        token: str | None = None
        if self.client.work_done_progress:
            token = str(uuid.uuid4())
            try:
                await self.work_done_progress.create_async(token)
                begin = types.WorkDoneProgressBegin(title="Albedo skills", message="discovering skills")
                self.work_done_progress.begin(token, begin)
            except Exception as exc:
                log.debug("no progress: %s", exc)
                token = None
        for index, session in enumerate(sessions):
            if self.settings.enable:
                session.reload()
            if token:
                percentage = int(100 * (index + 1) / len(sessions))
                report = types.WorkDoneProgressReport(message=f"{session.workspace or 'user roots'}", percentage=percentage)
                self.work_done_progress.report(token, report)
        if token:
            end = types.WorkDoneProgressEnd(message=f"{self.workspaces.skill_count()} skill(s)")  # diagnostics: announce
            self.work_done_progress.end(token, end)
        try:
            await self.watchers.register(self, self.client, self.workspaces.sessions, self.settings)
        except Exception as exc:
            log.warning("could not register file watchers: %s", exc)
        self.ready.set()
        self.refresh_diagnostics("initialized")


def guarded(action: Callable[[], Any], what: str) -> Any:
    """Run a background step; a failure is logged, never fatal to the server."""
    try:
        return action()
    except Exception:
        log.exception("%s failed", what)
        return None
