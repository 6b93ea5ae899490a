"""The security reading for the server: the workspace skills' findings, one review per workspace folder kept
until the next reload, and the live reading of an open buffer.

Part of the server core. Which skills are read by default: those in the workspace roots (`.albedo/skills`,
`.agents/skills`), the ones the person is writing or has just brought into the project; a user-root skill
is read when its `SKILL.md` or one of its files is open. `albedoSkills.security.enable` turns the category
off, `albedoSkills.security.disabledCodes` single codes; inline markers apply as on the command line.
The review reads every file a skill bundles, so it is computed once per snapshot and dropped when the
catalog is reloaded or settings change (`AlbedoLanguageServer.refresh_diagnostics`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Mapping

from ..skills.catalog import placement
from ..skills.discovery import SKILL_FILE
from ..skills.model import Catalog, Diagnostic
from ..skills.paths import is_within

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..skills.security.review import Policy, Review

    from .settings import Settings


def policy_of(settings: Settings) -> Policy:
    from ..skills.security.review import Policy

    return Policy(settings.enable and settings.security, frozenset(settings.security_disabled_codes))


def skill_folders(snapshot: Catalog) -> list[str]:
    """The folders of every `SKILL.md` discovery examined, with the scope of the root each sits in."""
    return [os.path.dirname(path) for path in snapshot.file_diagnostics if os.path.basename(path) == SKILL_FILE]


def workspace_folders(snapshot: Catalog) -> list[str]:
    folders = []
    for folder in skill_folders(snapshot):
        where = placement(snapshot, os.path.join(folder, SKILL_FILE))
        if where is not None and where.scope == "workspace":
            folders.append(folder)
    return folders


def bundling_folder(snapshots: list[Catalog], path: str) -> str | None:
    """The skill folder (of any root) that holds `path` as one of its files, other than its `SKILL.md`."""
    if os.path.basename(path) == SKILL_FILE:
        return None
    for snapshot in snapshots:
        for folder in skill_folders(snapshot):
            if is_within(path, folder) and path != folder:
                return folder
    return None


class SecurityFindings:
    def __init__(self) -> None:
        self._reviews: dict[str | None, Review] = {}

    def clear(self) -> None:
        self._reviews.clear()

    def on_disk(self, workspace: str | None, snapshot: Catalog, policy: Policy) -> Mapping[str, tuple[Diagnostic, ...]]:
        """The workspace skills' findings per file, as saved (none when the category is off); read-only, not
        copied: the server asks once per file."""
        if not policy.enabled:
            return {}
        review = self._reviews.get(workspace)
        if review is None:
            from ..skills.security.review import review_folders

            review = self._reviews[workspace] = review_folders(workspace_folders(snapshot), policy)
        return review.findings

    @staticmethod
    def in_buffer(path: str, text: str, kind: str, policy: Policy) -> tuple[Diagnostic, ...]:
        """An open buffer's findings, from its unsaved text."""
        from ..skills.security.review import review_buffer

        return review_buffer(path, text, kind, policy).findings.get(path, ())
