"""Invisible or deceptive text: characters a reader does not see but a model, a shell or a browser reads.

- Bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069) reorder how a line displays
  ("Trojan Source"); the marks U+200E/200F and U+061C are left alone, since right-to-left writing uses them.
- Zero-width characters (U+200B-200D, U+2060-2064, U+FEFF past the start, U+180E): a joiner or non-joiner
  between two non-ASCII characters is how emoji sequences and Arabic, Persian and Indic scripts are written,
  so only one touching ASCII (or nothing) is a finding.
- Unicode tag characters (U+E0000-E007F) spell ASCII invisibly, and models read them; the one legitimate use,
  a subdivision flag (U+1F3F4 followed by tags and U+E007F CANCEL TAG), is left alone. The message decodes
  the hidden text.
- Variation selectors: emoji use one at a time; two or more in a row carry bytes (one per selector), so the
  message decodes them.
- Letters from Cyrillic or Greek next to Latin letters in the same word, where they change what a name
  resolves to: `pаypal` with a Cyrillic `а` is a different host or command than it looks. A Cyrillic letter
  inside a Latin word is one anywhere (no unit or symbol is written that way); a Greek one only where it
  passes for a Latin letter: a capital or omicron that is drawn as one (`Α`, `Ο`, `ο`...) anywhere, a letter
  close to one (`α`, `ρ`, `ν`...) in code (a code span, a fenced block, a file that is not Markdown) or a
  URL, and any Greek letter in a URL's host. Greek letters as units and symbols (`μL`, `kΩ`, `σz`, `Δloo`,
  `λ`) are text: they look like no Latin letter.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Iterator

from ..core import programs
from ..core import security_codes
from ..core.model import Diagnostic
from ..document.markdown_spans import code_spans, fenced_lines
from .text import Text, shown

_BIDI = "\u202a-\u202e\u2066-\u2069"
_ZERO_WIDTH = "\u200b-\u200d\u2060-\u2064\ufeff\u180e"
_TAGS = "\U000e0000-\U000e007f"
_SELECTORS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
# one run of hidden characters of any of the kinds (a single character class: linear)
_HIDDEN_RUN = programs.compile(f"[{_BIDI}{_ZERO_WIDTH}{_TAGS}]+")
_SELECTOR_RUN = programs.compile(f"[{_SELECTORS}]{{2,}}")
# runs of Cyrillic, Greek or Coptic letters; one touching an ASCII letter makes a mixed-script word
_LOOKALIKE_RUN = programs.compile("[\u0370-\u03ff\u0400-\u052f\u2c80-\u2cff]+")
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_BLACK_FLAG = "\U0001f3f4"
_CANCEL_TAG = "\U000e007f"
_MAX_FLAG_TAGS = 8  # a subdivision flag spells a region code such as `gbeng`: a few tags, then CANCEL TAG


def _name(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed')}"


def _is_flag(text: str, start: int, end: int) -> bool:
    run = text[start:end]
    return (
        start > 0 and text[start - 1] == _BLACK_FLAG and run.endswith(_CANCEL_TAG)
        and len(run) <= _MAX_FLAG_TAGS and all("\U000e0061" <= c <= "\U000e007a" or c == _CANCEL_TAG for c in run)
    )


def _fence_as_text(text: str, start: int, end: int) -> bool:
    """A zero-width space opening a line before a run of three backticks or tildes: how Markdown shows a fence
    inside a fenced example without closing it. It hides nothing: the fence is what anyone sees."""
    return (
        text[start:end] == "\u200b" and (start == 0 or text[start - 1] == "\n")
        and text.startswith(("```", "~~~"), end)
    )


def _joiner_in_script(text: str, start: int, end: int) -> bool:
    """A lone ZWJ or ZWNJ between two non-ASCII characters: an emoji sequence or a joining script."""
    if end - start != 1 or text[start] not in "\u200c\u200d":
        return False
    before = text[start - 1] if start > 0 else "a"
    after = text[end] if end < len(text) else "a"
    return not before.isascii() and not after.isascii()


def _decoded_tags(run: str) -> str:
    return "".join(chr(ord(c) - 0xE0000) for c in run if 0xE0020 <= ord(c) <= 0xE007E)


def _describe(run: str) -> str:
    tags = _decoded_tags(run)
    if tags:
        return (
            f"{len(run)} invisible Unicode tag characters that spell “{shown(tags, 120)}”: a model reads this "
            "text, a person does not see it"
        )
    control = next((c for c in run if c in _BIDI_CONTROLS), None)
    if control is not None:
        return (
            f"a bidirectional control ({_name(control)}) that changes the order in which the rest of the line "
            "is displayed, so what you read is not what the text says"
        )
    names = ", ".join(dict.fromkeys(_name(c) for c in run))
    return f"{len(run)} zero-width character{'s' if len(run) != 1 else ''} ({names}) hidden in the text"


def _finding(text: Text, start: int, end: int, described: str) -> Diagnostic:
    stored = text.line_text(text.line_of(start))
    return security_codes.SECURITY_HIDDEN_TEXT.at(
        text.path,
        f"{described}; the line as stored: “{shown(stored, 160)}”. Check why the text needs characters no one "
        "can see, and remove them",
        text.range(start, end),
    )


def _kind(run: str) -> str:
    if _decoded_tags(run):
        return "tags"
    return "bidi" if any(c in _BIDI_CONTROLS for c in run) else "zero-width"


def _runs(text: Text) -> Iterator[tuple[int, int, str]]:
    """(start, end, hidden characters) of the hidden runs, those of one kind on one line merged into one."""
    source = text.text
    group: list[int | str] | None = None  # start, end, line, kind
    for match in _HIDDEN_RUN.finditer(source):
        start, end = match.span()
        if start == 0 and match.group() == "\ufeff":  # a byte order mark opening the file
            continue
        if _is_flag(source, start, end) or _joiner_in_script(source, start, end):
            continue
        if _fence_as_text(source, start, end):
            continue
        line, kind = text.line_of(start), _kind(match.group())
        if group is not None and group[2] == line and group[3] == kind:
            group[1] = end
            continue
        if group is not None:
            yield _group(source, group)
        group = [start, end, line, kind]
    if group is not None:
        yield _group(source, group)


def _group(source: str, group: list[int | str]) -> tuple[int, int, str]:
    start, end = int(group[0]), int(group[1])
    return start, end, "".join(_HIDDEN_RUN.findall(source, start, end))


_MAX_LINES_NAMED = 10  # lines listed in the one zero-width finding of a file ("and N more" after them)


def may_hold(source: str) -> bool:
    """False when the text cannot hold anything this module looks for: every such character is outside
    ASCII, and CPython knows whether a string is ASCII without reading it."""
    return not source.isascii()


def scan(text: Text) -> Iterator[Diagnostic]:
    source = text.text
    if not may_hold(source):
        return
    zero_width: list[tuple[int, int, str]] = []
    for start, end, run in _runs(text):
        if _kind(run) == "zero-width":
            # scraped documentation often holds hundreds of word-break hints: one finding per file, on the first
            zero_width.append((start, end, run))
            continue
        yield _finding(text, start, end, _describe(run))
    if zero_width:
        start, end, run = zero_width[0]
        described = _describe(run)
        if len(zero_width) > 1:
            lines = sorted({text.line_of(other) + 1 for other, _, _ in zero_width[1:]})
            more = len(lines) - _MAX_LINES_NAMED
            named = ", ".join(map(str, lines[:_MAX_LINES_NAMED])) + (f" and {more} more" if more > 0 else "")
            described += f", and {len(zero_width) - 1} more such runs in this file (lines {named})"
        yield _finding(text, start, end, described)
    for match in _SELECTOR_RUN.finditer(source):
        run = match.group()
        data = bytes((ord(c) - 0xFE00) if ord(c) <= 0xFE0F else (ord(c) - 0xE0100 + 16) for c in run)
        decoded = data.decode("utf-8", "replace")
        yield security_codes.SECURITY_HIDDEN_TEXT.at(
            text.path,
            f"{len(run)} variation selectors in a row (an emoji takes one): as bytes they read "
            f"“{shown(decoded, 120)}”. Hidden data travels this way; remove them",
            text.range(*match.span()),
        )
    yield from _lookalikes(text)


def _in_word(char: str) -> bool:
    """A character of the word or host a lookalike letter sits in (at most 64 are taken on each side)."""
    return char.isalnum() or char in "./-_:"


# Greek letters drawn exactly as a Latin one (capitals, omicron, lunate sigma, yot): a lookalike anywhere
_GREEK_AS_LATIN = frozenset("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοϲϳ")
# Greek letters close to a Latin one (α a, γ y, ι i, κ k, ν v, ρ p, υ u, χ x, ω w): a lookalike between two
# Latin letters where a name resolves (code, URLs); in prose, and opening or closing a name in code, they are
# the symbols scientists write (`Cα`, `FcγR`, `γfit`)
_GREEK_NEAR_LATIN = frozenset("αγικνρυχω")
_MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")


def _is_greek(char: str) -> bool:
    return "\u0370" <= char <= "\u03ff" or "\u1f00" <= char <= "\u1fff"


class _Where:
    """Whether an offset of a text sits in code (a code span, a fenced block, a file that is not Markdown):
    the fences are found on first use, since most texts hold no lookalike at all."""

    def __init__(self, text: Text) -> None:
        self.text = text
        self.markdown = text.path.lower().endswith(_MARKDOWN_SUFFIXES)
        self._fenced: set[int] | None = None
        self._spans: dict[int, tuple[list[int], list[int]]] = {}  # a line's code spans' starts and ends

    def in_code(self, offset: int) -> bool:
        if not self.markdown:
            return True
        text = self.text
        line = text.line_of(offset)
        if self._fenced is None:
            self._fenced = fenced_lines(text.text.split("\n"))
        if line in self._fenced or text.line_text(line).startswith(("    ", "\t")):
            return True
        spans = self._spans.get(line)
        if spans is None:  # found once per line, then searched by bisection: linear in a line of many
            found = code_spans(text.line_text(line))
            spans = self._spans[line] = ([span.begin for span in found], [span.stop for span in found])
        column = offset - text.line_starts[line]
        index = bisect_right(spans[0], column) - 1
        return index >= 0 and column < spans[1][index]


def _in_host(word: str, at: int) -> bool:
    """Whether index `at` of a word lies in the host of a URL the word holds (`scheme://HOST/...`)."""
    scheme = word.rfind("://", 0, at)
    return scheme >= 0 and "/" not in word[scheme + 3 : at]


def _resolves_differently(run: str, word: str, at: int, where: _Where, offset: int) -> bool:
    """Whether a run of non-Latin letters touching Latin ones makes the word pass for another name."""
    if not all(_is_greek(char) for char in run):
        return True  # Cyrillic (or Coptic) inside a Latin word: written that way only to deceive
    if any(char in _GREEK_AS_LATIN for char in run) or _in_host(word, at):
        return True
    if any(char in _GREEK_NEAR_LATIN for char in run) and _between_latin(word, at, len(run)):
        return "://" in word or where.in_code(offset)
    return False


def _between_latin(word: str, at: int, length: int) -> bool:
    """Whether the run stands between two Latin letters (`gρg`), where it replaces one; a Greek letter
    opening or closing a name is a symbol (`γfit`, `Cα`)."""
    before = word[at - 1] if at > 0 else ""
    after = word[at + length] if at + length < len(word) else ""
    return before.isascii() and before.isalpha() and after.isascii() and after.isalpha()


def _lookalikes(text: Text) -> Iterator[Diagnostic]:
    source = text.text
    where = _Where(text)
    for match in _LOOKALIKE_RUN.finditer(source):
        start, end = match.span()
        before = source[start - 1] if start > 0 else ""
        after = source[end] if end < len(source) else ""
        if not ((before.isascii() and before.isalpha()) or (after.isascii() and after.isalpha())):
            continue
        word_start, word_end = start, end
        while word_start > 0 and start - word_start < 64 and _in_word(source[word_start - 1]):
            word_start -= 1
        while word_end < len(source) and word_end - end < 64 and _in_word(source[word_end]):
            word_end += 1
        word = source[word_start:word_end]
        if not _resolves_differently(match.group(), word, start - word_start, where, start):
            continue
        letters = ", ".join(dict.fromkeys(_name(c) for c in match.group()))
        yield security_codes.SECURITY_HIDDEN_TEXT.at(
            text.path,
            f"“{word}” mixes Latin letters with {letters}, which look like Latin "
            "ones: as a host name or command it is not the one it appears to be. Retype it in plain ASCII",
            text.range(word_start, word_end),
        )
