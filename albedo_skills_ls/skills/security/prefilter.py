"""The detectors' expressions, compiled on first use and skipped on text that cannot hold a match.

Most text a skill bundles holds nothing the reading looks for, and a regular expression costs Python's engine
several nanoseconds a character even when it matches nothing (an alternation of words is tried at every
letter that starts one of them). So each `Expression` knows a *requirement*: literal strings (needles) that
its matches must hold. Where the text does not meet it (`str.__contains__`, a C search at well under a
nanosecond a character), the expression cannot match, and it is neither run nor, if it never ran before,
compiled.

Why a requirement cannot hide a finding: it is not written by hand but derived from the expression's own
parse tree (`re._parser`, the parser `re.compile` itself runs), by rules that only keep text every match
must contain:
- a run of literal characters in a sequence must appear in every match, as written (a small class or an
  alternation of plain words within the run multiplies the spellings, any one of which appears);
- every required item of a sequence (a group, a repeat of at least one) gives a needle set, a needle of
  which every match holds; an alternation inside one gives the union of its alternatives' best sets;
- a class of at most `_MAX_CLASS_NEEDLES` plain characters gives those characters;
- needles sharing a start of `_MERGE_PREFIX` characters are searched as that start (weaker, still held);
- at the top, each alternative of an alternation keeps up to `_MAX_SETS` of its sets: a text may hold a
  match only if, for some alternative, it holds a needle of each of them.
Anything else (an optional item, a wide class, an assertion, a back reference, case-insensitive matching,
a node of a future parser) requires nothing, and an expression that requires nothing always runs.
Skipping is therefore exact: the findings are the same with and without it, which
tests/security/test_prefilter.py checks over the security corpus and generated texts, with hypothesis
checking that generated matches of every expression meet its requirement.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..core import programs

try:  # CPython's own parser for `re`; if a later Python moves it, every expression simply always runs
    from re import _constants as _sre
    from re import _parser as _parse
except ImportError:  # pragma: no cover - depends on the interpreter
    _sre = _parse = None  # type: ignore[assignment]

_MAX_CLASS_NEEDLES = 4  # a class of more plain characters than this (or any range) requires nothing
_MAX_SPELLINGS = 8  # exact strings a run of literals, small classes and plain alternations may multiply into
# characters most prose, Markdown and code hold: alone, they select nothing
# (ASCII letters, digits and white space spelled out: the `string` module costs a start ~1 ms)
_ORDINARY = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 \t\n\r\x0b\x0c" ".,;:!?'\"()[]-_/*#`|=+&<>"
)
_MAX_SETS = 3  # needle sets kept per alternative: each one more may rule the alternative out
_MERGE_PREFIX = 5  # needles sharing this long a start are searched as that start
_LONG_ENOUGH = 5  # needles this long are rare enough in prose: among them, fewer is better
_CHARACTER_COST = 0.05  # a one-character needle, searched with memchr, against a longer needle's 1


class Expression:
    """A regular expression the reading runs, compiled when first needed; `needles` say where it cannot match."""

    __slots__ = ("pattern", "flags", "_compiled", "_needles", "_searches")

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[Any] | None = None
        self._needles: Requirement | None | bool = False  # False: not derived yet
        self._searches: tuple[tuple[tuple[tuple[str, bool], ...], ...], ...] | None = None

    @property
    def compiled(self) -> re.Pattern[Any]:
        if self._compiled is None:
            self._compiled = programs.compile(self.pattern, self.flags)
        return self._compiled

    @property
    def needles(self) -> Requirement | None:
        """What every match holds, or None when the expression requires nothing: as derived ahead of time
        (needles.py, held to the derivation by a test), else derived now."""
        if self._needles is False:
            from .needles import NEEDLES

            key = (self.pattern, self.flags)
            self._needles = NEEDLES[key] if key in NEEDLES else needles_of(self.pattern, self.flags)
        return self._needles  # type: ignore[return-value]

    @property
    def searches(self) -> tuple[tuple[tuple[tuple[str, bool], ...], ...], ...] | None:
        """The requirement with each needle marked by whether it is searched among a text's distinct words
        (`Text.distinct_words_joined`): one of two characters or more without white space. A single
        character is found faster by `memchr` in the text itself."""
        if self._searches is None and self.needles is not None:
            self._searches = tuple(
                tuple(tuple((needle, len(needle) > 1 and len(needle.split()) == 1 and needle.strip() == needle)
                            for needle in needles) for needles in sets)
                for sets in self.needles
            )
        return self._searches

    def finditer(self, string: str, pos: int = 0, endpos: int = 2**63 - 1) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def match(self, string: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.match(string, pos)

    def fullmatch(self, string: Any) -> Any:
        return self.compiled.fullmatch(string)

    def search(self, string: Any) -> Any:
        return self.compiled.search(string)

    def findall(self, string: str, pos: int = 0, endpos: int = 2**63 - 1) -> list[Any]:
        return self.compiled.findall(string, pos, endpos)


Requirement = tuple[tuple[tuple[str, ...], ...], ...]  # any alternative, all of its sets, any needle of a set


def needles_of(pattern: str | bytes, flags: int = 0) -> Requirement | None:
    """What every match of an expression holds (module docstring): for a top-level alternation, for each
    alternative, up to `_MAX_SETS` needle sets, every one of which the alternative's matches hold a needle
    of (the most selective first, each set's cheapest needle first); for any other expression, one such
    alternative. None when it requires nothing (a pattern of bytes, searched in decoded data, gets None)."""
    if _parse is None or flags & re.IGNORECASE or not isinstance(pattern, str):
        return None
    try:
        parsed = _parse.parse(pattern, flags)
        if parsed.state.flags & re.IGNORECASE:  # an inline (?i)
            return None
        items = list(parsed)
        if len(items) == 1 and items[0][0] is _sre.BRANCH:
            alternatives = [list(alternative) for alternative in items[0][1][1]]
        else:
            alternatives = [items]
        requirement = []
        for alternative in alternatives:
            sets = sorted(set(map(_merged, _candidates(alternative))), key=_order, reverse=True)[:_MAX_SETS]
            if not sets:
                return None
            requirement.append(tuple(tuple(sorted(needles, key=lambda n: (len(n), n))) for needles in sets))
    except Exception:  # a parser that changed shape: require nothing, run the expression
        return None
    return tuple(dict.fromkeys(requirement))


def _order(needles: frozenset[str]) -> tuple[tuple[bool, int, float], tuple[str, ...]]:
    return _score(needles), tuple(sorted(needles))  # the needles break ties: the same order on every run


def _merged(needles: frozenset[str]) -> frozenset[str]:
    """Needles sharing a start of `_MERGE_PREFIX` characters or more replaced by that start (`os.environ[`,
    `os.environ.get(`: `os.environ`): a weaker test, still required, and one search instead of several."""
    ordered = sorted(needles)
    out: list[str] = []
    for needle in ordered:
        if out:
            shared = _shared_start(out[-1], needle)
            if shared >= _MERGE_PREFIX:
                out[-1] = needle[:shared]
                continue
        out.append(needle)
    return _minimal(frozenset(out))


def _shared_start(first: str, second: str) -> int:
    count = 0
    for a, b in zip(first, second):
        if a != b:
            break
        count += 1
    return count


def _minimal(needles: frozenset[str]) -> frozenset[str]:
    """A needle holding another is redundant: where the shorter one is absent, so is the longer."""
    return frozenset(needle for needle in needles if not any(other != needle and other in needle for other in needles))


def _score(needles: frozenset[str]) -> tuple[bool, int, float]:
    """How good a needle set is: selective first (no needle of one or two ordinary characters, which most
    text holds), then long (up to `_LONG_ENOUGH`: longer words are rarer), then cheap (each needle is one
    search through the text; a single character is found by `memchr`, about twenty times faster)."""
    selective = all(len(needle) >= 3 or (len(needle) == 1 and needle not in _ORDINARY) for needle in needles)
    # a rare character selects as well as a long word; an ordinary one, as little as its length says
    length = min(_LONG_ENOUGH if len(n) == 1 and n not in _ORDINARY else min(len(n), _LONG_ENOUGH) for n in needles)
    cost = sum(_CHARACTER_COST if len(needle) == 1 else 1.0 for needle in needles)
    return selective, length, -cost


def _best(candidate: frozenset[str] | None, best: frozenset[str] | None) -> frozenset[str] | None:
    if not candidate:
        return best
    return candidate if best is None or _score(candidate) > _score(best) else best


def _sequence(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """The best needle set among a sequence's required items (each alone suffices)."""
    best: frozenset[str] | None = None
    for candidate in _candidates(items):
        best = _best(candidate, best)
    return best


def _candidates(items: list[tuple[Any, Any]]) -> list[frozenset[str]]:
    """A needle set for each required item of a sequence: every match holds a needle of each. Consecutive
    literal characters join into one needle; a small class or an alternation of plain words among them
    multiplies the needles (`key[34]\\.db`: `key3.db`, `key4.db`), up to `_MAX_SPELLINGS` of them. A run
    one of whose spellings is empty (`x?`) requires nothing."""
    found: list[frozenset[str]] = []
    run: list[str] = [""]
    for op, value in items:
        spellings = _spellings(op, value)
        if spellings is not None and len(run) * len(spellings) <= _MAX_SPELLINGS:
            run = [head + tail for head in run for tail in spellings]
            continue
        if "" not in run:
            found.append(_minimal(frozenset(run)))
        run = [""] if spellings is None else list(spellings)
        needles = _item(op, value) if spellings is None else None
        if needles:
            found.append(_minimal(needles))
    if "" not in run:
        found.append(_minimal(frozenset(run)))
    return found


def _spellings(op: Any, value: Any) -> list[str] | None:
    """The exact strings one item matches when they are few plain literals: a character, a small class of
    characters, or a group or alternation of plain words; None otherwise."""
    if op is _sre.LITERAL:
        return [chr(value)]
    if op is _sre.IN:
        if len(value) <= _MAX_CLASS_NEEDLES and all(kind is _sre.LITERAL for kind, _ in value):
            return [chr(code) for _, code in value]
        return None
    if op is _sre.SUBPATTERN:
        _group, add_flags, _del_flags, inner = value
        return None if add_flags & re.IGNORECASE else _words(list(inner))
    if op is _sre.MAX_REPEAT and value[0] == 0 and value[1] == 1:  # an optional plain item: `https?`
        spelled = _words(list(value[2]))
        return None if spelled is None else ["", *spelled]
    if op is _sre.BRANCH:
        words: list[str] = []
        for alternative in value[1]:
            spelled = _words(list(alternative))
            if spelled is None:
                return None
            words.extend(spelled)
        return words if len(words) <= _MAX_SPELLINGS else None
    return None


def _words(items: list[tuple[Any, Any]]) -> list[str] | None:
    """Every string a sequence of plain items matches, when that is a few exact strings; else None."""
    out = [""]
    for op, value in items:
        spelled = _spellings(op, value)
        if spelled is None or len(out) * len(spelled) > _MAX_SPELLINGS:
            return None
        out = [head + tail for head in out for tail in spelled]
    return out


def _item(op: Any, value: Any) -> frozenset[str] | None:
    if op is _sre.SUBPATTERN:
        _group, add_flags, _del_flags, inner = value
        return None if add_flags & re.IGNORECASE else _sequence(list(inner))
    if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT):
        low, _high, inner = value
        return _sequence(list(inner)) if low >= 1 else None
    if op is _sre.ATOMIC_GROUP:
        return _sequence(list(value))
    if op is _sre.BRANCH:
        _unused, alternatives = value
        union: set[str] = set()
        for alternative in alternatives:
            found = _sequence(list(alternative))
            if not found:
                return None
            union |= found
        return _minimal(frozenset(union))
    if op is _sre.IN:
        if len(value) > _MAX_CLASS_NEEDLES or any(kind is not _sre.LITERAL for kind, _ in value):
            return None
        return frozenset(chr(code) for _, code in value)
    return None
