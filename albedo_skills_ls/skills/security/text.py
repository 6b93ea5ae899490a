"""One file's text as the detectors see it: offsets turned into ranges, lines, and the context words that
tell a warning about a pattern from an instruction to follow it.

Every detector works in the same linear shape: a few simple expressions (one character class or a plain
alternation each, no unbounded nested quantifier) find trigger tokens in one pass, and the decisions combine
their positions, looking at most `SECURITY_WINDOW_CHARS` past a trigger. No expression here or in a detector
may restart a long match at every position (tests/hostile/test_security_linear.py feeds each its worst line).

Speed: case-insensitive words are matched on `lower` (the text lower-cased once, same length), never with
re.IGNORECASE, and an expression starts with a literal, never with `\b`: Python's engine then skips ahead
to the first letter instead of trying every position, five to ten times faster. `words` checks the word
start in Python, on matches only. Every detector expression is a `prefilter.Expression`, searched through
`words`, `matches` or `matches_in_text`: where none of its needles is in the text it cannot match, and it
is not run (prefilter.py says why that hides nothing). The line starts are counted only when a finding
needs a position.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from typing import Literal

from ..core import programs
from ..core.limits import SECURITY_WINDOW_CHARS
from ..core.model import Range
from ..document.markdown_spans import fenced_blocks
from .prefilter import Expression

# What a file is to the reading: the skill's own SKILL.md (frontmatter read for `allowed-tools`) or any
# other file the skill bundles. Every other detector reads both alike: a script comment or a JSON string can
# address the model as well as Markdown can.
FileKind = Literal["skill", "bundled"]
SKILL: FileKind = "skill"
BUNDLED: FileKind = "bundled"

# Words that, earlier on the same line, make a match a warning or an example rather than an instruction:
# "Never pipe `curl https://x | sh`", "attacks such as 'ignore previous instructions'".
_WARNING_WORDS = Expression(
    r"(?:never|don't|do not|dont|avoid|instead of|rather than|not recommended|dangerous|unsafe|insecure|"
    r"beware|warning|watch for|look out for|malicious|attacker|attack|injection|red flag|suspicious|e\.g\.|"
    r"for example|such as|"
    r"example of|refuse|reject|detect|flag|theft|steal|stealer|indicators?)\b",
)


_CONTINUATION = Expression(r"[\\`]\r?\n")
# a Markdown list item, and how far up its lead line is looked for (a list of what not to do, text.warned)
_LIST_ITEM = programs.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]")
_LIST_LEAD_LINES = 40


_COMMAND_SEPARATORS = (";", "&", "|", "(", "`")
_COMMAND_PREFIXES = frozenset({"", "$", "#", ">", "%", "sudo", "$ sudo", "- run:", "run:"})
_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}


def _at_word_start(lower: str, offset: int) -> bool:
    return offset == 0 or not (lower[offset - 1].isalnum() or lower[offset - 1] == "_")


class Haystack:
    """Text the prefilter searches: whether an expression's needles are in it (prefilter.py), each needle
    searched once however many expressions share it, and each expression's answer kept."""

    __slots__ = ("text", "lower", "_lower_holds", "_text_holds", "_lower_words", "_distinct", "_answers")

    def __init__(self, text: str, lower: str) -> None:
        self.text = text
        self.lower = lower
        self._lower_holds: dict[str, bool] = {}
        self._text_holds: dict[str, bool] = {}
        self._lower_words: str | None = None
        self._distinct: set[str] | None = None
        self._answers: dict[object, bool] = {}

    def holds(self, expression: Expression, in_lower: bool) -> bool:
        """False when the expression cannot match here: for every alternative of its requirement, a needle
        set none of whose needles is in the text."""
        searches = expression.searches
        if searches is None:
            return True
        if in_lower:  # the haystacks chosen once, not per needle: this loop is most of the prefilter's time
            known, whole, words = self._lower_holds, self.lower, self.distinct_words_joined()
        else:
            known, whole = self._text_holds, self.text
            words = whole  # case-sensitive needles are searched in the text as written
        for sets in searches:  # any alternative may match...
            for needles in sets:  # ...if every one of its sets has a needle in the text
                for needle, in_words in needles:
                    held = known.get(needle)
                    if held is None:
                        held = known[needle] = needle in (words if in_words else whole)
                    if held:
                        break
                else:
                    break
            else:
                return True
        return False

    def answer(self, question: object, ask: Callable[[Haystack], bool]) -> bool:
        """`ask(self)`, asked once per `question` (its key) and remembered."""
        known = self._answers.get(question)
        if known is None:
            known = self._answers[question] = ask(self)
        return known

    def distinct_words_joined(self) -> str:
        """The lower-cased text's distinct words (split at white space), joined by spaces. A needle without
        white space lies inside one word wherever it occurs, and the space joining them is not in it, so it
        is in the text exactly when it is in these. A skill's prose repeats its words: the distinct ones are
        a half to a quarter of the text, and every needle searched after the first costs that much less
        (about twenty searches pay for the split). The case-sensitive expressions have few needles: they
        search the text itself."""
        if self._lower_words is None:
            self._lower_words = " ".join(self.distinct_words())
        return self._lower_words

    def distinct_words(self) -> set[str]:
        """The lower-cased text's words (split at white space), each once. Each has the length of the
        words as written (`lower` keeps every character's place)."""
        if self._distinct is None:
            self._distinct = set(self.lower.split())
        return self._distinct


class Text(Haystack):
    """A text with its line starts, so any offset becomes a 0-based (line, code point) position.

    The texts of one skill are searched together first (`search_together`): an expression whose needles
    are in none of them is not looked for in any, and most expressions are in none (a needle is in one of
    the texts only if it is in all of them joined, so nothing is skipped that could match)."""

    __slots__ = ("path", "kind", "_line_starts", "_warnings", "_continued", "_together", "_lines", "_fenced")

    def __init__(self, path: str, text: str, kind: FileKind) -> None:
        lower = text.lower()
        # a few characters lower-case to two (U+0130): then only ASCII is lowered, so offsets stay the same
        super().__init__(text, lower if len(lower) == len(text) else text.translate(_ASCII_LOWER))
        self.path = path
        self.kind = kind
        self._line_starts: list[int] | None = None
        self._warnings: list[int] | None = None
        self._continued: list[int] | None = None
        self._together: Haystack | None = None
        self._lines: list[str] | None = None
        self._fenced: list[tuple[int, int]] | None = None

    @staticmethod
    def search_together(texts: list[Text]) -> None:
        """Let these texts (of one skill) be searched joined before each is searched alone."""
        if len(texts) < 2:
            return
        together = Haystack("\n".join(text.text for text in texts), "\n".join(text.lower for text in texts))
        for text in texts:
            text._together = together

    @property
    def line_starts(self) -> list[int]:
        """The offset of every line's first character (counted on first use: most texts have no finding)."""
        if self._line_starts is None:
            starts = [0]
            text, find = self.text, self.text.find
            at = find("\n")
            while at >= 0:
                starts.append(at + 1)
                at = find("\n", at + 1)
            self._line_starts = starts
        return self._line_starts

    def lines(self) -> list[str]:
        """The text's lines (split at `\n`), split once."""
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines

    def fenced(self) -> list[tuple[int, int]]:
        """(first line, last line) of every fenced code block, its fences included (markdown_spans.py), found
        once for the readings that skip code (instructions) or read it (shell blocks)."""
        if self._fenced is None:
            has_fence = "```" in self.text or "~~~" in self.text
            self._fenced = fenced_blocks(self.lines()) if has_fence else []
        return self._fenced

    def may_hold(self, question: object, ask: Callable[[Haystack], bool]) -> bool:
        """`ask` of this text, for a question whose answer is yes for a text holding one that says yes (such
        as "is this needle in it"): asked of the skill's texts together first, and of this one only if yes."""
        together = self._together
        if together is not None and not together.answer(question, ask):
            return False
        return self.answer(question, ask)

    def _may_match(self, expression: Expression, in_lower: bool) -> bool:
        """False when the expression cannot match (none of its needles is in the text, or in the skill's)."""
        return self.may_hold((expression, in_lower), lambda haystack: haystack.holds(expression, in_lower))

    def matches(self, expression: Expression) -> Iterator[re.Match[str]]:
        """Every match of a lower-case expression in `lower` (none searched for where none can be)."""
        if self._may_match(expression, True):
            yield from expression.finditer(self.lower)

    def matches_in_text(self, expression: Expression) -> Iterator[re.Match[str]]:
        """Every match of a case-sensitive expression in the text as written."""
        if self._may_match(expression, False):
            yield from expression.finditer(self.text)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.line_starts, offset) - 1

    def position(self, offset: int) -> tuple[int, int]:
        line = self.line_of(offset)
        return line, offset - self.line_starts[line]

    def range(self, start: int, end: int) -> Range:
        line, character = self.position(start)
        end_line, end_character = self.position(end)
        return Range.of(line, character, end_line, end_character)

    def line_span(self, line: int) -> tuple[int, int]:
        """(start, end) offsets of a line, its line feed (and a CR before it) excluded."""
        start = self.line_starts[line]
        end = self.line_starts[line + 1] - 1 if line + 1 < len(self.line_starts) else len(self.text)
        if end > start and self.text[end - 1] == "\r":
            end -= 1
        return start, end

    def line_text(self, line: int) -> str:
        start, end = self.line_span(line)
        return self.text[start:end]

    def column_of_byte(self, line: int, byte_offset: int) -> int:
        """The character column of a UTF-8 byte offset into a line: the parsers (`ast`, tree-sitter) count
        columns in bytes, the engine in characters. 0 past the last line."""
        if line >= len(self.line_starts):
            return 0
        return len(self.line_text(line).encode("utf-8", "surrogatepass")[:byte_offset].decode("utf-8", "replace"))

    def range_of_points(self, start: tuple[int, int], end: tuple[int, int], first_line: int = 0) -> Range:
        """A syntax node's range from its (row, UTF-8 byte column) points, rows counted from `first_line`."""
        line, end_line = first_line + start[0], first_line + end[0]
        return Range.of(line, self.column_of_byte(line, start[1]), end_line, self.column_of_byte(end_line, end[1]))

    def words(self, pattern: Expression) -> Iterator[re.Match[str]]:
        """Matches of a lower-case pattern in `lower` that start a word (what a leading `\\b` would say)."""
        lower = self.lower
        for match in self.matches(pattern):
            if _at_word_start(lower, match.start()):
                yield match

    def command_start(self, offset: int) -> int:
        """Where the shell command holding `offset` starts: after the last `;`, `&`, `|`, `(` or backtick on its
        line before it (at most `SECURITY_WINDOW_CHARS` back), or the line start."""
        line_start = self.line_starts[self.line_of(offset)]
        floor = max(line_start, offset - SECURITY_WINDOW_CHARS)
        before = self.text[floor:offset]
        cut = max(before.rfind(separator) for separator in _COMMAND_SEPARATORS)
        return floor + cut + 1 if cut >= 0 else floor

    def at_command_position(self, offset: int) -> bool:
        """Whether `offset` starts a command: only spaces, a prompt sign or `sudo` stand before it in its command."""
        before = self.text[self.command_start(offset) : offset].strip()
        return before in _COMMAND_PREFIXES

    def same_command(self, start: int, end: int) -> bool:
        """Whether two offsets (start <= end) lie on one logical line: every line feed between them continued."""
        feeds = self.line_of(end) - self.line_of(start)
        if feeds == 0:
            return True
        if self._continued is None:
            # line feeds that a trailing `\` (shell) or backtick (PowerShell) continues: one command goes on
            self._continued = [match.end() - 1 for match in self.matches_in_text(_CONTINUATION)]
        continued = bisect_right(self._continued, end - 1) - bisect_right(self._continued, start - 1)
        return continued == feeds

    def warned(self, offset: int) -> bool:
        """Whether a warning or example word stands earlier on the line of `offset`, within the window."""
        if self._warnings is None:
            self._warnings = [match.start() for match in self.words(_WARNING_WORDS)]
        index = bisect_left(self._warnings, offset) - 1  # a word before the match, not the match itself
        line = self.line_of(offset)
        if index >= 0:
            word = self._warnings[index]
            if word >= self.line_starts[line] and offset - word <= SECURITY_WINDOW_CHARS:
                return True
        return self._list_under_warning(line)

    def _list_under_warning(self, line: int) -> bool:
        """Whether `line` is an item of a list whose lead line warns ("**Don't:**", "Avoid these:"): each item
        of a list of what not to do is a warning too. The lead is the first line above the list's items, their
        indented continuations and blank lines, looked for at most `_LIST_LEAD_LINES` up."""
        if not _LIST_ITEM.match(self.line_text(line)):
            return False
        assert self._warnings is not None
        for above in range(line - 1, max(-1, line - 1 - _LIST_LEAD_LINES), -1):
            held = self.line_text(above)
            if not held.strip() or _LIST_ITEM.match(held) or held[:1] in (" ", "\t"):
                continue
            start, end = self.line_span(above)
            index = bisect_left(self._warnings, start)
            return index < len(self._warnings) and self._warnings[index] < end
        return False


def _invisible(char: str) -> bool:
    code = ord(char)
    return not char.isprintable() or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def shown(text: str, limit: int = 80) -> str:
    """Text for a message: invisible and control characters as escapes, long text cut with an ellipsis."""
    out = []
    for char in text[:limit]:
        if char != " " and _invisible(char):
            code = ord(char)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(char)
    return "".join(out) + ("…" if len(text) > limit else "")


def last_before(sorted_offsets: list[int], offset: int) -> int | None:
    """The greatest offset in the list that is below `offset`, or None."""
    index = bisect_right(sorted_offsets, offset - 1) - 1
    return sorted_offsets[index] if index >= 0 else None


def first_at_or_after(sorted_offsets: list[int], offset: int) -> int | None:
    index = bisect_right(sorted_offsets, offset - 1)
    return sorted_offsets[index] if index < len(sorted_offsets) else None
