"""Other agents' verdicts for the server: one report per workspace folder, kept until the next reload.

The `albedoSkills.hosts` setting names the agents whose refusals become diagnostics; the hover on a
SKILL.md's opening `---` shows every agent. A report walks every agent's roots and reads their files, so it
is computed once per (folder, home, agents) and dropped when the catalog is reloaded or settings change
(`AlbedoLanguageServer.refresh_diagnostics`). It reads files as saved: a buffer's unsaved text is Albedo's
to check, the agents read the disk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..skills.model import Diagnostic

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..skills.hosts import Report

Key = tuple[str | None, str, tuple[str, ...] | None]


class HostFindings:
    def __init__(self) -> None:
        self._reports: dict[Key, Report] = {}
        self._diagnostics: dict[Key, dict[str, tuple[Diagnostic, ...]]] = {}

    def clear(self) -> None:
        self._reports.clear()
        self._diagnostics.clear()

    def report(self, workspace: str | None, home: str, ids: tuple[str, ...] | None) -> Report:
        from ..skills.hosts import report

        key = (workspace, home, ids)
        found = self._reports.get(key)
        if found is None:
            found = self._reports[key] = report(workspace, home, ids)
        return found

    def diagnostics(self, workspace: str | None, home: str, ids: tuple[str, ...]) -> dict[str, tuple[Diagnostic, ...]]:
        """The chosen agents' refusals per file (none when no agent is chosen)."""
        if not ids:
            return {}
        key = (workspace, home, ids)
        found = self._diagnostics.get(key)
        if found is None:
            from ..skills.hosts.diagnostics import host_diagnostics

            found = self._diagnostics[key] = host_diagnostics(self.report(workspace, home, ids))
        return found
