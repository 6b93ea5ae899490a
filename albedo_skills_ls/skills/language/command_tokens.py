"""Where a `/command` stands alone in a line of Markdown: the one rule every reader of commands in prose
shares (mentions and rename in `mention_scan.py`, the `command-unknown` check in `unknown_commands.py`).

A skill's command is written the way people write it, in the middle of a sentence ("Before anything else,
run /demo first."), and `/` also starts paths, URLs and `and/or`. A `/word` is a command token only where
nothing else can be meant (docs/rename.md#what-counts-as-a-mention):

- before the `/`: the start of the line, white space, or opening punctuation (`OPENING`); so never after a
  letter, a digit, `/` or `:` (`and/or`, `a/b`, `https://x/demo`);
- the word: ASCII letters, digits and `-` (what a name may hold, in any case, so `/Demo` is read whole and
  is no skill's command); `/skill:word` is the skill command form;
- after the word: the end of the line, white space, or closing punctuation (`CLOSING`), except a `.`, `:` or
  `_` followed by a word character (`/demo.md`, `/plugin:command`, `/demo_x`); so never `/demo/x`,
  `/demo-extra`.

Inline code and links narrow it: in a code span only the token the span starts with counts (`` `/demo` ``,
`` `/demo merge` ``; `` `ls /demo -la` `` is a shell line naming a path), and a link's destination is a path,
never a command (`[x](/demo)`). Fenced code is the caller's to skip (it reads prose lines only).
Every scan is linear in the line: each `/` is looked at once and a word never holds a `/`.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from ..core import programs
from ..document.markdown_spans import line_spans

OPENING = frozenset("([\"'*_`")  # may stand just before the `/`, besides white space and the line start
CLOSING = frozenset(".,;:!?)]\"'*_")  # may stand just after the word, besides white space and the line end
# closing, unless a word character follows: `/demo.md`, `/plugin:command`, `/demo_config` go on as one word
_CONTINUES = frozenset(".:_")
SKILL_FORM = "/skill:"
_WORD_CLASS = "A-Za-z0-9-"  # what a word holds: a name's characters, in any letter case

CommandKind = Literal["command", "code"]


class Token(NamedTuple):
    """A `/word` standing alone: where its `/` is, where the word starts, the word, and its form."""

    slash: int
    start: int  # the column of the word (after `/` or `/skill:`): what a rename replaces
    name: str
    skill_form: bool  # written `/skill:name`

    @property
    def end(self) -> int:
        return self.start + len(self.name)

    @property
    def written(self) -> str:
        return (SKILL_FORM if self.skill_form else "/") + self.name


class LineCommand(NamedTuple):
    """A command token of a prose line and where it stands: in running text (`command`) or at the start of
    a code span (`code`)."""

    token: Token
    kind: CommandKind


def _characters(characters: frozenset[str]) -> str:
    return re.escape("".join(sorted(characters)))


# The rule in one expression: the `/` after the line start, white space or opening punctuation; the skill
# form when `skill:` is followed by a word; the word; then the line end, white space or closing punctuation
# (a continuing one only when no word character follows). One character class per part, the word taken
# possessively: nothing to backtrack into, so a scan is linear.
_TOKEN = programs.compile(
    rf"(?:(?<=[\s{_characters(OPENING)}])|^)/((?:skill:(?=[{_WORD_CLASS}]))?)([{_WORD_CLASS}]++)"
    rf"(?=$|[\s{_characters(CLOSING - _CONTINUES)}]|[{_characters(_CONTINUES)}](?![{_WORD_CLASS}]))"
)
_new_token = tuple.__new__  # a Token from its fields without its Python-level __new__: one per `/word`


def _token(match: re.Match[str]) -> Token:
    start = match.start(2)
    return _new_token(Token, (match.start(), start, match.group(2), bool(match.group(1))))


def token_at(text: str, slash: int) -> Token | None:
    """The command token whose `/` is at `slash` in `text`, when it stands alone there; else None."""
    match = _TOKEN.match(text, slash)
    return _token(match) if match is not None else None


def standalone_tokens(text: str) -> list[Token]:
    """Every command token standing alone in `text` (one line, or a code span's content), left to right."""
    return list(map(_token, _TOKEN.finditer(text)))


def line_commands(line: str) -> list[LineCommand]:
    """The command tokens of one prose line (without its end), left to right: in running text, outside code
    spans and link destinations; and the token a code span starts with."""
    if "/" not in line:
        return []
    if "`" not in line and "](" not in line and "]:" not in line:
        return [LineCommand(token, "command") for token in standalone_tokens(line)]
    spans = line_spans(line)
    # the columns no running-text token may start in: code spans whole, link destinations
    closed = [(span.start, span.end) for span in spans.code] + [(span.begin, span.stop) for span in spans.links]
    if spans.definition is not None:
        closed.append((spans.definition.begin, spans.definition.stop))
    closed.sort()
    found: list[LineCommand] = []
    index = 0  # tokens and closed spans both run left to right: one walk through each
    for token in standalone_tokens(line):
        while index < len(closed) and closed[index][1] <= token.slash:
            index += 1
        if index == len(closed) or token.slash < closed[index][0]:
            found.append(LineCommand(token, "command"))
    for span in spans.code:
        content = line[span.begin : span.stop]
        lead = len(content) - len(content.lstrip())
        if content[lead : lead + 1] == "/":
            token = token_at(content, lead)
            if token is not None:
                shift = span.begin
                moved = Token(token.slash + shift, token.start + shift, token.name, token.skill_form)
                found.append(LineCommand(moved, "code"))
    found.sort(key=lambda command: command.token.slash)
    return found
