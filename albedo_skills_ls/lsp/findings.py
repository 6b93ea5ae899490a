"""Which diagnostics each file has now, decided by the file's kind (the one place).

Part of the server core, and plain Python: no pygls. An open `SKILL.md` is checked from its buffer
(`check_buffer`, with `command-unknown`), a chat buffer's `/commands` against its folder's catalog
(`slash.check_chat`), any other file is what the snapshot found on disk, with the `command-unknown` of its
saved text (`command_findings.py`); the security reading adds its findings (of the buffer when the
file is open, of the saved files otherwise; `security_findings.py`); then the agents chosen in
`albedoSkills.hosts` add their refusals, and the whole is bounded per file (`skills/core/limits.py` MAX_FILE_DIAGNOSTICS). Each call is handed
the open documents as one snapshot (lsp/buffers.py `Buffers`, taken by the server): a publish reads each
buffer once, and the text checked here is the text its ranges are converted on.
"""

from __future__ import annotations

from typing import Callable, Mapping, Protocol

from ..skills.language import slash
from ..skills.catalog.session import SkillsSession, bounded_file_diagnostics, check_buffer
from ..skills.core.model import Diagnostic
from .command_findings import CommandFindings
from .host_findings import HostFindings
from .security_findings import SecurityFindings, bundling_folder, policy_of, user_folders_open
from .settings import Settings
from .workspaces import Workspaces



class OpenBuffer(Protocol):
    """What this module reads of `documents.OpenDocument`."""

    @property
    def kind(self) -> str | None: ...

    @property
    def text(self) -> str: ...


class OpenBuffers(Protocol):
    """What this module reads of a snapshot of the open documents (`buffers.Buffers`)."""

    def at(self, path: str) -> OpenBuffer | None: ...

    def is_open(self, path: str) -> bool: ...

    def kind(self, path: str) -> str | None: ...

    def paths(self) -> list[str]: ...


class Findings:
    def __init__(
        self,
        workspaces: Workspaces,
        settings: Callable[[], Settings],
    ) -> None:
        self.workspaces = workspaces
        self._settings = settings
        self.host_findings = HostFindings()  # other agents' verdicts (`albedoSkills.hosts`, the hover)
        self.security_findings = SecurityFindings()  # the security reading (`albedoSkills.security.*`)
        self.command_findings = CommandFindings()  # `command-unknown` in buffers and saved files

    def clear(self) -> None:
        """The disk or the settings changed: other agents' verdicts and the security reading are read again."""
        self.host_findings.clear()
        self.security_findings.clear()
        self.command_findings.clear()

    def for_file(self, path: str, buffers: OpenBuffers) -> tuple[Diagnostic, ...]:
        """What the editor shows for one file now: bounded (skills/core/limits.py MAX_FILE_DIAGNOSTICS)."""
        return bounded_file_diagnostics(path, self._unbounded(path, buffers))

    def _unbounded(self, path: str, buffers: OpenBuffers) -> tuple[Diagnostic, ...]:
        """Albedo's findings for one file, then the chosen agents' refusals (`albedoSkills.hosts`)."""
        settings = self._settings()
        own = self._own(path, buffers)
        if not settings.enable or not settings.hosts:
            return own
        return own + self.hosts_diagnostics(self.workspaces.session_for(path)).get(path, ())

    def hosts_diagnostics(self, session: SkillsSession) -> dict[str, tuple[Diagnostic, ...]]:
        settings = self._settings()
        return self.host_findings.diagnostics(session.workspace, settings.home_folder(), settings.hosts)

    def _own(self, path: str, buffers: OpenBuffers) -> tuple[Diagnostic, ...]:
        """One file's diagnostics now: an open buffer is checked from its text, any other from the snapshot;
        then the security reading's, of the same text."""
        settings = self._settings()
        if not settings.enable:
            return ()
        document = buffers.at(path)
        policy = policy_of(settings)
        if document is not None and document.kind == "skill":
            own = check_buffer(self.workspaces.session_placing(path).snapshot, path, document.text)
            commands = self.command_findings.in_buffer(
                self.workspaces.session_for(path).snapshot, path, document.text, skill_file=True
            )
            own += tuple(unknown.diagnostic for unknown in commands)
            return by_position(own + self.security_findings.in_buffer(path, document.text, "skill", policy))
        if document is not None and document.kind == "chat":  # its `/commands`, against its folder's catalog
            catalog = self.workspaces.session_for(path).snapshot
            return slash.check_chat(catalog, path, document.text, self.command_findings.commands(catalog))
        if document is not None and document.kind == "instructions":  # AGENTS.md...: its `/commands`, as typed
            catalog = self.workspaces.session_for(path).snapshot
            commands = self.command_findings.in_buffer(catalog, path, document.text, skill_file=False)
            return tuple(unknown.diagnostic for unknown in commands)
        if document is not None and self.bundled(path):  # a file a skill bundles, open: its unsaved text
            return self.security_findings.in_buffer(path, document.text, "bundled", policy)
        # imported here: the reading's review brings hashing (baselines), which an editor's start does without
        from ..skills.security.review import beside_own

        found: tuple[Diagnostic, ...] = ()
        for session in self.workspaces.sessions:
            known = session.snapshot.file_diagnostics.get(path)
            if known is not None:
                found = known
                break
        for session in self.workspaces.sessions:
            commands = self.commands_on_disk(session).get(path)
            if commands:
                found = by_position(found + commands)
                break
        for session in self.workspaces.sessions:
            security = beside_own(self.security_on_disk(session, buffers).get(path, ()), found)
            if security:
                return by_position(found + security)
        return found

    def security_on_disk(self, session: SkillsSession, buffers: OpenBuffers) -> Mapping[str, tuple[Diagnostic, ...]]:
        """The security reading as saved, per file: a folder's workspace skills, and its user-root skills with
        a file open."""
        opened = user_folders_open(session.snapshot, buffers.paths())
        return self.security_findings.on_disk(session.workspace, session.snapshot, policy_of(self._settings()), opened)

    def in_user_skill(self, path: str) -> bool:
        """Whether `path` is a file of a user-root skill (opening or closing one changes what is read)."""
        return any(user_folders_open(session.snapshot, (path,)) for session in self.workspaces.sessions)

    def commands_on_disk(self, session: SkillsSession) -> Mapping[str, tuple[Diagnostic, ...]]:
        """`command-unknown` of a folder's saved skills, agent files and chat files, per file."""
        return self.command_findings.on_disk(session, self._settings().chat_file_patterns)

    def bundled(self, path: str) -> bool:
        """Whether `path` is a file some skill of the catalogs bundles (checked live when open)."""
        return bundling_folder([session.snapshot for session in self.workspaces.sessions], path) is not None

    def checks_live(self, path: str, buffers: OpenBuffers) -> bool:
        """Whether an open file is checked as typed: a SKILL.md, a chat buffer, or a file a skill bundles
        while the security reading is on."""
        if not buffers.is_open(path):  # its kind, not its text: a change is classified without reading it
            return False
        return buffers.kind(path) is not None or (self._settings().security and self.bundled(path))

    def everything(self, buffers: OpenBuffers) -> dict[str, tuple[Diagnostic, ...]]:
        """Every file known to any snapshot, plus open `SKILL.md`, chat and instruction-file buffers (first
        session wins shared files)."""
        settings = self._settings()
        if not settings.enable:
            return {}
        paths: dict[str, None] = {}
        for session in self.workspaces.sessions:
            paths.update(dict.fromkeys(session.snapshot.file_diagnostics))
            if settings.hosts:  # files only other agents read (.claude/skills...) have findings too
                paths.update(dict.fromkeys(self.hosts_diagnostics(session)))
            paths.update(dict.fromkeys(self.security_on_disk(session, buffers)))  # bundled files too
            paths.update(dict.fromkeys(self.commands_on_disk(session)))  # agent and chat files too
        for path in buffers.paths():
            if self.checks_live(path, buffers):
                paths[path] = None
        return {path: self.for_file(path, buffers) for path in paths}


def by_position(found: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
    return tuple(sorted(found, key=lambda diagnostic: diagnostic.sort_key))
