"""Every skill of every root, found by name or description (`workspace/symbol`): the winners, and the copies
a winner hides, told apart.

A query matches when its characters appear in order (a subsequence, case-insensitive) in the name or in the
description: `dmx` finds `demo-extra`. Skills whose name matches come first, then those matched by their
description; winners before hidden copies; then by name and path. An empty query lists every skill.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, NamedTuple

from ..core import codes
from ..catalog.session import placement
from ..core.model import FILE_START, Catalog, Range, Scope
from ..document.rules import check_document
from ..document.skill_file import read_skill_text


class SkillSymbol(NamedTuple):
    name: str
    description: str
    path: str  # its SKILL.md
    range: Range  # its `name:` value
    scope: Scope
    hidden_by: str | None  # the winner's SKILL.md, for a hidden copy

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "path": self.path,
            "range": self.range.to_json(),
            "scope": self.scope,
            "hidden_by": self.hidden_by,
        }


def is_subsequence(query: str, text: str) -> bool:
    """Whether the characters of `query` appear in `text` in order (both already case-folded)."""
    position = 0
    for char in query:
        position = text.find(char, position) + 1
        if position == 0:
            return False
    return True


def _read(path: str, folder_name: str) -> tuple[str | None, str | None, Range]:
    parsed = check_document(read_skill_text(path) or "", path, folder_name)
    return parsed.name, (parsed.description or "").removesuffix("\n"), parsed.name_range or FILE_START


def catalog_symbols(catalog: Catalog) -> list[SkillSymbol]:
    """The winners of the catalog, then the valid copies a `collision` says are hidden."""
    found = []
    for skill in catalog.skills:
        _name, _description, where = _read(skill.path, os.path.basename(skill.folder))
        found.append(SkillSymbol(skill.name, skill.description, skill.path, where, skill.scope, None))
    for path, diagnostics in catalog.file_diagnostics.items():
        hidden = next((d for d in diagnostics if d.code == codes.COLLISION.id and d.related), None)
        place = placement(catalog, path)
        if hidden is None or place is None:
            continue
        name, description, where = _read(path, place.folder_name)
        if name is not None:
            found.append(SkillSymbol(name, description or "", path, where, place.scope, hidden.related[0].path))
    return found


def find_symbols(catalogs: Iterable[Catalog], query: str) -> list[SkillSymbol]:
    """The skills of every catalog (each file once) matching `query`, best first."""
    wanted = query.casefold()
    ranked: dict[str, tuple[tuple[int, int, str, str], SkillSymbol]] = {}
    for catalog in catalogs:
        for symbol in catalog_symbols(catalog):
            if symbol.path in ranked:
                continue
            by_name = is_subsequence(wanted, symbol.name.casefold())
            if not by_name and not is_subsequence(wanted, symbol.description.casefold()):
                continue
            key = (0 if by_name else 1, 0 if symbol.hidden_by is None else 1, symbol.name, symbol.path)
            ranked[symbol.path] = (key, symbol)
    return [symbol for _key, symbol in sorted(ranked.values())]
