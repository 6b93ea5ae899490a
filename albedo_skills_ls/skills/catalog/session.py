"""One session's catalog: discovery settings, the parse cache, and the snapshot swapped on reload.

`SkillsSession.snapshot` is always one complete `Catalog`; `reload()` builds the next one aside and swaps a
single reference, so a reader that took the snapshot once never sees half of each (docs/design.md#4-one-immutable-snapshot).
`check_buffer` validates an editor buffer against the current snapshot without touching the disk.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any, Iterable

from ..core import codes, limits
from .discovery import DEFAULT_BUILTINS, ParseCache, discover
from ..core.model import SEVERITY_RANK, Catalog, Diagnostic, Scope
from .references import check_references
from ..resources.paging import EncodingVerdicts
from ..document.rules import ParsedSkill, check_document
from ..document.skill_file import SKILL_FILE, read_skill_text
from .winners import collision, command_collision


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a `SKILL.md` sits relative to a catalog's roots: which root (by precedence) and its folder."""

    root_index: int
    root: str
    scope: Scope
    folder_name: str


def placement(catalog: Catalog, path: str) -> Placement | None:
    """The root a `SKILL.md` path is a candidate of (`ROOT/NAME/SKILL.md`), or None when outside every root."""
    folder, file_name = os.path.split(os.path.abspath(path))
    if file_name != SKILL_FILE:
        return None
    parent, folder_name = os.path.split(folder)
    for index, root in enumerate(catalog.roots):
        if os.path.normpath(root.path) == parent:
            return Placement(index, root.path, root.scope, folder_name)
    return None


def bounded_file_diagnostics(path: str, found: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
    """At most MAX_FILE_DIAGNOSTICS of one file's diagnostics, the most severe first and in document order
    among equals, plus one `diagnostic-limit` note saying how many more there are. A file full of broken
    links (or a chat buffer of 200,000 unknown commands) stays one screenful, cheap to send and to show."""
    if len(found) <= limits.MAX_FILE_DIAGNOSTICS:
        return found
    kept = sorted(found, key=lambda d: (SEVERITY_RANK[d.severity], d.range.start, d.code))[: limits.MAX_FILE_DIAGNOSTICS]
    more = len(found) - len(kept)
    note = codes.DIAGNOSTIC_LIMIT.at(
        path,
        f"{more:,} more diagnostic{' is' if more == 1 else 's are'} not shown for this file (the editor shows at most "
        f"{limits.MAX_FILE_DIAGNOSTICS}); fix these, or run `albedo-skills check` to list them all",
    )
    return (note, *sorted(kept, key=lambda d: d.sort_key))


def check_buffer(catalog: Catalog, path: str, text: str) -> tuple[Diagnostic, ...]:
    """Diagnostics for an open buffer: its own rules from `text`, collisions from the snapshot.

    A `SKILL.md` outside every root is checked as a single skill: its folder's name is the expected name and
    no collision rules apply (docs/design.md#6-the-editor-faces).
    """
    where = placement(catalog, path)
    folder_name = where.folder_name if where else os.path.basename(os.path.dirname(os.path.abspath(path)))
    parsed = check_document(text, path, folder_name)
    found = list(parsed.diagnostics)
    found.extend(check_references(path, parsed.references))  # re-checked on disk at every check
    if where is not None and parsed.valid and parsed.name is not None:
        holder = catalog.skill(parsed.name)
        if holder is not None and holder.path != path:
            holder_place = placement(catalog, holder.path)
            if holder_place is not None and (holder_place.root_index, holder_place.folder_name) < (
                where.root_index,
                where.folder_name,
            ):
                winner = check_document(read_skill_text(holder.path) or "", holder.path, holder_place.folder_name)
                if winner.name != holder.name:  # gone or changed on disk since the snapshot: the snapshot wins
                    winner = ParsedSkill(holder.path, holder.name, holder.description, None, ())
                found.append(collision(parsed, where.scope, winner, holder.scope))
        if parsed.name in catalog.builtins and not any(d.code == codes.COLLISION.id for d in found):
            found.append(command_collision(parsed))
    return tuple(sorted(found, key=lambda d: d.sort_key))


class SkillsSession:
    """Discovery for one workspace folder (or none), with the snapshot every feature reads."""

    def __init__(
        self,
        workspace: str | None,
        home: str | None = None,
        *,
        user_roots: bool = True,
        builtins: Iterable[str] = DEFAULT_BUILTINS,
    ) -> None:
        self.workspace = os.path.abspath(workspace) if workspace is not None else None
        self.home = home
        self.user_roots = user_roots
        self.builtins = tuple(builtins)
        self._cache = ParseCache()
        # skills.read pages: the encoding of each file read, so later pages read only themselves
        self.encoding_verdicts = EncodingVerdicts()
        self._lock = threading.Lock()  # one rebuild at a time; readers never wait
        self._snapshot: Catalog | None = None

    @property
    def snapshot(self) -> Catalog:
        snapshot = self._snapshot
        if snapshot is None:
            self.reload()
            snapshot = self._snapshot
            assert snapshot is not None
        return snapshot

    def reload(self) -> dict[str, Any]:
        """Discover again, swap the snapshot, and summarise what changed (the `skills.reload` result)."""
        with self._lock:
            before = self._snapshot
            after = discover(
                self.workspace,
                self.home,
                user_roots=self.user_roots,
                builtins=self.builtins,
                cache=self._cache,
            )
            self._snapshot = after  # the one atomic swap
        return reload_summary(before, after)


def reload_summary(before: Catalog | None, after: Catalog) -> dict[str, Any]:
    old = {s.name: s for s in before.skills} if before else {}
    new = {s.name: s for s in after.skills}
    return {
        "skills": len(after.skills),
        "diagnostics": len(after.diagnostics),
        "added": sorted(new.keys() - old.keys()),
        "removed": sorted(old.keys() - new.keys()),
        "changed": sorted(name for name in new.keys() & old.keys() if new[name] != old[name]),
    }
