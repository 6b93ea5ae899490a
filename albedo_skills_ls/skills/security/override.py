"""Text addressed to the model that turns it against its user.

Five kinds, each a plain alternation of phrases (linear): ignore earlier or system instructions; hide a step
from the user; skip confirmation or permission; disable safety checks; pretend (to be a person, the user, an
unrestricted model, or that something succeeded). A skill may set a tone or a persona ("act as a code
reviewer"); what is flagged is taking the user's knowledge or consent away. A line whose earlier words quote
such text as an attack or an example ("watch for injections such as ...") is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .. import codes
from ..model import Diagnostic
from .text import Text, shown

_S = r"[ \t]+"  # words are separated by spaces or tabs on one line
_KINDS = (
    (
        "tells the model to ignore its earlier or system instructions",
        rf"\b(?:ignore|disregard|forget|override){_S}(?:all{_S}|any{_S})?(?:of{_S})?(?:the{_S}|your{_S})?"
        rf"(?:previous|prior|earlier|above|preceding|system|original|developer){_S}(?:instructions|prompts?|"
        rf"rules|guidelines|directions|messages)\b",
    ),
    (
        "tells the model to hide what it does from the user",
        rf"\b(?:do{_S}not|don't|never){_S}(?:tell|inform|mention(?:{_S}this)?{_S}to|reveal(?:{_S}this)?{_S}to|"
        rf"notify|alert|show){_S}(?:this{_S}to{_S})?the{_S}user\b|\bwithout{_S}(?:telling|informing|notifying|"
        rf"alerting){_S}(?:the{_S})?user\b|\bhide{_S}(?:this|it|that|the\w*){_S}(?:step{_S}|action{_S})?from"
        rf"{_S}the{_S}user\b|\b(?:keep|make){_S}(?:this|it){_S}(?:secret|hidden|invisible){_S}from{_S}the{_S}user"
        rf"\b|\bthe{_S}user{_S}(?:must|should){_S}(?:not|never){_S}(?:know|see|find{_S}out|be{_S}told)\b|"
        rf"\bsilently{_S}(?:send|upload|post|exfiltrate|copy)\b",
    ),
    (
        "tells the model to act without the user's confirmation",
        rf"\bwithout{_S}(?:asking{_S}(?:for{_S})?|requesting{_S}|waiting{_S}for{_S})?(?:the{_S}user's{_S})?"
        rf"(?:confirmation|permission|approval|consent)\b|\b(?:skip|bypass|don't{_S}ask{_S}for|do{_S}not{_S}ask"
        rf"{_S}for|never{_S}ask{_S}for){_S}(?:the{_S}|any{_S}|user{_S})?(?:confirmation|permission|approval|"
        rf"consent)s?\b|\b(?:do{_S}not|don't|never){_S}ask{_S}the{_S}user{_S}(?:for{_S}permission|before|first)"
        rf"\b|--dangerously-skip-permissions\b",
    ),
    (
        "tells the model to turn off its safety checks",
        rf"\b(?:disable|bypass|ignore|turn{_S}off|override|circumvent){_S}(?:all{_S}|any{_S})?(?:of{_S})?"
        rf"(?:your{_S}|the{_S}|its{_S})?(?:safety|security|content){_S}(?:checks|filters?|guidelines|"
        rf"guardrails|restrictions|policies|measures|rules)\b|\byou{_S}have{_S}no{_S}(?:restrictions|limits|"
        rf"rules|guidelines)\b|\b(?:enable|enter){_S}developer{_S}mode\b|\bjailbreak(?:ing)?{_S}(?:mode|"
        rf"prompt)\b",
    ),
    (
        "tells the model to pretend, deceiving the user",
        rf"\bpretend{_S}(?:to{_S}be|(?:that{_S})?you{_S}are){_S}(?:a{_S})?(?:human|person|the{_S}user|"
        rf"not{_S}an?{_S}(?:ai|assistant|model|bot)|an?{_S}unrestricted|an?{_S}unfiltered)\b|\bpretend{_S}"
        rf"(?:that{_S})?(?:the{_S}user{_S}(?:approved|confirmed|agreed|consented)|(?:it|the{_S}\w+){_S}"
        rf"(?:succeeded|passed|worked))\b|\b(?:claim|say){_S}(?:that{_S})?you{_S}are{_S}(?:a{_S})?human\b|"
        rf"\byou{_S}are{_S}now{_S}(?:DAN|unrestricted|unfiltered|in{_S}developer{_S}mode)\b",
    ),
)
_PATTERNS = tuple((what, re.compile(pattern, re.IGNORECASE)) for what, pattern in _KINDS)


def scan(text: Text) -> Iterator[Diagnostic]:
    for what, pattern in _PATTERNS:
        for match in pattern.finditer(text.text):
            if text.warned(match.start()):
                continue
            line = text.line_text(text.line_of(match.start()))
            yield codes.SECURITY_MODEL_OVERRIDE.at(
                text.path,
                f"{what}: “{shown(match.group(), 80)}” (in “{shown(line.strip(), 120)}”). Check what this "
                "instruction is for; a skill should not take the user's knowledge or consent away",
                text.range(match.start(), match.end()),
            )
