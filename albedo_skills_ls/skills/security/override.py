"""Text addressed to the model that turns it against its user.

Five kinds, each a plain alternation of phrases (linear): ignore earlier or system instructions; hide a step
from the user; skip confirmation or permission; disable safety checks; pretend (to be a person, the user, an
unrestricted model, or that something succeeded). A skill may set a tone or a persona ("act as a code
reviewer"); what is flagged is taking the user's knowledge or consent away. A line whose earlier words quote
such text as an attack or an example ("watch for injections such as ...") is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core import programs
from ..core import security_codes
from ..core.limits import SECURITY_WINDOW_CHARS
from ..core.model import Diagnostic
from .prefilter import Expression
from .text import Text, shown

# words are separated by spaces or tabs, or by one line break (a sentence soft-wrapped in Markdown, a list
# item's or a quotation's continuation line); a blank line ends the paragraph, and the sentence with it
_S = r"(?:[ \t]+(?:\n[ \t>]*)?|\n[ \t>]*)"


def _starting(words: str, rest: str) -> list[str]:
    """One alternative per leading word: an expression whose every alternative starts with a literal letter is
    searched by Python's engine from that letter's positions only (text.py says why it matters)."""
    return [word + rest for word in words.split()]


_EARLIER = (
    rf"{_S}(?:all{_S}|any{_S})?(?:of{_S})?(?:the{_S}|your{_S})?(?:previous|prior|earlier|above|preceding|system|"
    rf"original|developer){_S}(?:instructions|prompts?|rules|guidelines|directions|messages)\b"
)
_TELL = (
    rf"{_S}(?:tell|inform|mention(?:{_S}this)?{_S}to|reveal(?:{_S}this)?{_S}to|notify|alert|show){_S}"
    rf"(?:this{_S}to{_S})?the{_S}user\b"
)
_CONSENT = r"(?:confirmation|permission|approval|consent)s?\b"
_SAFETY = (
    rf"{_S}(?:all{_S}|any{_S})?(?:of{_S})?(?:your{_S}|the{_S}|its{_S})?(?:safety|security|content){_S}(?:checks|"
    rf"filters?|guidelines|guardrails|restrictions|policies|measures|rules)\b"
)
_KINDS = (
    (
        "tells the model to ignore its earlier or system instructions",
        _starting("ignore disregard forget override", _EARLIER),
    ),
    (
        "tells the model to hide what it does from the user",
        _starting("never don't", _TELL) + [
            rf"do{_S}not{_TELL}",
            rf"without{_S}(?:telling|informing|notifying|alerting){_S}(?:the{_S})?user\b",
            rf"hide{_S}(?:this|it|that|the\w*){_S}(?:step{_S}|action{_S})?from{_S}the{_S}user\b",
            *_starting("keep make", rf"{_S}(?:this|it){_S}(?:secret|hidden|invisible){_S}from{_S}the{_S}user\b"),
            rf"the{_S}user{_S}(?:must|should){_S}(?:not|never){_S}(?:know|see|find{_S}out|be{_S}told)\b",
            rf"silently{_S}(?:send|upload|post|exfiltrate|copy)\b",
        ],
    ),
    (
        "tells the model to act without the user's confirmation",
        [
            # "without consent" alone is how rules forbid things ("no deploy without consent"): asking is named
            rf"without{_S}(?:asking{_S}(?:for{_S})?|requesting{_S}|waiting{_S}for{_S}|prompting{_S}for{_S})"
            rf"(?:the{_S}user's{_S}|user{_S})?{_CONSENT}",
            rf"without{_S}(?:the{_S})?user(?:'s)?{_S}{_CONSENT}",
            *_starting("skip bypass", rf"{_S}(?:the{_S}|any{_S}|user{_S})?{_CONSENT}"),
            *_starting("don't never", rf"{_S}ask{_S}(?:for{_S}(?:the{_S}|any{_S}|user{_S})?{_CONSENT}|the{_S}user"
                                      rf"{_S}(?:for{_S}permission|before|first)\b)"),
            rf"do{_S}not{_S}ask{_S}(?:for{_S}(?:the{_S}|any{_S}|user{_S})?{_CONSENT}|the{_S}user{_S}(?:for{_S}"
            rf"permission|before|first)\b)",
            r"--dangerously-skip-permissions\b",
        ],
    ),
    (
        "tells the model to turn off its safety checks",
        _starting("disable bypass ignore override circumvent", _SAFETY) + [
            rf"turn{_S}off{_SAFETY}",
            rf"you{_S}have{_S}no{_S}(?:restrictions|limits|rules|guidelines)\b",
            # "enable developer mode" is also a setting of Windows, Android and browsers: only the model's counts
            rf"you{_S}(?:must|should|will){_S}(?:now{_S})?(?:enable|enter){_S}developer{_S}mode\b",
            rf"jailbreak(?:ing)?{_S}(?:mode|prompt)\b",
        ],
    ),
    (
        "tells the model to pretend, deceiving the user",
        [
            rf"pretend{_S}(?:to{_S}be|(?:that{_S})?you{_S}are){_S}(?:a{_S})?(?:human|person|the{_S}user|not{_S}an?{_S}"
            rf"(?:ai|assistant|model|bot)|an?{_S}unrestricted|an?{_S}unfiltered)\b",
            rf"pretend{_S}(?:that{_S})?(?:the{_S}user{_S}(?:approved|confirmed|agreed|consented)|(?:it|the{_S}\w+){_S}"
            rf"(?:succeeded|passed|worked))\b",
            *_starting("claim say", rf"{_S}(?:that{_S})?you{_S}are{_S}(?:a{_S})?human\b"),
            rf"you{_S}are{_S}now{_S}(?:dan|unrestricted|unfiltered|in{_S}developer{_S}mode)\b",
        ],
    ),
)
# lower-case, matched on `Text.lower` at word starts (text.py says why)
_PATTERNS = tuple((what, Expression("|".join(alternatives))) for what, alternatives in _KINDS)


# after "do not tell the user": a quotation or "to ..." is a step the model should take itself rather than
# hand to the user ("do not tell the user to register the URI; do it"), not something hidden from them;
# "about each ..." is how often to narrate the work ("don't tell the user about each tool call as you make it")
_DELEGATED = programs.compile(
    rf"[ \t*_]*(?:[\"'“‘]|to\b|that{_S}(?:they|you){_S}(?:should|must|need)|about{_S}(?:each|every)\b)"
)
_HIDE = _KINDS[1][0]
# later in the sentence, a step held back only until a condition holds ("do not show the user the tour until
# validation passes"): shown later, not hidden
_DEFERRED = programs.compile(rf"[^.!?\n]{{0,200}}?{_S}(?:until|before|unless){_S}")
# a command-line option on the line before the match (`--force`, `-y`), then a comment or table cell
# describing it: "`--yes` | Skip confirmation prompts", "delete NAME --force  # skip confirmation". The flag
# skips that tool's own prompt; it is not the skill telling the model to skip the user's
_FLAG_THEN_DESCRIPTION = programs.compile(r"(?:^|[\s`(|/,])--?[a-z][\w-]*[^\n]{0,200}?[#|][^#|]{0,40}$")
# a clause whose subject is the agent, a tool or a mode in the third person describes what it does ("AI acts
# without asking for confirmation", "agents skip confirmations for read-only tools"); the instruction shape
# is an imperative, with no subject or `you`
_THIRD_PERSON = frozenset(
    "ai it they agents agent model models assistant autopilot mode tool tools server users which".split()
)
_CLAUSE_BREAK = programs.compile(r"[.!?:;|]\s|^\s*(?:[-*+]|\d+[.)])\s+|\*\*")
# a shell alias offers a command to the user, who types it or not; it runs nothing (`alias x='claude --...'`)
_ALIAS = programs.compile(r"(?:^|[\s;])alias[ \t]+[\w.-]+=[\"']")
_QUOTES = {"\"": "\"", "'": "'", "“": "”", "‘": "’"}


def _quoted(lower: str, start: int, end: int) -> bool:
    """The match is a quotation by itself (`"ignore previous instructions,"`): text mentioned, not said."""
    opening = lower[start - 1] if start > 0 else ""
    closing = _QUOTES.get(opening)
    if closing is None:
        return False
    after = lower[end : end + 3].lstrip(",.;:!? ")
    return after.startswith(closing)


def _described(line_before: str) -> bool:
    """The clause before the match has a third-person subject: it says what someone does, it orders nothing."""
    breaks = list(_CLAUSE_BREAK.finditer(line_before))
    clause = line_before[breaks[-1].end() :] if breaks else line_before
    words = clause.replace("*", " ").replace("_", " ").split()
    while words and words[0] in ("the", "a", "an", "this", "that"):
        words = words[1:]
    # the clause's subject, or the word just before the verb: "(agents skip confirmation based on it)"
    return len(words) >= 1 and (words[0].strip(",") in _THIRD_PERSON or words[-1].strip("(,") in _THIRD_PERSON)


def scan(text: Text) -> Iterator[Diagnostic]:
    lower = text.lower
    for what, pattern in _PATTERNS:
        for match in text.words(pattern):
            if text.warned(match.start()) or _quoted(lower, match.start(), match.end()):
                continue
            if what == _HIDE and match.group().endswith("user") and (
                _DELEGATED.match(lower, match.end()) or _DEFERRED.match(lower, match.end())
            ):
                continue
            line_start = text.line_starts[text.line_of(match.start())]
            line_before = lower[max(line_start, match.start() - SECURITY_WINDOW_CHARS) : match.start()]
            if _FLAG_THEN_DESCRIPTION.search(line_before) or _described(line_before) or _ALIAS.search(line_before):
                continue
            line = text.line_text(text.line_of(match.start()))
            yield security_codes.SECURITY_MODEL_OVERRIDE.at(
                text.path,
                f"{what}: “{shown(text.text[match.start() : match.end()], 80)}” (in “{shown(line.strip(), 120)}”). "
                "Check what this "
                "instruction is for; a skill should not take the user's knowledge or consent away",
                text.range(match.start(), match.end()),
            )
