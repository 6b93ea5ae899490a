"""The YAML tree both frontmatter readers build: `Scalar`, `Sequence` and `Mapping` nodes with exact ranges.

`fastyaml.parse_common` fills it from the lines of the common frontmatter shape, `yaml_events.parse_yaml_events`
from ruamel.yaml's events (`frontmatter.parse_yaml` picks one); both report a duplicate key with
`duplicate_key`. The modules that read the tree (rules.py, authoring/) import the node types from here.
"""

from __future__ import annotations

from typing import NamedTuple, Union

from ..core import codes
from ..core.model import Diagnostic, Range

# The YAML nodes are NamedTuples: immutable like the rest of the engine's values, and cheap to build, which
# matters because discovery makes one per YAML node (see benchmarks/). Tell node kinds apart with
# isinstance or `__class__`, never with ==, since tuples of equal contents compare equal across classes.


class Scalar(NamedTuple):
    """A string value and where it sits (0-based lines of the document, code-point columns). Its range is
    built only when asked for: most scalars are never placed in a diagnostic, and building three tuples
    per scalar was a third of the parse."""

    value: str
    start_line: int
    start_column: int
    end_line: int
    end_column: int

    @property
    def range(self) -> Range:
        return Range.of(self.start_line, self.start_column, self.end_line, self.end_column)


class Sequence(NamedTuple):
    items: tuple["Node", ...]
    range: Range


class Entry(NamedTuple):
    key: "Node"
    value: "Node"


class Mapping(NamedTuple):
    entries: tuple[Entry, ...]
    range: Range

    def get(self, key: str) -> Entry | None:
        """The first entry with this key (duplicates are diagnosed separately)."""
        for entry in self.entries:
            if entry.key.__class__ is Scalar and entry.key.value == key:
                return entry
        return None


Node = Union[Scalar, Sequence, Mapping]


def duplicate_key(path: str, key: Scalar) -> Diagnostic:
    """The finding for a key that a mapping already holds (both YAML readers report it alike)."""
    return codes.YAML_DUPLICATE_KEY.at(path, f"duplicate key `{key.value}`: keep one of them", key.range)
