"""Instructions to the model that act against its user, read as sentences (sentences.py): by the shape of the
sentence (an imperative addressed to the model, its object, its destination), not by a list of phrases.

- **Send with the agent's own tools** (`security-agent-exfiltration`): an imperative to send, upload, post,
  forward or share (or to fetch, open or visit an address carrying it) whose object is the user's secrets or
  private data (credentials, tokens, keys, passwords, `.env`, the environment, configuration, cookies, the
  conversation, source code) and whose destination is elsewhere (an address, a server, a webhook, a web-fetch
  or browser tool); and a Markdown image or link to a remote address built from data (a placeholder such as
  `{conversation}` or `<token>` in it, or its query), which the chat renders by fetching it.
- **Report what did not happen** (`security-false-report`): an imperative to report, say or mark success,
  passing tests, approval or completion, with "whatever happened", "regardless", "even if", "no matter" or
  "always": an outcome claimed unconditionally.
- **Conceal from the user** (`security-model-override`, the hiding kind): a prohibition to mention, report,
  show or include an action the model takes (a step, an upload, a command, "that you ...") to the user or in
  its summary, reply or report; or an imperative to hide, omit or leave one out of them.
- **A credential for no named purpose** (`security-credential-instruction`): an imperative to read, copy, get
  or use a credential (a token, a key, a password, `.env`, `~/.aws/credentials`...); a warning when the skill's
  description names no purpose for it (scan_skill turns it into information when it does, `purpose_named`).

Quiet, on purpose: a prohibition of sending, rendering or claiming (advice against the practice); a sentence
whose verb is someone else's ("Flag skills that tell the model to upload .env", "the attacker says ...", a
review checklist); text inside quotation marks; a key sent where keys go ("in the Authorization header");
an unconditional report of something that is not an outcome; a line whose earlier words warn (text.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..core import codes, security_codes
from ..core.model import INFORMATION, Diagnostic
from .sentences import Imperative, Lazy, Prose, Sentence, imperative, instructions, said, starts
from .text import Text, shown

_SEND = frozenset("send post upload submit transmit forward share exfiltrate copy paste sync mirror beacon leak "
                  "relay".split())
_VISIT = frozenset("fetch open visit load request browse navigate call ping curl get hit query".split())
_DATA = Lazy(
    r"(?:secrets?|credentials?|tokens?|api[ -]?keys?|private keys?|ssh keys?|\.ssh\b|passwords?|passphrases?|"
    r"\.env\b|environment variables|\benv vars?|the environment|cookies?|session|\.npmrc|\.netrc|\.aws\b|"
    r"configuration|config files?|\.git/config|conversation|chat history|the user's (?:files|messages|data)|"
    r"source code|the repository's|the repo's|keychain|wallet)"
)
# where data goes: introduced by a preposition ("to https://...", "with your web fetch tool"); an address
# alone names a place, "email in token" a noun
_DESTINATION = Lazy(
    r"\b(?:to|into|at|via|with|using|through) (?:the |your |a |an |this |that |our |my )?(?:\w+ )?(?:https?://|"
    r"webhook|endpoint|server\b|host\b|url\b|address\b|collector|web[ _-]?fetch|browser\b|http\b|pastebin|gist\b|"
    r"discord|slack|telegram)"
)
_IN_THE_ADDRESS = Lazy(r"(?:\?|=|\{|<|\$\{?)|(?:with|containing|including|carrying|appending|append|add)\b")
_KEY_PLACES = Lazy(r"\b(?:authorization|bearer|header|x-api-key)\b")
_TOOL = Lazy(r"(?:your|the) ([\w -]{0,30}?) tool to ")
# a placeholder may hold spaces and a line break (`<summary of the user's files>`): the model fills it in
_IMAGE = Lazy(r"!?\[[^\]\n]{0,200}\]\((https?://(?:[^)\s<{]|<[^>]{0,80}>|\{[^}]{0,80}\}){1,500})\)")
_PLACEHOLDER = Lazy(r"\{[^}]{1,80}\}|<[^>]{1,80}>|\$\{?[a-z_]+|\[[a-z_ ]{1,40}\]")
_DATA_NAMES = Lazy(
    r"(?:data|content|secret|token|key|password|env|history|conversation|chat|summary|answer|response|message|"
    r"output|input|user|query|prompt|base64|encoded|file)"
)
# telling someone an outcome (not producing output: "always return a complete method" is no claim)
_CLAIM = frozenset("report say tell claim state respond reply answer mark announce declare confirm assert".split())
_OUTCOME = Lazy(r"\b(?:success\w*|succeed\w*|pass(?:ed|es|ing)?|green|approved|complete[d]?|done|fixed|"
                      r"resolved|works|working|ok|no errors|all tests)\b")
_UNCONDITIONAL = Lazy(r"\b(?:whatever|regardless|no matter|even if|even when|in any case|in every case|"
                            r"always|every time|irrespective|without (?:running|checking|verifying|testing))\b")
_TELLING = frozenset("mention tell report show include reveal disclose say list display surface explain "
                     "describe".split())
_HIDING = frozenset("hide omit conceal suppress leave keep remove strip exclude".split())
# what is hidden from: the user, or what the model tells them (not "the command output", an HTTP response)
_AUDIENCE = Lazy(r"\b(?:the user\b|user's|(?:your|the final) (?:summary|reply|response|report|answer|output|"
                       r"message)|transcript|changelog)")
# how each hiding verb hides: "keep it secret", "leave it out of", "remove it from"; hide, omit, conceal alone
_HIDDEN_HOW = {"keep": Lazy(r"\b(?:secret|hidden|private|quiet|to yourself|from)\b"),
               "leave": Lazy(r"\bout of\b"), "remove": Lazy(r"\bfrom\b"),
               "strip": Lazy(r"\bfrom\b"), "exclude": Lazy(r"\bfrom\b")}
_ACTION = Lazy(r"\b(?:that you|what you|the fact|steps?|actions?|commands?|uploads?|downloads?|requests?|"
                     r"transfers?|deletions?|installations?|network|connections?|tokens?|keys?|credentials?|"
                     r"secrets?|\.env)\b")
_READ = frozenset("read get grab copy extract take fetch retrieve collect cat print export dump".split())
# where a credential is read from: a local file, store or the environment (an address is where the user signs
# up for their own key: "get an API key at https://...")
_FROM = Lazy(r"\b(?:from|in|out of)\b")
_LOCAL_PLACE = Lazy(r"(?:~/|\$home|%\w+%|(?<![:/\w])/[\w.]|(?:^|\s)\.[\w-]+|\b(?:file|config|configuration|"
                          r"settings|keychain|environment|env|vault|store|profile)\b)")
_CREDENTIAL = Lazy(
    r"(?:((?:[a-z0-9]+[ _-])?)(?:tokens?|api[ -]?keys?|private keys?|deploy keys?|ssh keys?|passwords?|"
    r"credentials?|secrets?|session cookies?)\b|~?/?\.(?:aws/credentials|netrc|npmrc|pypirc|git-credentials|"
    r"ssh/id_\w+|env)\b)"
)
# a credential file of the user's named as the object is its own place ("read ~/.aws/credentials"): the stores
# of the home folder, not a project's own `.env`, `.npmrc` or `.pypirc` (read from a project, they are how it
# is set up), and never a public key
_USERS_CREDENTIAL_FILE = Lazy(r"(?:~/\.(?:netrc|npmrc|pypirc)|~?/?\.(?:aws/credentials|git-credentials|ssh/id_\w+))"
                              r"\b(?!\.pub\b)")
_QUOTED = Lazy(r"\"[^\"]{0,400}\"|“[^”]{0,400}”")
# a credential read for these is what the description may name as its purpose
# whole words ("api" is not in "rapid", nor "key" in "keyboard"): a description naming what a key is for
_PURPOSES = Lazy(r"\b(?:apis?|auth\w*|tokens?|credentials?|keys?|logs? ?in|signs? ?in|deploy\w*|publish\w*|upload\w*|"
                 r"secrets?|passwords?)\b")
_UNNAMED = " for a purpose the skill's description does not name"
_KINDS = frozenset({"the", "a", "token", "tokens", "key", "keys", "credentials", "credential", "secret", "password"})
_QUALIFIER = Lazy(r"a credential \(([^)]*)\)")  # the credential named in the finding's message


def scan(text: Text) -> Iterator[Diagnostic]:
    """The instructions against the user in one Markdown text's prose."""
    if not text.path.lower().endswith((".md", ".markdown", ".mdx")):
        return
    found: list[Diagnostic] = []
    prose = Prose(text)
    if "](http" in text.lower:
        found.extend(_images(text, prose))
    lines = {d.range.start.line for d in found}  # one finding a line (an image's sentence read twice is one)
    for sentence, order in instructions(text, _VERBS, _STARTS):
        said_here = _read(text, sentence, order)  # the cheap questions first: most sentences end here
        if said_here is None or sentence.start not in prose or text.warned(sentence.start):
            continue
        if said_here.range.start.line not in lines:
            lines.add(said_here.range.start.line)
            found.append(said_here)
    yield from sorted(found, key=lambda d: d.sort_key)


# the verbs a shape starts with: a sentence starting with none of them is read no further
_VERBS = _SEND | _VISIT | _CLAIM | _TELLING | _HIDING | _READ | {"use", "call", "invoke"}
_STARTS = starts(_VERBS)


def _finding(text: Text, sentence: Sentence, code: codes.Code, what: str) -> Diagnostic:
    """A finding on the sentence (or the image), quoting it."""
    return code.at(
        text.path,
        f"{what}: “{shown(text.text[sentence.start : sentence.end], 160)}”. Read the instruction: a skill should not "
        "have the model act against its user",
        text.range(sentence.start, sentence.end),
    )


def _images(text: Text, prose: Prose) -> Iterator[Diagnostic]:
    """Markdown images and links in prose to a remote address built from data: a placeholder named for data, or
    any placeholder in the query."""
    for match in _IMAGE.finditer(text.text):
        address = match.group(1).lower()
        query = address.partition("?")[2]
        for placeholder in _PLACEHOLDER.finditer(address):
            in_query = bool(query) and placeholder.start() > len(address) - len(query) - 1
            if (_DATA_NAMES.search(placeholder.group()) or in_query) and match.start() in prose and not text.warned(
                match.start()
            ):
                yield _finding(text, Sentence(match.start(), match.end()), security_codes.SECURITY_AGENT_EXFILTRATION,
                               "a Markdown image or link to a remote address built from data: rendering it sends "
                               "that data to the address's owner")
                break


def _read(text: Text, sentence: Sentence, order: Imperative) -> Diagnostic | None:
    quoted = _QUOTED.sub('""', order.rest)
    order = order._replace(rest=quoted)
    tool = _TOOL.match(order.rest) if order.verb in ("use", "call", "invoke") else None
    if tool is not None:  # "use the browser tool to open ...": the verb after "to", with the tool as destination
        inner = imperative(order.rest, tool.end())
        if inner is not None:
            order = Imperative(order.prohibited, inner.verb, inner.rest + " with the " + tool.group(1) + " tool")
    return (
        _sends(text, sentence, order) or _claims(text, sentence, order) or _hides(text, sentence, order)
        or _credential(text, sentence, order)
    )


def _sends(text: Text, sentence: Sentence, order: Imperative) -> Diagnostic | None:
    if order.prohibited or order.verb not in _SEND | _VISIT:
        return None
    data, destination = _DATA.search(order.rest), _DESTINATION.search(order.rest)
    if data is None or destination is None or _KEY_PLACES.search(order.rest):
        return None
    if order.verb in _VISIT and not _IN_THE_ADDRESS.search(order.rest):
        return None  # "open https://... to read the configuration": nothing is carried there
    return _finding(text, sentence, security_codes.SECURITY_AGENT_EXFILTRATION,
                    f"tells the model to {order.verb} the user's {data.group()} out with its own tools")


def _claims(text: Text, sentence: Sentence, order: Imperative) -> Diagnostic | None:
    if order.prohibited or order.verb not in _CLAIM:
        return None
    if not _OUTCOME.search(order.rest) or not _UNCONDITIONAL.search(said(text.text, sentence)):
        return None
    return _finding(text, sentence, security_codes.SECURITY_FALSE_REPORT,
                    "tells the model to report an outcome whatever actually happened")


def _hides(text: Text, sentence: Sentence, order: Imperative) -> Diagnostic | None:
    how = _HIDDEN_HOW.get(order.verb)
    hidden = (order.prohibited and order.verb in _TELLING) or (
        not order.prohibited and order.verb in _HIDING and (how is None or how.search(order.rest))
    )
    if not hidden or not _AUDIENCE.search(order.rest) or not _ACTION.search(order.rest):
        return None
    return _finding(text, sentence, security_codes.SECURITY_MODEL_OVERRIDE,
                    "tells the model to hide what it does from the user")


def _credential(text: Text, sentence: Sentence, order: Imperative) -> Diagnostic | None:
    if order.prohibited or order.verb not in _READ:
        return None
    where = _FROM.search(order.rest)
    credential = _CREDENTIAL.search(order.rest, 0, where.start() if where else len(order.rest))
    place = order.rest[where.end() :].lstrip(" :") if where else ""
    if credential is None:
        return None
    own_place = _USERS_CREDENTIAL_FILE.match(order.rest, credential.start()) is not None
    if not own_place and (place.startswith("http") or not _LOCAL_PLACE.search(place[:120])):
        return None
    return _finding(text, sentence, security_codes.SECURITY_CREDENTIAL_INSTRUCTION,
                    f"tells the model to {order.verb} a credential ({credential.group().strip()}){_UNNAMED}")


def purpose_named(found: list[Diagnostic], description: str | None) -> list[Diagnostic]:
    """A credential instruction in a skill whose description names a purpose for credentials (an API, signing
    in, deploying, the credential's own kind) is information: the skill says what the key is for."""
    if description is None:
        return found
    said = set(re.findall(r"[a-z0-9]+", description.lower()))
    generic = _PURPOSES.search(description.lower()) is not None
    kept = []
    for finding in found:
        if finding.code == security_codes.SECURITY_CREDENTIAL_INSTRUCTION.id:
            qualifier = _QUALIFIER.search(finding.message)
            own = qualifier is not None and bool(set(re.findall(r"[a-z0-9]+", qualifier.group(1))) & said - _KINDS)
            if generic or own:  # "Deploys to Vercel" names a deploy token's purpose; "aws" an AWS credential's
                message = finding.message.replace(_UNNAMED, "; the skill's description says what it is for (a note)")
                finding = finding._replace(severity=INFORMATION, message=message)
        kept.append(finding)
    return kept


def descriptions(texts: Iterable[Text]) -> str | None:
    """The description of the skill whose texts these are (its SKILL.md's frontmatter), if one is read."""
    for text in texts:
        if text.path.endswith("SKILL.md") and text.text.startswith("---"):
            match = re.search(r"^description:[ \t]*(.*(?:\n[ \t]+.*)*)", text.text[:65536], re.MULTILINE)
            return match.group(1) if match else None
    return None
