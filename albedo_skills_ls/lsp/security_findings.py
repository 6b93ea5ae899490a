"""The security reading for the server: the workspace skills' findings, one review per workspace folder kept
until the next reload, and the live reading of an open buffer.

Part of the server core. Which skills are read by default: those in the workspace roots (`.albedo/skills`,
`.agents/skills`), the ones the person is writing or has just brought into the project; a user-root skill
is read, every file of its folder as `check` reads it, while its `SKILL.md` or one of its files is open. `albedoSkills.security.enable` turns the category
off, `albedoSkills.security.disabledCodes` single codes; inline markers apply as on the command line, unless
`albedoSkills.security.inlineIgnores` is off (`--no-inline-ignores`).
The review reads every file a skill bundles, so each skill folder's review is kept while nothing in the
folder changed: a reload (after any file event) stats the folder's entries (`folder_signature`, bounded like
the reading's walk) and reads again only the folders whose files changed, were added or removed. A folder
past the walk's bounds is read again every time (never a stale reading).
"""

from __future__ import annotations

import os
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ..skills.catalog.session import placement
from ..skills.core.limits import MAX_RESOURCE_DEPTH, MAX_RESOURCE_ENTRIES
from ..skills.core.model import Catalog, Diagnostic
from ..skills.core.paths import is_within
from ..skills.document.skill_file import SKILL_FILE

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..skills.security.review import Policy, Review

    from .settings import Settings


def policy_of(settings: Settings) -> Policy:
    from ..skills.security.review import Policy

    return Policy(settings.enable and settings.security, frozenset(settings.security_disabled_codes),
                  markers=settings.security_inline_ignores)


def skill_folders(snapshot: Catalog) -> list[str]:
    """The folders of every `SKILL.md` discovery examined, with the scope of the root each sits in."""
    return [os.path.dirname(path) for path in snapshot.file_diagnostics if os.path.basename(path) == SKILL_FILE]


def folders_of_scope(snapshot: Catalog, scope: str) -> list[str]:
    folders = []
    for folder in skill_folders(snapshot):
        where = placement(snapshot, os.path.join(folder, SKILL_FILE))
        if where is not None and where.scope == scope:
            folders.append(folder)
    return folders


def workspace_folders(snapshot: Catalog) -> list[str]:
    return folders_of_scope(snapshot, "workspace")


def user_folders_open(snapshot: Catalog, open_paths: Iterable[str]) -> tuple[str, ...]:
    """The user-root skill folders holding an open file (its `SKILL.md` or a file it bundles): read whole,
    as `check` reads them, while one of their files is open."""
    # Asked once per file of every publish: with no open file under a user root (the usual case) the answer
    # is empty without placing each skill folder of the catalog.
    user_roots = [root.path for root in snapshot.roots if root.scope == "user"]
    opened = [path for path in open_paths if any(is_within(path, root) for root in user_roots)]
    if not opened:
        return ()
    return tuple(folder for folder in folders_of_scope(snapshot, "user")
                 if any(path == folder or is_within(path, folder) for path in opened))


def bundling_folder(snapshots: list[Catalog], path: str) -> str | None:
    """The skill folder (of any root) that holds `path` as one of its files, other than its `SKILL.md`."""
    if os.path.basename(path) == SKILL_FILE:
        return None
    for snapshot in snapshots:
        for folder in skill_folders(snapshot):
            if is_within(path, folder) and path != folder:
                return folder
    return None


def folder_signature(folder: str) -> tuple[Any, ...] | None:
    """What a skill folder holds, as stat sees it (every entry's name, type, size, change time and inode,
    links not followed), or None past MAX_RESOURCE_ENTRIES entries or MAX_RESOURCE_DEPTH levels."""
    entries: list[tuple[Any, ...]] = []
    pending = [(folder, 0)]
    while pending:
        current, depth = pending.pop()
        try:
            with os.scandir(current) as listing:
                for entry in listing:
                    if len(entries) >= MAX_RESOURCE_ENTRIES:
                        return None
                    info = entry.stat(follow_symlinks=False)
                    entries.append(
                        (entry.path, info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
                    )
                    if entry.is_dir(follow_symlinks=False):
                        if depth + 1 > MAX_RESOURCE_DEPTH:
                            return None
                        pending.append((entry.path, depth + 1))
        except OSError:
            return None
    return tuple(sorted(entries))


class SecurityFindings:
    def __init__(self) -> None:
        self._reviews: dict[tuple[str | None, tuple[str, ...]], Mapping[str, tuple[Diagnostic, ...]]] = {}
        # skill folder -> (its signature, the policy, its review): kept across reloads while unchanged
        self._folders: dict[str, tuple[tuple[Any, ...], Policy, Review]] = {}

    def clear(self) -> None:
        """After a reload or a settings change: each folder is compared with its signature again."""
        self._reviews.clear()

    def on_disk(
        self, workspace: str | None, snapshot: Catalog, policy: Policy, user_folders: tuple[str, ...] = ()
    ) -> Mapping[str, tuple[Diagnostic, ...]]:
        """The findings per file, as saved, of the workspace skills and of `user_folders` (user-root skills
        with a file open); none when the category is off. Read-only, not copied: the server asks once per file."""
        if not policy.enabled:
            return {}
        key = (workspace, user_folders)
        found = self._reviews.get(key)
        if found is None:
            merged: dict[str, tuple[Diagnostic, ...]] = {}
            for gone in [folder for folder in self._folders if not os.path.isdir(folder)]:
                del self._folders[gone]  # renamed or removed skills are not remembered
            for folder in [*workspace_folders(snapshot), *user_folders]:
                merged.update(self._folder_review(folder, policy).findings)
            found = self._reviews[key] = MappingProxyType(merged)
        return found

    def _folder_review(self, folder: str, policy: Policy) -> Review:
        from ..skills.security.review import review_folders

        signature = folder_signature(folder)
        kept = self._folders.get(folder)
        if signature is not None and kept is not None and kept[0] == signature and kept[1] == policy:
            return kept[2]
        review = review_folders([folder], policy)
        if signature is not None:
            self._folders[folder] = (signature, policy, review)
        else:
            self._folders.pop(folder, None)
        return review

    @staticmethod
    def in_buffer(path: str, text: str, kind: str, policy: Policy) -> tuple[Diagnostic, ...]:
        """An open buffer's findings, from its unsaved text."""
        from ..skills.security.review import review_buffer

        return review_buffer(path, text, kind, policy).findings.get(path, ())
