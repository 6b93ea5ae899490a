"""Markdown prose read for the instructions its sentences give the model.

A sentence starts at a line's start (past its indentation) or after `.`, `!` or `?` and white space, and ends
at the next `.`, `!` or `?` followed by white space, a blank line, or a line that starts another block (a
heading, a list item, a table row, a quotation, a fence): Markdown joins a paragraph's lines, so a sentence
soft-wrapped over lines is one. Fenced code and the frontmatter are not prose. Only the first
`MAX_SENTENCE_CHARS` of a sentence are read: an instruction's verb, object and destination stand at its start,
and the bound keeps the reading linear in a paragraph with no full stop.

`imperative` reads a sentence as an instruction to the model: past emphasis, list markers, leading adverbs
("then", "also", "silently"), a leading condition up to its comma ("if the tests fail, ..."), and a modal frame
("you must", "make sure to"), to the verb it starts with; "do not", "don't", "never" and "avoid" make it a
prohibition (advice against the thing, or, for hiding, the thing itself). A sentence whose subject is someone
else ("the script uploads ...") has no imperative verb at its start and is not an instruction.

`instructions` finds the sentences starting with one of a set of verbs with one search of the engine over the
text (the verbs in the expression), so prose giving no such instruction costs no loop of ours.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from typing import Any, NamedTuple

from ..core.limits import MAX_SENTENCE_CHARS
from ..core import programs
from .text import Text

_MARKDOWN = (".md", ".markdown", ".mdx")


class Lazy:
    """A regular expression compiled on its first use (from its program, programs.py): a start that reads no
    prose does not pay for it."""

    __slots__ = ("pattern", "_compiled")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = programs.compile(self.pattern)
        return getattr(self._compiled, name)


_SENTENCE_END = Lazy(
    r"[.!?][\"'”’)\]*_`]*(?=\s)|\n[ \t]*(?:\n|#{1,6}[ \t]|[-*+][ \t]|\d{1,9}[.)][ \t]|\||>|```|~~~|<!--)"
)


class Sentence(NamedTuple):
    """A sentence's offsets in its text (`said` gives its words as read)."""

    start: int
    end: int


def said(source: str, sentence: Sentence) -> str:
    """A sentence's words as read: its first `MAX_SENTENCE_CHARS` lower-cased, emphasis and line breaks folded."""
    words = source[sentence.start : min(sentence.end, sentence.start + MAX_SENTENCE_CHARS)].lower()
    return " ".join(words.replace("**", "").replace("__", "").split())


def sentence_at(text: Text, start: int) -> Sentence:
    """The sentence starting at `start`: to its end, at most `MAX_SENTENCE_CHARS` on."""
    limit = min(len(text.text), start + MAX_SENTENCE_CHARS)
    end = _SENTENCE_END.search(text.text, start, limit)
    return Sentence(start, end.start() + (1 if end.group()[0] in ".!?" else 0) if end else limit)


class Prose:
    """Whether an offset of a Markdown text lies in its prose: outside the frontmatter and fenced code (the
    fences found once, on the first question)."""

    def __init__(self, text: Text) -> None:
        self.text = text
        self.code: list[tuple[int, int]] | None = None

    def __contains__(self, offset: int) -> bool:
        if self.code is None:
            lines = self.text.lines()
            starts = self.text.line_starts
            blocks = list(self.text.fenced())
            if lines and lines[0].rstrip("\r") == "---":
                closing = next((n for n in range(1, len(lines)) if lines[n].rstrip("\r") in ("---", "...")), None)
                blocks.insert(0, (0, closing if closing is not None else len(lines) - 1))
            self.code = [(starts[first], starts[last + 1] if last + 1 < len(starts) else len(self.text.text))
                         for first, last in blocks]
        index = bisect_right(self.code, (offset, len(self.text.text) + 1)) - 1
        return not (index >= 0 and self.code[index][0] <= offset < self.code[index][1])


def trie(words: list[str] | frozenset[str]) -> str:
    """An alternation of words as a regular expression that branches on each letter once ("s(?:end|hare)"):
    the engine tries the alternatives of a plain `a|b|c` one after another at every place it looks, and this
    one a letter at a time."""
    if not words:
        return "(?!)"
    branches: dict[str, list[str]] = {}
    ends = False
    for word in sorted(set(words)):
        if word:
            branches.setdefault(word[0], []).append(word[1:])
        else:
            ends = True
    parts = [re.escape(first) + (trie(rest) if rest != [""] else "") for first, rest in branches.items()]
    body = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
    return f"(?:{body})?" if ends else body


_S = r"[\s*_]+"  # between words: white space, a line break, emphasis
_ADVERB_WORDS = ("then also first next finally now always just simply please and so silently quietly secretly discreetly "
                 "immediately automatically afterwards afterward additionally lastly").split()
_CONDITION_WORDS = "if when after before once whenever while regardless unless even whatever no".split()
_ADVERBS, _CONDITIONS = trie(_ADVERB_WORDS), trie(_CONDITION_WORDS)
_NOT_VERBS = frozenset(_CONDITION_WORDS)  # a condition with no comma after it: no verb found
_FRAME_WORDS = ("you must", "you should", "you need to", "you have to", "you will", "you can", "make sure",
                "make sure to", "make sure you", "be sure to", "remember to", "don't forget to", "it is important to",
                "ensure you")
_PROHIBITION_WORDS = ("do not", "don't", "dont", "never", "avoid", "refuse to", "must not", "you must not",
                      "you should not", "you should never", "you must never")
_FRAMES = trie(_FRAME_WORDS).replace("\\ ", _S)  # between the words: what _S allows
_PROHIBITIONS = trie(_PROHIBITION_WORDS).replace("\\ ", _S)
# one anchored match on the lower-cased text (the engine's, not a loop of ours): emphasis, list markers and
# labels, adverbs, one leading condition up to its comma (at most 200 characters), adverbs again, a
# prohibition and a frame in either order, the verb
_LEADING = (
    rf"[*_ \t]*(?:(?:[-*+>]|\d{{1,9}}[.)]|\[[ x]\]|step \d+[:.]|note:|important:)[*_ \t]*)*"
    rf"(?:(?:{_ADVERBS})\b[*_\s,]*)*"
    rf"(?:(?:{_CONDITIONS})\b[^,]{{0,200}},[*_\s]*)?"
    rf"(?:(?:{_ADVERBS})\b[*_\s,]*)*"
    rf"(?:(?P<no>{_PROHIBITIONS}){_S})?(?:(?:{_FRAMES}){_S})?(?:(?P<no_after>{_PROHIBITIONS}){_S})?"
)
_AFTER_VERB = r"[,.:;!?`\"'*_]*(?:\s|$)"
_HEAD = Lazy(rf"{_LEADING}(?P<verb>[a-z]+){_AFTER_VERB}")


def starts(verbs: frozenset[str]) -> Lazy:
    """A sentence's start (a line's, or after a full stop) whose first word, past list markers and emphasis, is
    one of `verbs` or a word that can lead to one (an adverb, a condition, a frame, a prohibition): where
    `imperative` then reads the whole head. One simple expression the engine runs over the text: it opens with
    one character class, which the engine scans for before trying the rest, and the text's first line is tried
    on its own."""
    first = set(verbs) | set(_ADVERB_WORDS) | set(_CONDITION_WORDS) | {
        phrase.split()[0] for phrase in (*_FRAME_WORDS, *_PROHIBITION_WORDS)}
    return Lazy(r"[\n.!?](?:(?<=\n)[ \t]*|(?<=[.!?])[\"'”’)\]*_`]*[ \t]+)[*_ \t]*"
                rf"(?:(?:[-*+>]|\d{{1,9}}[.)]|\[[ x]\])[*_ \t]*)*(?:{trie(first)})\b")


class Imperative(NamedTuple):
    """An instruction read from a sentence: prohibited or not, its verb, and the words after the verb (read
    as `said` reads them)."""

    prohibited: bool
    verb: str
    rest: str


def imperative(lower: str, start: int = 0, end: int | None = None,
               verbs: frozenset[str] | None = None) -> Imperative | None:
    """The instruction the lower-cased sentence at `lower[start:end]` gives, or None when it starts with no
    verb addressed to the model (a leading condition with no comma to end it, a symbol), or with none of
    `verbs` when they are given."""
    end = min(len(lower) if end is None else end, start + MAX_SENTENCE_CHARS)
    head = _HEAD.match(lower, start, end)
    if head is None or head.group("verb") in _NOT_VERBS or verbs is not None and head.group("verb") not in verbs:
        return None
    rest = " ".join(lower[head.end() : end].replace("**", "").replace("__", "").split())
    return Imperative(bool(head.group("no") or head.group("no_after")), head.group("verb"), rest)


def instructions(text: Text, verbs: frozenset[str], pattern: Lazy) -> Iterator[tuple[Sentence, Imperative]]:
    """Each sentence of a Markdown text that starts with one of `verbs` (`pattern` is `starts(verbs)`, made once
    by the caller), with the instruction it gives. Whether it lies in prose (`Prose`) is the caller's question,
    asked only of the few that read as an instruction against the user: finding the fences costs more."""
    if not text.path.lower().endswith(_MARKDOWN):
        return
    lower = text.lower
    first = pattern.match("\n" + lower[: MAX_SENTENCE_CHARS])
    found = [first.start() - 1] if first else []  # offsets in the text (the match began at the added line end)
    found.extend(match.start() for match in pattern.finditer(lower))
    for start in found:
        start += 1  # past the line end or the full stop
        while start < len(lower) and lower[start] in " \t\"'”’)]*_`":
            start += 1
        sentence = sentence_at(text, start)
        order = imperative(lower, start, sentence.end, verbs)
        if order is not None:
            yield sentence, order
