"""The server's sessions: one `SkillsSession` per workspace folder, and which one serves a file.

Part of the server core, and plain Python: no pygls, no lsprotocol, so it is tested and reasoned about
without a client. The server hands it the folders the client declared (`folders`, called when the set is
needed) and the current settings; it keeps a session whose folder and discovery settings did not change,
so a folder that stays keeps its snapshot and parse cache (docs/design.md#6-the-editor-faces).
"""

from __future__ import annotations

import os
from typing import Any, Callable

from ..skills.catalog.session import SkillsSession, placement
from ..skills.core.paths import is_within
from .settings import Settings


class Workspaces:
    """The sessions, in the client's folder order; with no folder, one session over the user roots."""

    def __init__(self, folders: Callable[[], list[str | None]], settings: Callable[[], Settings]) -> None:
        self._folders = folders
        self._settings = settings
        self.sessions: list[SkillsSession] = []

    def rebuild(self) -> None:
        """Sessions for the current folders and settings; kept where nothing that matters changed."""
        settings = self._settings()
        current = {session.workspace: session for session in self.sessions}
        wanted = []
        for folder in self._folders():
            key = os.path.abspath(folder) if folder else None
            session = current.get(key)
            if session is None or (session.user_roots, session.home, session.builtins) != settings.discovery_key():
                session = SkillsSession(
                    folder, settings.home, user_roots=settings.user_roots, builtins=settings.builtin_commands
                )
            wanted.append(session)
        self.sessions = wanted

    def primary(self) -> SkillsSession:
        """The first folder's session (the one a request without a folder uses)."""
        if not self.sessions:
            self.rebuild()
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
        """Discovery again for every session; each swaps its own snapshot."""
        return [session.reload() for session in self.sessions]

    def skill_count(self) -> int:
        """The skills of every session's snapshot (what start-up and reloads announce; the diagnostics they
        announce are counted from what the client is given, `LanguageServer.refresh_diagnostics`)."""
        return sum(len(session.snapshot.skills) for session in self.sessions)
