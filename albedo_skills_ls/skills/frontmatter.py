"""Reading a `SKILL.md`: bytes to text, the `---` block, and a failsafe YAML tree with exact ranges.

The YAML is never constructed into Python objects by ruamel.yaml. We read its *event* stream and build
our own small tree of `Scalar`, `Mapping` and `Sequence` nodes, which makes the failsafe schema exact
(every scalar stays the string it was written as), lets us reject tags and aliases where they appear,
and keeps the source range of every key and value for diagnostics and editor features.

Nothing here raises on bad input: every problem becomes a `Diagnostic`.
"""

from __future__ import annotations

import io
import re
from typing import Any, Callable, NamedTuple

from . import codes
from .codes import Code
from .fastyaml import parse_common
from .limits import MAX_FRONTMATTER_BYTES
from .model import Diagnostic, Position, Range
from .yamltree import Entry, Mapping, Node, Scalar, Sequence, duplicate_key

BOM = "\ufeff"
DELIMITER = "---"
_OPENING_RANGE = Range.of(0, 0, 0, len(DELIMITER))  # the opening `---` (ranges are immutable: one for all)

# The failsafe schema's tags; "!" is the non-specific tag of a quoted scalar, which also means "string".
FAILSAFE_TAGS = frozenset({"tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "!"})


class Frontmatter(NamedTuple):
    """Where the frontmatter sits in the document and what it holds.

    `root` is None when the block could not be parsed (its diagnostics say why); an empty block gives an
    empty `Mapping`. `end_line` is the line of the closing `---`; the body starts on the line after it, at
    offset `body_start` of the text.
    """

    root: Node | None
    end_line: int
    delimiter_range: Range  # the opening `---`
    body_start: int  # the offset of the body in the text: just after the closing `---` line's end


class SkillText(NamedTuple):
    """The result of reading one document: its text, its frontmatter (if any) and the reader's findings."""

    text: str | None  # None when the bytes are not UTF-8
    frontmatter: Frontmatter | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def lines(self) -> list[str]:
        """`lines_of(text)`, split when asked for: checking the usual document never needs its lines, and
        splitting it was a tenth of discovery (docs/performance.md, round 4)."""
        return lines_of(self.text) if self.text is not None else []

    @property
    def body(self) -> str:
        """The Markdown after the closing `---` line ("" when there is no frontmatter block)."""
        if self.text is None or self.frontmatter is None:
            return ""
        return self.text[self.frontmatter.body_start :]


def decode(data: bytes, path: str) -> tuple[str | None, Diagnostic | None]:
    """UTF-8 with an optional BOM; bad bytes give an `encoding` diagnostic placed at the first of them."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8").removeprefix(BOM)
        line = good.count("\n")
        character = len(good) - (good.rfind("\n") + 1)
        return None, codes.ENCODING.at(
            path,
            f"byte 0x{data[exc.start]:02x} at offset {exc.start} is not valid UTF-8: "
            "save the file as UTF-8",
            Range.of(line, character, line, character + 1),
        )
    return text.removeprefix(BOM), None


def read_text(data: bytes | str, path: str) -> SkillText:
    """Read a whole `SKILL.md` (bytes from disk, or a buffer's text) into its parts."""
    if isinstance(data, bytes):
        text, problem = decode(data, path)
        if text is None:
            return SkillText(None, None, (problem,) if problem else ())
    else:
        text = data.removeprefix(BOM)
    return split_and_parse(text, path)


def _strip_eol(line: str) -> str:
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    return line


def _may_hold_other_breaks(text: str) -> bool:
    """Whether `text` may hold a character other than `\n` that str.splitlines ends a line at."""
    return (
        "\r" in text
        or "\x0b" in text
        or "\x0c" in text
        or "\x1c" in text
        or "\x1d" in text
        or "\x1e" in text
        or not text.isascii()  # then also \x85, U+2028 and U+2029
    )


def lines_of(text: str) -> list[str]:
    """Lines with their ends kept. Only `\n` (so also `\r\n`) ends a line, as in YAML and in LSP."""
    lines = text.splitlines(keepends=True)
    # str.splitlines also splits on \r alone, \v, \f, \x1c.. and U+2028: then it finds more lines than
    # there are `\n`s, and a plain split is right. Those characters are rare, and looking for each is
    # cheaper than counting the line feeds.
    if _may_hold_other_breaks(text) and len(lines) != text.count("\n") + (not text.endswith("\n") and bool(text)):
        parts = text.split("\n")
        lines = [part + "\n" for part in parts[:-1]]
        if parts[-1]:
            lines.append(parts[-1])
    return lines


def opens_frontmatter(lines: list[str]) -> bool:
    """Whether the first line is exactly `---` (its line end aside): the file has a frontmatter block."""
    return bool(lines) and _strip_eol(lines[0]) == DELIMITER


def _opening_end(text: str) -> int | None:
    """The offset of the line feed that ends an opening `---` line 0 (len(text) when the text is that line
    alone), or None when line 0 is not exactly `---`: `opens_frontmatter` on the text itself."""
    end = text.find("\n")
    if end < 0:
        end = len(text)
    return end if _strip_eol(text[:end]) == DELIMITER else None


def closing_start(text: str) -> int | None:
    """The offset of the `---` line that closes a frontmatter opened on line 0 (trailing spaces or tabs
    allowed), or None when no later line closes it. The one definition of where a frontmatter ends.

    Only lines that start with `---` are looked at, each found by one substring search, so the usual
    document is decided in a few calls however long it is."""
    end = text.find("\n")
    while end >= 0:
        found = text.find("\n" + DELIMITER, end)
        if found < 0:
            return None
        start = found + 1
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        if line.removesuffix("\r").rstrip(" \t") == DELIMITER:
            return start
    return None


def closing_line(lines: list[str]) -> int | None:
    """The line number of `closing_start`, for callers that hold the lines (editor features)."""
    text = "".join(lines)
    start = closing_start(text)
    return None if start is None else text.count("\n", 0, start)


_KEY_LINE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*[ \t]*:")


def late_opening(lines: list[str]) -> int | None:
    """The line of a frontmatter that opens after text or blank lines: the first `---` line, when the next
    line that is not blank looks like a `key:` line. None otherwise (a `---` then prose is a thematic break)."""
    for number, line in enumerate(lines):
        if _strip_eol(line) != DELIMITER:
            continue
        following = next((_strip_eol(later) for later in lines[number + 1 :] if _strip_eol(later).strip()), "")
        return number if _KEY_LINE.match(following) else None
    return None


def _late_opening(lines: list[str]) -> str | None:
    """What `frontmatter-missing` says when the frontmatter opens late: the first line must be the `---`."""
    number = late_opening(lines)
    if number is None:
        return None
    if all(not _strip_eol(line).strip() for line in lines[:number]):
        blanks = "1 blank line comes" if number == 1 else f"{number} blank lines come"
        return f"`---` must be the first line of SKILL.md, but {blanks} before it: remove them"
    before = "the line" if number == 1 else f"the {number} lines"
    return (
        f"the frontmatter opens on line {number + 1}, after text; `---` must be the first line of "
        f"SKILL.md: remove {before} before it (or move them into the body)"
    )


def split_and_parse(text: str, path: str) -> SkillText:
    """Find the frontmatter block in the text and read its YAML. The usual document is split into lines
    only inside its frontmatter: the offsets found here place the body."""
    opening_end = _opening_end(text)
    if opening_end is None:
        lines = lines_of(text)
        first = _strip_eol(lines[0]) if lines else ""
        return SkillText(
            text,
            None,
            (
                codes.FRONTMATTER_MISSING.at(
                    path,
                    _late_opening(lines)
                    or "SKILL.md must start with a line `---`, then YAML frontmatter with `name` and "
                    "`description`, then a closing `---`",
                    Range.of(0, 0, 0, len(first)),
                ),
            ),
        )
    opening = _OPENING_RANGE
    closing = closing_start(text)
    if closing is None:
        return SkillText(
            text,
            None,
            (
                codes.FRONTMATTER_UNTERMINATED.at(
                    path,
                    "the frontmatter opened here is never closed: add a line `---` after the YAML",
                    opening,
                ),
            ),
        )
    body_start = text.find("\n", closing) + 1 or len(text)
    yaml_text = text[opening_end + 1 : closing]
    size = len(yaml_text) if yaml_text.isascii() else len(yaml_text.encode("utf-8", "surrogatepass"))
    if size > MAX_FRONTMATTER_BYTES:
        end_line = text.count("\n", 0, closing)
        closing_line_text = _strip_eol(text[closing:body_start])
        return SkillText(
            text,
            Frontmatter(None, end_line, opening, body_start),
            (
                codes.FRONTMATTER_TOO_LARGE.at(
                    path,
                    f"the frontmatter is {size:,} bytes, over the {MAX_FRONTMATTER_BYTES:,}-byte limit: "
                    "keep only metadata there and move long text into the body",
                    Range.of(0, 0, end_line, len(closing_line_text)),
                ),
            ),
        )
    # split once, for the fast YAML reader and for the closing line's number (the YAML ends with a line
    # feed, so its lines and the opening one number the closing line)
    yaml_lines = yaml_text.split("\n")
    end_line = len(yaml_lines)
    odd_break = _odd_line_break(yaml_text, 1, path)
    if odd_break is not None:
        return SkillText(text, Frontmatter(None, end_line, opening, body_start), (odd_break,))
    root, problems = parse_yaml(yaml_text, path, line_offset=1, lines=yaml_lines)
    if problems:
        lines = lines_of(text)
        problems = [_inside_lines(diagnostic, lines) for diagnostic in problems]
    return SkillText(text, Frontmatter(root, end_line, opening, body_start), tuple(problems))


def _inside_lines(diagnostic: Diagnostic, lines: list[str]) -> Diagnostic:
    """Keep a parser-placed range on real characters: libyaml may stop *after* the last character of a
    line (`*` alone, an unfinished `&`), and `column + 1` would then point past the line's end."""

    def clamp(position: Position) -> Position:
        line = min(position.line, len(lines) - 1)
        return Position(line, min(position.character, len(_strip_eol(lines[line]))))

    start, end = clamp(diagnostic.range.start), clamp(diagnostic.range.end)
    if (start, end) == (diagnostic.range.start, diagnostic.range.end):
        return diagnostic
    return diagnostic._replace(range=Range(start, end))


# YAML also ends lines at a lone CR, NEL, LS and PS; this project (and LSP, for the last three) does not.
# Rejecting them in the frontmatter keeps every YAML position on the line the editor shows.
_ODD_BREAKS = re.compile("\r(?!\n)|[\x85\u2028\u2029]")


def _odd_line_break(yaml_text: str, first_line: int, path: str) -> Diagnostic | None:
    if not ("\r" in yaml_text or "\x85" in yaml_text or "\u2028" in yaml_text or "\u2029" in yaml_text):
        return None  # the usual case, decided by four scans in C rather than a regex
    found = _ODD_BREAKS.search(yaml_text)
    if found is None:
        return None
    line = first_line + yaml_text.count("\n", 0, found.start())
    column = found.start() - (yaml_text.rfind("\n", 0, found.start()) + 1)
    return codes.YAML_SYNTAX.at(
        path,
        f"character U+{ord(found.group()):04X} breaks the line inside the frontmatter: "
        "use plain line ends (LF or CRLF)",
        Range.of(line, column, line, column + 1),
    )


# --- YAML events to a tree -------------------------------------------------------------------------------

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
                f"anchor `&{event.anchor}`: anchors and aliases are not allowed in frontmatter; write the value out",
                self.range(event),
            )
        tag = event.tag
        if tag is not None and tag not in FAILSAFE_TAGS:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            self.problem(
                codes.YAML_TAG,
                f"tag `{shown}` is not allowed: frontmatter values are plain strings, lists and maps; "
                "remove the tag",
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
                "write the value out",
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


def parse_yaml(
    yaml_text: str, path: str, line_offset: int = 0, lines: list[str] | None = None
) -> tuple[Node | None, list[Diagnostic]]:
    """Parse one YAML document into a node tree. An empty document is an empty mapping.

    The common shape of frontmatter is read by `fastyaml` without importing ruamel.yaml; anything else,
    and anything fastyaml is unsure of, goes through ruamel.yaml's event stream below. `lines` is
    `yaml_text.split("\\n")` when the caller has it."""
    common = parse_common(yaml_text, path, line_offset, lines)
    if common is not None:
        return common
    return parse_yaml_events(yaml_text, path, line_offset)


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
        what = " ".join(part for part in (exc.context, exc.problem) if part)
        builder.problem(
            codes.YAML_SYNTAX,
            f"YAML syntax error: {what}: fix the frontmatter", Range.of(line, column, line, column + 1)
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
