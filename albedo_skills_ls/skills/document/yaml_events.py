"""The YAML of a frontmatter block through ruamel.yaml's event stream, folded into the nodes of yamltree.py.

The YAML is never constructed into Python objects by ruamel.yaml. We read its *event* stream and build
our own small tree of `Scalar`, `Mapping` and `Sequence` nodes, which makes the failsafe schema exact
(every scalar stays the string it was written as), lets us reject tags and aliases where they appear,
and keeps the source range of every key and value for diagnostics and editor features. This reads any
YAML that fastyaml.py declines, and is the reference that fast path is tested against.

Nothing here raises on bad input: every problem becomes a `Diagnostic`.
"""

from __future__ import annotations

import io
from typing import Any, Callable

from ..core import codes
from ..core.codes import Code
from ..core.model import Diagnostic, Range
from .yaml_advice import advise
from .yamltree import Entry, Mapping, Node, Scalar, Sequence, duplicate_key

# The failsafe schema's tags; "!" is the non-specific tag of a quoted scalar, which also means "string".
FAILSAFE_TAGS = frozenset({"tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "!"})


class _Yaml:
    """ruamel.yaml, imported on first use: the server answers `initialize` before it pays for the import."""

    loaded = False

    @classmethod
    def load(cls) -> type[_Yaml]:
        if not cls.loaded:
            from ruamel.yaml import events

            try:  # libyaml through ruamel.yaml.clibz: the same events, several times faster
                from ruamel.yaml.cyaml import CParser
            except ImportError:  # pragma: no cover - exercised only where the C extension is missing
                CParser = None
            cls.c_parser = CParser
            cls.scalar, cls.alias = events.ScalarEvent, events.AliasEvent
            cls.sequence_start, cls.sequence_end = events.SequenceStartEvent, events.SequenceEndEvent
            cls.mapping_start, cls.mapping_end = events.MappingStartEvent, events.MappingEndEvent
            cls.document_start = events.DocumentStartEvent
            cls.skipped = (events.StreamStartEvent, events.StreamEndEvent, events.DocumentEndEvent)
            cls.loaded = True
        return cls


def _event_source(yaml: type[_Yaml], yaml_text: str) -> Callable[[], Any]:
    """A function returning the next event; raises StopIteration after the stream's end."""
    if yaml.c_parser is not None:
        return yaml.c_parser(io.StringIO(yaml_text)).get_event
    from ruamel.yaml import YAML  # pragma: no cover - exercised only where the C extension is missing

    return iter(YAML(typ="safe", pure=True).parse(yaml_text)).__next__  # pragma: no cover


class _Builder:
    """Folds the event stream into nodes, collecting tag, alias and duplicate-key findings.

    This is the hot loop of discovery (one call per YAML node), hence class identity checks and marks
    read directly rather than helper calls.
    """

    def __init__(self, yaml: type[_Yaml], next_event: Callable[[], Any], path: str, line_offset: int) -> None:
        self.yaml = yaml
        self.next_event = next_event
        self.path = path
        self.line_offset = line_offset
        self.problems: list[Diagnostic] = []

    def range(self, event: Any) -> Range:
        start, end, offset = event.start_mark, event.end_mark, self.line_offset
        return Range.of(start.line + offset, start.column, end.line + offset, end.column)

    def problem(self, code: Code, message: str, where: Range) -> None:
        self.problems.append(code.at(self.path, message, where))

    def check_node_event(self, event: Any) -> None:
        if event.anchor is not None:
            self.problem(
                codes.YAML_ALIAS,
                f"anchor `&{event.anchor}`: anchors and aliases are not allowed in frontmatter; write the value out "
                "(if the `&` is part of the text, put the value in double quotes)",
                self.range(event),
            )
        tag = event.tag
        if tag is not None and tag not in FAILSAFE_TAGS:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            self.problem(
                codes.YAML_TAG,
                f"tag `{shown}` is not allowed: frontmatter values are plain strings, lists and maps; "
                "remove the tag (if the `!` is part of the text, put the value in double quotes)",
                self.range(event),
            )

    def plain_scalar(self, event: Any) -> Scalar | None:
        """The common case inlined: an untagged, unanchored scalar (None for anything else)."""
        if event.__class__ is not self.yaml.scalar or event.anchor is not None or event.tag is not None:
            return None
        start, end, offset = event.start_mark, event.end_mark, self.line_offset
        return Scalar(event.value, start.line + offset, start.column, end.line + offset, end.column)

    def scalar(self, value: str, event: Any) -> Scalar:
        start, end, offset = event.start_mark, event.end_mark, self.line_offset
        return Scalar(value, start.line + offset, start.column, end.line + offset, end.column)

    def node(self, event: Any) -> Node:
        yaml, kind = self.yaml, event.__class__
        if kind is yaml.alias:
            self.problem(
                codes.YAML_ALIAS,
                f"alias `*{event.anchor}`: anchors and aliases are not allowed in frontmatter; "
                "write the value out (if the `*` is part of the text, put the value in double quotes)",
                self.range(event),
            )
            return self.scalar("", event)
        if event.anchor is not None or event.tag is not None:
            self.check_node_event(event)
        if kind is yaml.scalar:
            return self.scalar(event.value, event)
        next_event, node, plain = self.next_event, self.node, self.plain_scalar
        if kind is yaml.sequence_start:
            items = []
            while (child := next_event()).__class__ is not yaml.sequence_end:
                items.append(plain(child) or node(child))
            return Sequence(tuple(items), Range(self.range(event).start, self.range(child).end))
        if kind is yaml.mapping_start:
            entries = []
            seen: set[str] = set()
            while (child := next_event()).__class__ is not yaml.mapping_end:
                key = plain(child) or node(child)
                value_event = next_event()
                value = plain(value_event) or node(value_event)
                if key.__class__ is Scalar:
                    if key.value in seen:
                        self.problems.append(duplicate_key(self.path, key))
                    seen.add(key.value)
                entries.append(Entry(key, value))
            return Mapping(tuple(entries), Range(self.range(event).start, self.range(child).end))
        raise ValueError(f"unexpected YAML event {kind.__name__}")  # pragma: no cover - parser guarantees nesting


def _reader_position(yaml_text: str, position: int) -> tuple[int, int]:
    """Line and code-point column of a reader error. libyaml (the C parser) reports a UTF-8 byte offset,
    the pure-Python reader a character index."""
    if _Yaml.load().c_parser is not None:
        before = yaml_text.encode("utf-8", "surrogatepass")[:position].decode("utf-8", "ignore")
    else:  # pragma: no cover - exercised only where the C extension is missing
        before = yaml_text[:position]
    line = before.count("\n")
    column = len(before) - (before.rfind("\n") + 1)
    return line, column


def parse_yaml_events(yaml_text: str, path: str, line_offset: int = 0) -> tuple[Node | None, list[Diagnostic]]:
    """`parse_yaml` through ruamel.yaml's event stream: any YAML, and the reference the fast path is
    tested against."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    yaml = _Yaml.load()
    next_event = _event_source(yaml, yaml_text)
    builder = _Builder(yaml, next_event, path, line_offset)
    root: Node | None = None
    try:
        while True:
            try:
                event = next_event()
            except StopIteration:
                break
            kind = event.__class__
            if kind is yaml.document_start:
                if root is not None:
                    builder.problem(
                        codes.YAML_SYNTAX,
                        "the frontmatter holds more than one YAML document: remove the `...` or `---` marker",
                        builder.range(event),
                    )
                    return None, builder.problems
                root = builder.node(next_event())
            elif kind not in yaml.skipped:
                raise ValueError(f"unexpected YAML event {kind.__name__}")  # pragma: no cover
            elif kind is yaml.skipped[1]:  # the stream's end
                break
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line if mark else 0) + line_offset
        column = mark.column if mark else 0
        opened = exc.context_mark
        advice = advise(
            yaml_text.split("\n"),
            exc.context,
            exc.problem,
            (mark.line, column) if mark else (0, 0),
            (opened.line, opened.column) if opened is not None else None,
        )
        if advice is not None:  # a common mistake, in plain words with its fix
            start, end = advice.range.start, advice.range.end
            where = Range.of(start.line + line_offset, start.character, end.line + line_offset, end.character)
            builder.problem(advice.code, advice.message, where)
            return None, builder.problems
        what = " ".join(part for part in (exc.context, exc.problem) if part)
        builder.problem(
            codes.YAML_SYNTAX,
            f"YAML syntax error: {what}: fix the frontmatter; a value that holds `: ` or starts with a special "
            "character goes in double quotes",
            Range.of(line, column, line, column + 1),
        )
        return None, builder.problems
    except ReaderError as exc:  # a character YAML does not allow: place it on that character
        line, column = _reader_position(yaml_text, exc.position)
        character = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        builder.problem(
            codes.YAML_SYNTAX,
            f"character U+{character:04X} is not allowed in YAML ({exc.reason}): remove it or escape it "
            "in a double-quoted string",
            Range.of(line + line_offset, column, line + line_offset, column + 1),
        )
        return None, builder.problems
    except RecursionError:
        builder.problem(
            codes.YAML_SYNTAX,
            "YAML nesting is too deep: flatten the frontmatter", Range.of(line_offset, 0)
        )
        return None, builder.problems
    except (YAMLError, ValueError) as exc:
        builder.problem(
            codes.YAML_SYNTAX,
            f"YAML syntax error: {exc}: fix the frontmatter",
            Range.of(line_offset, 0),
        )
        return None, builder.problems
    if root is None:
        root = Mapping((), Range.of(line_offset, 0))
    return root, builder.problems
