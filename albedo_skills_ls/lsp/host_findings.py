"""Other agents' verdicts for the server: one report per workspace folder, kept until the next reload.

The `albedoSkills.hosts` setting names the agents whose refusals become diagnostics; the hover on a
SKILL.md's opening `---` shows every agent. A report walks every agent's roots and reads their files, so the
walk and each agent's verdicts are computed once per (folder, home), shared by the diagnostics (the chosen
agents) and the hover (every agent), and dropped when the catalog is reloaded or settings change
(`AlbedoLanguageServer.refresh_diagnostics`). It reads files as saved: a buffer's unsaved text is Albedo's
to check, the agents read the disk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..skills.core.model import Diagnostic

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..skills.hosts import Report, Walked
    from ..skills.hosts.verdicts import HostReport

Key = tuple[str | None, str, tuple[str, ...] | None]


class HostFindings:
    def __init__(self) -> None:
        self._reports: dict[Key, Report] = {}
        self._diagnostics: dict[Key, dict[str, tuple[Diagnostic, ...]]] = {}
        self._walks: dict[tuple[str | None, str], Walked] = {}
        self._judged: dict[tuple[str | None, str], dict[str, HostReport]] = {}  # by (folder, home), by agent

    def clear(self) -> None:
        self._walks.clear()
        self._judged.clear()
        self._reports.clear()
        self._diagnostics.clear()

    def report(self, workspace: str | None, home: str, ids: tuple[str, ...] | None) -> Report:
        from ..skills.hosts import report, walked

        key = (workspace, home, ids)
        found = self._reports.get(key)
        if found is None:
            place = (workspace, home)
            if place not in self._walks:
                self._walks[place] = walked(workspace, home)
            judged = self._judged.setdefault(place, {})
            found = self._reports[key] = report(workspace, home, ids, self._walks[place], judged)
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
