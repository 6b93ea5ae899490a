"""Readings several agent models share: whitespace collapsed, tags stripped, a description made up from the body."""

from __future__ import annotations

import unicodedata

from ..core import programs
from .facts import SkillFacts
from .model import LOADS, UNKNOWN, WARNS, Verdict

_TAG = programs.compile(r"<[^>]+>")

SILENT = "skipped silently"


def collapse(text: str) -> str:
    """Runs of whitespace as one space, ends trimmed (Codex's `split_whitespace().join(" ")`)."""
    return " ".join(text.split())


def strip_tags(text: str) -> str:
    return _TAG.sub("", text)


def unreadable(facts: SkillFacts) -> Verdict | None:
    """The verdict on a file albedo-skills did not read (past its size bound, not UTF-8, a FIFO), or None.

    No agent was run on such files (beyond a 124,904-byte one, which every agent loaded), so the reason
    says what albedo-skills saw and that the agent's own answer is not known, not that the agent refuses it.
    """
    if facts.unreadable is None:
        return None
    return Verdict(
        UNKNOWN,
        reason=f"not judged: albedo-skills did not read the file ({facts.unreadable}); fix that and ask again",
    )


# Copilot CLI (as run) and libyaml, which serde_yaml wraps (Zed), word this refusal differently from the reader
# used here; the position agrees (run: Copilot CLI).
_LIBYAML_WORDING = {"mapping values are not allowed here": "mapping values are not allowed in this context"}


def libyaml_words(problem: str) -> str:
    return _LIBYAML_WORDING.get(problem, problem)


def cut(description: str, limit: int, where: str = "") -> tuple[str, str | None]:
    """The description an agent shows when it cuts at `limit` characters, and the note saying so (or None)."""
    if len(description) <= limit:
        return description, None
    return description[:limit], f"the description ({len(description):,} characters) is cut to {limit:,}{where}"


def loaded(name: str, description: str | None, notes: list[str | None]) -> Verdict:
    """Loads: cleanly, or with a warning made of the notes that apply."""
    said = [note for note in notes if note]
    return Verdict(WARNS if said else LOADS, name, description, "; ".join(said) if said else None)


def plural(count: int, word: str) -> str:
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def terminal_width(text: str) -> int:
    """Columns `text` takes in a terminal, as Bun's `stringWidth` counts them: a wide or full-width character
    (CJK, most emoji) is 2, a combining mark, format character or variation selector 0, any other 1."""
    width = 0
    for char in text:
        if unicodedata.category(char) in ZERO_WIDTH_CATEGORIES or "\ufe00" <= char <= "\ufe0f":
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


ZERO_WIDTH_CATEGORIES = frozenset({"Mn", "Me", "Cf", "Cc"})


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units, as JavaScript counts a string (a character outside the BMP is two)."""
    return len(text.encode("utf-16-le")) // 2


def utf16_prefix(text: str, units: int) -> str:
    """The longest start of `text` of at most `units` UTF-16 code units, never half a surrogate pair."""
    taken, count = [], 0
    for char in text:
        count += 2 if ord(char) > 0xFFFF else 1
        if count > units:
            break
        taken.append(char)
    return "".join(taken)
