"""One generated file of a skill tree: where it goes, its text or the link it is, and what was drawn for it.

Its own module because both readers of generated trees make these: `generate.py` (random cases) and
`shapes.py` (the focused shapes), and the latter is chosen from the former.
"""

from __future__ import annotations

from typing import NamedTuple


class GeneratedCase(NamedTuple):
    path: str  # relative to the tree's base, the file as seen through its root
    text: str
    features: tuple[str, ...]  # what was drawn: "description=colon", "crlf", "name-length=limit", ...
    link: str | None = None  # written as a symbolic link to this target (relative to its folder), not a file

    @property
    def why(self) -> str:
        return ", ".join(self.features)
