"""Finding the relative file references in a `SKILL.md` body: pure text analysis, nothing on disk.

The Agent Skills format recommends that a skill refer to its own files by paths relative to the skill root
(`references/formats.md`, `scripts/run.py`). This module finds such references in the Markdown body;
references.py checks them against the skill folder.

What counts as a reference (outside fenced code blocks; the frontmatter is never scanned), as decided in
docs/design.md#7-what-real-skills-taught after reading real skills:
- `link`: the target of a Markdown link or image, `[text](target)`, `![alt](target "title")`,
  `[text](<target with spaces>)`, or of a link reference definition as CommonMark defines it: `[id]: target`
  with an optional title and nothing else on the line. A footnote (`[^1]: ...`) is not a definition. Targets
  with a URL scheme (`https:`, `mailto:`, `file:` ...), protocol-relative `//host` targets and bare anchors
  (`#section`) are not references and are never fetched. A `#anchor` or `?query` suffix is dropped; `%20`
  escapes are decoded.
- `code`: an inline code span whose whole content is one concrete relative path with a `/` and a file
  extension (`` `references/formats.md` ``, `` `./scripts/run.py` ``). Examples and placeholders are not
  concrete: wildcards and template marks (`*`, `?`, `<`, `{`, `[`, `$`, `...`), placeholder words
  (`filename`, `example`, `your-`, `path/to`) and an index letter (`phaseN.md`). Code spans that climb
  (`../x`) or are absolute (`/etc/hosts`) are left alone: they usually name files of the user's project or
  system, not the skill's.
- Either kind may start with a placeholder that hosts expand to the skill folder (`{baseDir}/`,
  `${CLAUDE_SKILL_DIR}/`): the rest is relative to the skill folder.
- `license`: a word of the frontmatter's `license` value that is a relative file name with the extension of
  a document (`.txt`, `.md`, `.markdown`, `.rst`, `.html`, `.pdf`): `Complete terms in LICENSE.txt`. A URL
  is no file name, nor is a word without such an extension: `MIT License` and `CeCILL FREE SOFTWARE LICENSE
  AGREEMENT` name a license, and a bare `LICENSE` could be either. This is the only reference read from the
  frontmatter (`license_references`, called by rules.py, which holds the value).

The reading is one way down: markdown_spans.py reads the body into the spans of its prose lines (code
spans, inline links, link reference definitions, with their columns); this module takes the references from
those spans; references.py takes them to the disk. Nothing here scans Markdown syntax, and the patterns
below, run on one span's text, have no nested quantifiers that can backtrack.
"""

from __future__ import annotations

import bisect
import posixpath
from typing import Literal, NamedTuple

from ..core import programs
from .frontmatter import body_position
from .markdown_spans import Span, line_spans, prose_lines_holding
from .yamltree import Scalar
from ..core.model import Range

_new = tuple.__new__  # a NamedTuple from its fields without its Python-level __new__: one per occurrence

ReferenceKind = Literal["link", "code", "license"]

# Every expression below runs over the text of one span and is linear in it: anchored (`match`), or with a
# bounded attempt per position. Code spans, links and definitions are found in markdown_spans.py.
_SCHEME = programs.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_CODE_PATH = programs.compile(r"^(?:\./)?[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*(?:/[A-Za-z0-9_.@+-]+)+$")
_EXTENSION = programs.compile(r"[^/.]\.[A-Za-z0-9]{1,10}$")

# A word of `license` naming a document: folders of ordinary names in any script (or `..`, which
# check_references reports as outside), then a name with a document's extension. Each folder ends at a `/` its characters exclude, so
# the repetition cannot backtrack.
_LICENSE_FILE = programs.compile(
    r"(?:\./)?(?:(?:\.\.|[\w@+-][\w.@+-]*)/)*[\w@+-][\w.@+-]*"
    r"\.(?i:txt|md|markdown|rst|html|pdf)\Z"
)
_WORD = programs.compile(r"\S+")
_WORD_OPENERS = "([<\"'`"
_WORD_CLOSERS = ")]>\"'`,;:.!?"

# Placeholders that hosts expand to the skill folder before the model reads the text.
SKILL_FOLDER_PLACEHOLDERS = ("{baseDir}", "${CLAUDE_SKILL_DIR}")  # each holds a `{` (split_placeholder)
# Words that make a code span an example rather than a file: a whole word of a path segment
# (`references/example.md`, `scripts/run_example.py`), or a segment's start (`your-skill/`).
PLACEHOLDER_WORDS = frozenset({"filename", "example"})
PLACEHOLDER_PREFIXES = ("your-", "your_")
_WORD_SEPARATORS = programs.compile(r"[-_.]")
# `phaseN.md`, `stepX.py`: an index letter standing for a number, right after a lowercase letter
_INDEX_LETTER = programs.compile(r"[a-z][NX](?:\.|$)")


class Reference(NamedTuple):
    """One reference: `target` is a normalised relative POSIX path (or the absolute / climbing path of a
    link that leaves the folder), `written` the text as it appears, `range` where it appears."""

    target: str
    written: str
    kind: ReferenceKind
    range: Range


def split_placeholder(written: str) -> tuple[str, str]:
    """(`{baseDir}/` or `${CLAUDE_SKILL_DIR}/` or "", the rest): the rest is relative to the skill folder."""
    if "{" not in written:
        return "", written  # every placeholder has a brace: the usual reference is decided by one search
    for placeholder in SKILL_FOLDER_PLACEHOLDERS:
        if written == placeholder:
            return placeholder, ""
        if written.startswith(placeholder + "/"):
            return placeholder + "/", written[len(placeholder) + 1 :]
    return "", written


_BACKSLASH_ESCAPE = programs.compile(r"\\(.)")


def _link_target(written: str) -> str | None:
    """The relative path a link target names, or None when it is no file reference (URL, anchor...)."""
    placeholder, target = split_placeholder(written.strip())
    if placeholder and not target.split("#", 1)[0].split("?", 1)[0]:
        return None  # the skill folder itself
    if not target or target.startswith("#") or target.startswith("//") or _SCHEME.match(target):
        return None
    if "\\" in target:
        target = _BACKSLASH_ESCAPE.sub(r"\1", target)  # Markdown backslash escapes
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target:
        return None
    if "%" in target:  # percent-encoded; urllib.parse (with ipaddress, ~2 ms) imported only for such a link
        from urllib.parse import unquote

        target = unquote(target)
    if "\0" in target:
        return None
    absolute = target.startswith("/")
    normal = posixpath.normpath(target)
    if absolute:
        return "/" + normal.lstrip("/")
    return "." if normal == "." else normal


def _code_target(content: str) -> str | None:
    """The relative path a code span names, or None when it is not one concrete path with a folder and an
    extension (an example, a placeholder or a pattern is no file)."""
    _placeholder, text = split_placeholder(content.strip())
    if not _CODE_PATH.match(text) or not _EXTENSION.search(text) or "..." in text:
        return None
    parts = text.split("/")
    if any(part == ".." for part in parts) or not all(map(_concrete_segment, parts)):
        return None
    if "path/to/" in text:
        return None
    return posixpath.normpath(text)


def _concrete_segment(segment: str) -> bool:
    """Whether one path segment of a code span names a file rather than stands for one."""
    lowered = segment.lower()
    if lowered.startswith(PLACEHOLDER_PREFIXES) or _INDEX_LETTER.search(segment):
        return False
    return not any(word in PLACEHOLDER_WORDS for word in _WORD_SEPARATORS.split(lowered))


def license_references(value: Scalar) -> list[Reference]:
    """The file names the `license` field's value names (see the module's docstring), each placed on its
    own word when the value is written plain on one line, else on the whole value (a quoted or folded value's
    columns are not its characters')."""
    found: list[Reference] = []
    plain = value.start_line == value.end_line and value.end_column - value.start_column == len(value.value)
    for word in _WORD.finditer(value.value):
        written = word.group().lstrip(_WORD_OPENERS)
        begin = word.end() - len(written)
        written = written.rstrip(_WORD_CLOSERS)
        if "://" in written or not _LICENSE_FILE.match(written):
            continue
        if plain:
            column = value.start_column + begin
            where = Range.of(value.start_line, column, value.start_line, column + len(written))
        else:
            where = value.range
        found.append(Reference(posixpath.normpath(written), written, "license", where))
    return found


def find_references(text: str, body: tuple[int, int] | None = None) -> list[Reference]:
    """Every reference in the body of a `SKILL.md` text, in document order.

    `body` is where the body starts, its line number and its offset in `text`, when the caller knows it;
    by default it is found from the frontmatter delimiters.
    """
    if body is None:
        body = body_position(text)
        if body is None:
            return []
    first_line, offset = body
    found: list[Reference] = []
    # The references of a line depend on its text alone (fences are decided before): a line met again is
    # not read again, only placed on its own line number. A body of one link repeated is then one read and
    # a tuple per occurrence (benchmarks/repeated_references.py).
    placed: dict[str, list[_Placed]] = {}
    # A link needs a `[`, and a code span names a path only if it holds a `/`: the lines holding either
    # are few (backticks are common, slashes and brackets rare), and of those a `/` without a backtick
    # names nothing.
    for number, line in prose_lines_holding(text, offset, first_line, "[/"):
        if "[" in line or "`" in line:
            on_line = placed.get(line)
            if on_line is None:
                on_line = placed[line] = line_references(line)
            for target, written, kind, begin, end in on_line:
                found.append(_new(Reference, (target, written, kind, Range.of(number, begin, number, end))))
    return found


class _Placed(NamedTuple):
    """A reference of one line, before it is given the line's number: `begin`/`end` are columns."""

    target: str
    written: str
    kind: ReferenceKind
    begin: int
    end: int


def line_references(line: str) -> list[_Placed]:
    """The references one prose line (without its end) holds, in the order of their columns."""
    spans = line_spans(line)
    found: list[_Placed] = []
    links = spans.links if spans.definition is None else [spans.definition, *spans.links]
    for span in spans.code:
        content = line[span.begin : span.stop]
        if "/" not in content:
            continue  # a path names a folder: most code spans are words, rejected here without a regex
        # a code span inside a link's text names the link's own target: the link alone is the reference
        if links and _inside_any(span.begin, links):
            continue
        target = _code_target(content)
        if target is not None:
            written = content.strip()
            begin = span.begin + len(content) - len(content.lstrip())
            found.append(_new(_Placed, (target, written, "code", begin, begin + len(written))))
    for link in links:
        written = spans.plain[link.begin : link.stop]
        target = _link_target(written)
        if target is None or target == ".":
            continue
        found.append(_new(_Placed, (target, written, "link", link.begin, link.stop)))
    if spans.code and links:
        found.sort(key=lambda placed: (placed.begin, placed.end))
    return found


def _inside_any(character: int, links: list[Span]) -> bool:
    """Whether `character` falls within one of the links (sorted by start; a definition, first, spans the
    line and may overlap the inline links after it). Bisection keeps a line of many code spans and many
    links linear-logarithmic instead of quadratic."""
    if links[0].start <= character < links[0].end:
        return True
    index = bisect.bisect_right(links, character, lo=1, key=lambda link: link.start) - 1
    return index >= 1 and links[index].start <= character < links[index].end
