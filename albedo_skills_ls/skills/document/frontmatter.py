"""Reading a `SKILL.md`: bytes to text, the `---` block, and a failsafe YAML tree with exact ranges.

The YAML inside the block becomes a tree of yamltree.py's `Scalar`, `Mapping` and `Sequence` nodes, every
scalar the string it was written as and every key and value with its range: fastyaml.py reads the common
shape, yaml_events.py (ruamel.yaml's event stream) everything else. Readers of the tree (rules.py, the
editor features) import its node types from yamltree.py, where they are defined.

Nothing here raises on bad input: every problem becomes a `Diagnostic`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..core import codes
from ..core import programs
from ..core.limits import MAX_FRONTMATTER_BYTES
from ..core.model import Diagnostic, Position, Range

if TYPE_CHECKING:  # pragma: no cover - typing only
    from .yamltree import Node

BOM = "\ufeff"
DELIMITER = "---"
_OPENING_RANGE = Range.of(0, 0, 0, len(DELIMITER))  # the opening `---` (ranges are immutable: one for all)


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


def opening_end(text: str) -> int | None:
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


def body_position(text: str) -> tuple[int, int] | None:
    """(line, offset) where the body of a text starts: after the closing `---` line, or (0, 0) when there
    is no opening `---`. None when the frontmatter is never closed (there is no body). As `split_and_parse`
    places it, for readers of the body that were handed the text alone."""
    if opening_end(text) is None:
        return 0, 0
    closing = closing_start(text)
    if closing is None:
        return None
    return text.count("\n", 0, closing) + 1, text.find("\n", closing) + 1 or len(text)


def closing_line(lines: list[str]) -> int | None:
    """The line number of `closing_start`, for callers that hold the lines (editor features)."""
    text = "".join(lines)
    start = closing_start(text)
    return None if start is None else text.count("\n", 0, start)


_KEY_LINE = programs.compile(r"[A-Za-z_][A-Za-z0-9_-]*[ \t]*:")


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
    block_start = opening_end(text)
    if block_start is None:
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
    yaml_text = text[block_start + 1 : closing]
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
_ODD_BREAKS = programs.compile("\r(?!\n)|[\x85\u2028\u2029]")


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


def parse_yaml(
    yaml_text: str, path: str, line_offset: int = 0, lines: list[str] | None = None
) -> tuple[Node | None, list[Diagnostic]]:
    """Parse one YAML document into a node tree. An empty document is an empty mapping.

    The common shape of frontmatter is read by `fastyaml` without importing ruamel.yaml; anything else,
    and anything fastyaml is unsure of, goes through ruamel.yaml's event stream (yaml_events.py). `lines` is
    `yaml_text.split("\\n")` when the caller has it. The YAML readers are imported here, when a block is
    parsed: a reader that only needs where the block lies (the security reading's look at `allowed-tools`
    before it parses) does not pay for them, and the event reader (with its error advice) is imported only
    when fastyaml hands a block over: a run over skills of the common shape never loads it."""
    from .fastyaml import parse_common

    common = parse_common(yaml_text, path, line_offset, lines)
    if common is not None:
        return common
    from .yaml_events import parse_yaml_events

    return parse_yaml_events(yaml_text, path, line_offset)
