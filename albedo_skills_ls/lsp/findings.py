"""Which diagnostics each file has now, decided by the file's kind (the one place).

Part of the server core, and plain Python: no pygls. An open `SKILL.md` is checked from its buffer
(`check_buffer`), a chat buffer's `/commands` against its folder's catalog (`slash.check_chat`), any other
file is what the snapshot found on disk; then the agents chosen in `albedoSkills.hosts` add their refusals,
and the whole is bounded per file (`skills/limits.py` MAX_FILE_DIAGNOSTICS). The server hands in how to
find an open document and which files are open.
"""

from __future__ import annotations

from typing import Callable, Iterable, Protocol

from ..skills import slash
from ..skills.catalog import SkillsSession, bounded_file_diagnostics, check_buffer
from ..skills.model import Diagnostic
from .host_findings import HostFindings
from .settings import Settings
from .workspaces import Workspaces



class OpenBuffer(Protocol):
    """What this module reads of `documents.OpenDocument` (that module reaches pygls; this one must not)."""

    @property
    def kind(self) -> str | None: ...

    @property
    def text(self) -> str: ...


class Findings:
    def __init__(
        self,
        workspaces: Workspaces,
        settings: Callable[[], Settings],
        open_document: Callable[[str], OpenBuffer | None],
        open_paths: Callable[[], Iterable[str]],
    ) -> None:
        self.workspaces = workspaces
        self._settings = settings
        self._open_document = open_document  # by path
        self._open_paths = open_paths
        self.host_findings = HostFindings()  # other agents' verdicts (`albedoSkills.hosts`, the hover)

    def for_file(self, path: str) -> tuple[Diagnostic, ...]:
        """What the editor shows for one file now: bounded (skills/limits.py MAX_FILE_DIAGNOSTICS)."""
        return bounded_file_diagnostics(path, self._unbounded(path))

    def _unbounded(self, path: str) -> tuple[Diagnostic, ...]:
        """Albedo's findings for one file, then the chosen agents' refusals (`albedoSkills.hosts`)."""
        settings = self._settings()
        own = self._own(path)
        if not settings.enable or not settings.hosts:
            return own
        return own + self.hosts_diagnostics(self.workspaces.session_for(path)).get(path, ())

    def hosts_diagnostics(self, session: SkillsSession) -> dict[str, tuple[Diagnostic, ...]]:
        settings = self._settings()
        return self.host_findings.diagnostics(session.workspace, settings.home_folder(), settings.hosts)

    def _own(self, path: str) -> tuple[Diagnostic, ...]:
        """One file's diagnostics now: an open buffer is checked from its text, any other from the snapshot."""
        if not self._settings().enable:
            return ()
        document = self._open_document(path)
        if document is not None and document.kind == "skill":
            return check_buffer(self.workspaces.session_placing(path).snapshot, path, document.text)
        if document is not None and document.kind == "chat":  # its `/commands`, against its folder's catalog
            return slash.check_chat(self.workspaces.session_for(path).snapshot, path, document.text)
        for session in self.workspaces.sessions:
            found = session.snapshot.file_diagnostics.get(path)
            if found is not None:
                return found
        return ()

    def everything(self) -> dict[str, tuple[Diagnostic, ...]]:
        """Every file known to any snapshot, plus open `SKILL.md` and chat buffers (first session wins shared
        files)."""
        settings = self._settings()
        if not settings.enable:
            return {}
        paths: dict[str, None] = {}
        for session in self.workspaces.sessions:
            paths.update(dict.fromkeys(session.snapshot.file_diagnostics))
            if settings.hosts:  # files only other agents read (.claude/skills...) have findings too
                paths.update(dict.fromkeys(self.hosts_diagnostics(session)))
        for path in self._open_paths():
            document = self._open_document(path)
            if document is not None and document.kind is not None:
                paths[path] = None
        return {path: self.for_file(path) for path in paths}
