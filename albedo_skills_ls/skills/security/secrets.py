"""Credentials read, and data sent out. Either alone may be a skill's job; the pair in one skill is the shape
of theft, and `scan_skill` reports it as a third, graver finding (`security-credential-exfiltration`).

Reads: paths of SSH keys, cloud and registry credentials, browser profiles and password stores, the macOS
keychain and the Secret Service, a `.env` file opened or sourced, the whole environment dumped; and an
environment variable named like a token, secret, password or key (`$GITHUB_TOKEN`, `os.environ["API_KEY"]`),
which is information only: it is how a skill is meant to receive its own key.
Sending: a file or the environment uploaded (`curl -d @file`, `-F f=@file`, `--upload-file`, `nc host port <`,
`Invoke-RestMethod -InFile`, `requests.post(..., files=)`), any address of a webhook, paste site, request
catcher or tunnel, and a DNS lookup of a name built from a variable.
A line whose earlier words warn against the thing ("never commit `.env`") is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..core import programs
from ..core import security_codes
from ..core.limits import SECURITY_WINDOW_CHARS
from ..core.model import INFORMATION, Diagnostic
from .prefilter import Expression
from .secret_names import NOT_THE_SECRET
from .text import Text, last_before, shown

# lower-case patterns, matched on `Text.lower` (text.py says why)
_SECRET_PATHS = Expression(
    r"\.ssh/(?:id_[a-z0-9_]+|identity)\b(?!\.pub)|\.aws/credentials\b|\.config/gcloud\b|"
    r"application_default_credentials\.json|"
    r"\.kube/config\b|\.docker/config\.json|\.netrc\b|\.git-credentials\b|\.pypirc\b|\.npmrc\b|\.gnupg/|"
    r"\.azure/(?:accesstokens|msal_token_cache)|login data\b|logins\.json\b|key[34]\.db\b|"
    r"cookies\.binarycookies\b|google/chrome/(?:default|profile)|\.mozilla/firefox|library/keychains|"
    r"login\.keychain|security[ \t]+(?:find-generic-password|find-internet-password|dump-keychain)\b|"
    r"secret-tool[ \t]+lookup\b|wallet\.dat\b"
)
# a `.env` file, found by its name; it counts as read when a reading word stands just before its path
_DOTENV_NAME = Expression(r"\.env(?![\w.-])")
_READERS = ("cat", "source", ".", "type", "get-content", "less", "more", "head", "tail", "open(", "read_text(",
            "readfilesync(", "load_dotenv(", "dotenv_values(")
_PATH_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-.~/${}")
# printed whole, or piped or written anywhere but into a search for one name (checked on the match)
_ENV_DUMP = Expression(
    r"(?:printenv\b[ \t]*(?:$|[|>;&)`])|env[ \t]*[|>]|dict\(os\.environ\)|json\.dumps\(os\.environ|"
    r"json\.stringify\(process\.env\)|get-childitem[ \t]+env:|gci[ \t]+env:|ls[ \t]+env:)",
    re.MULTILINE,
)
# names are case-sensitive here (matched on the text): environment variables holding secrets are upper-case
# a name ending in _FILE, _PATH, _DIR, _URL... holds where a secret is, not the secret: left out
# (checked on the match); bounded runs around the word, so a long name costs at most 64 x 64 steps
_SECRET_NAME = (
    r"[A-Z0-9_]{0,64}(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]{0,64}"
)
_UPPER_NAME = programs.compile(r"[A-Z0-9_]+")
_SECRET_VARIABLE = Expression(
    rf"\$\{{?{_SECRET_NAME}\b|\$env:{_SECRET_NAME}\b|os\.environ(?:\.get)?[\[(][ \t]*[\"']{_SECRET_NAME}[\"']|"
    rf"os\.getenv\([ \t]*[\"']{_SECRET_NAME}[\"']|process\.env\.{_SECRET_NAME}\b|"
    rf"process\.env\[[\"']{_SECRET_NAME}[\"']\]|ENV\[[\"']{_SECRET_NAME}[\"']\]|getenv\([\"']{_SECRET_NAME}[\"']",
)

# curl's flags are case-sensitive (matched on the text); a flag starts after a space or tab (checked on the match)
_UPLOAD_FLAG = Expression(
    r"-(?:d|-data|-data-binary|-data-raw|-data-urlencode)[ \t=]*[\"']?@|-(?:F|-form)[ \t]+[\"']?[\w.-]+=@|"
    r"-(?:T|-upload-file)[ \t]+\S"
)
_CURL = Expression(r"curl\b")
_OTHER_UPLOAD = Expression(r"invoke-restmethod\b[^\n]{0,200}?-infile\b|requests\.post\([^\n]{0,200}?\bfiles[ \t]*=")
# a raw socket is no service's API: what it sends goes to whoever listens (a reverse shell's shape)
_RAW_SOCKET = Expression(r"(?:nc|ncat|netcat)[ \t]+[\w.-]+[ \t]+\d+[ \t]*<|/dev/tcp/[\"']?[\w${]")
_COLLECTORS = Expression(
    r"(?:https?|wss?)://(?:[\w-]+\.)*(?:webhook\.site|requestbin\.\w+|pipedream\.net|hookbin\.com|beeceptor\.com|"
    r"requestcatcher\.com|ngrok(?:-free)?\.(?:io|app|dev)|trycloudflare\.com|pastebin\.com|paste\.ee|hastebin\.com|"
    r"ghostbin\.\w+|transfer\.sh|0x0\.st|file\.io|termbin\.com|(?:discord|discordapp)\.com/api/webhooks|"
    r"hooks\.slack\.com|api\.telegram\.org/bot|interact\.sh|oast\.(?:fun|pro|live|site|online|me)|"
    r"burpcollaborator\.net|canarytokens\.com|dnslog\.cn)"
)
# at a command's start (checked on the match), a name holding `$(...)` or `$VAR` before its last label
_DNS_LOOKUP = Expression(
    r"(?:dig|nslookup|host|ping|resolve-dnsname)[ \t]+(?:-\w+[ \t]+)?[\"']?[\w.-]{0,200}(?:\$\(|\$\{?\w)"
    r"[^\s\"']{0,200}\.[a-z]{2,}"
)
# words that read a file named later in the same command
_READING = Expression(
    r"(?:cat|less|more|head|tail|type|get-content|gc|source|cp|copy|scp|rsync|tar|zip|7z|base64|xxd|strings|grep|"
    r"open|read_text|read_bytes|readfilesync|readfile|load|expanduser)\b"
)


# "```env" opens a code fence, "(env)" and "<ENV>" are words, "npmrc|env|ssh" an alternation: not commands
_NOT_A_COMMAND = ("`", "(", "<", "|")
_SEARCHED = Expression(r"[ \t]*(?:grep|egrep|rg|findstr|select-string|sls)\b")
_KEYCHAIN_COMMANDS = ("security", "secret-tool")  # these read a store by themselves, with no file named


# stores that also exist per project (a `.npmrc` beside package.json): the one in the home folder holds the
# user's credentials for everything, a project's is that project's configuration (information)
_PROJECT_STORES = (".npmrc", ".pypirc")
_HOME_MARKS = ("~", "$home", "${home}", "/home/", "/users/", "/root/", "%userprofile%", "home(")
_ADDED_TO_AGENT = "ssh-add"


def _secret_path_reads(text: Text) -> Iterator[tuple[int, int, str, bool]]:
    """(start, end, what, warning) of each secret path that a reading word stands before, in the same
    command: a path only named in prose ("the user's `.npmrc` has a scope") is not a read. A project's own
    store, and a key added to the SSH agent (`ssh-add ~/.ssh/id_ed25519`, the ordinary setup step), are
    information."""
    lower = text.lower
    for match in text.matches(_SECRET_PATHS):
        start = match.start()
        if lower.startswith(_KEYCHAIN_COMMANDS, start):
            if text.at_command_position(start) or lower[text.command_start(start) : start].strip() in _QUOTE_MARKS:
                yield start, match.end(), "a credential file or store", True
            continue
        command = text.command_start(start)
        if lower[command:start].lstrip(" \t$>").startswith(_ADDED_TO_AGENT):
            yield start, match.end(), "the user's own SSH key, added to the SSH agent", False
        elif _uploaded(lower, start) or any(
            _at_word(lower, word.start()) for word in _READING.finditer(lower, command, start)
        ):
            if match.group().endswith(_PROJECT_STORES) and not _in_home(lower, command, start):
                yield start, match.end(), "a project's package registry settings, which may hold a token", False
            else:
                yield start, match.end(), "a credential file or store", True


_QUOTE_MARKS = ('"', "'")  # a command given as a string (`os.system("security find-generic-password ...")`)


def _uploaded(lower: str, start: int) -> bool:
    """Whether the path starting at `start` is given to curl as a file to send (`-F f=@~/.ssh/id_rsa`)."""
    path_start = start
    while path_start > 0 and start - path_start < 256 and lower[path_start - 1] in _PATH_CHARACTERS:
        path_start -= 1
    return path_start > 0 and lower[path_start - 1] == "@"


def _in_home(lower: str, command: int, start: int) -> bool:
    """Whether the path of a store starting at `start` lies in the home folder (`~/.npmrc`, `$HOME/.npmrc`,
    `Path.home() / ".npmrc"`), judged from its command up to it."""
    before = lower[max(command, start - 64) : start]
    return any(mark in before for mark in _HOME_MARKS)


def _at_word(lower: str, offset: int) -> bool:
    return offset == 0 or not (lower[offset - 1].isalnum() or lower[offset - 1] in "_-")


def _dotenv_reads(text: Text) -> Iterator[tuple[int, int]]:
    """(start, end) of each `.env` path that a reading word stands just before."""
    lower = text.lower
    for match in text.matches(_DOTENV_NAME):
        start = match.start()
        line_start = text.line_starts[text.line_of(start)]
        path_start = start
        while path_start > line_start and start - path_start < 256 and lower[path_start - 1] in _PATH_CHARACTERS:
            path_start -= 1
        segment_start = max(line_start, path_start - 32)
        before = lower[segment_start:path_start].rstrip(" \t\"'")
        word = next((reader for reader in _READERS if before.endswith(reader)), None)
        if word is None:
            continue
        word_start = segment_start + len(before) - len(word)
        if word_start > 0 and (lower[word_start - 1].isalnum() or lower[word_start - 1] in "_."):
            continue
        yield word_start, match.end()


def reads(text: Text) -> Iterator[Diagnostic]:
    """`security-credential-read` findings: secret files and stores, `.env`, the environment."""
    spans = list(_secret_path_reads(text))
    # a project's `.env` holds its own settings and keys: information, unless it is sent (the pair, __init__.py)
    spans.extend((start, end, "a `.env` file, where secrets usually live", False) for start, end in _dotenv_reads(text))
    spans.extend(
        (m.start(), m.end(), "the whole environment, every secret in it", True)
        for m in text.words(_ENV_DUMP)
        if text.at_command_position(m.start()) and not _SEARCHED.match(text.lower, m.end())
        and text.text[m.start() - 1 : m.start()] not in _NOT_A_COMMAND
    )
    for start, end, what, warning in sorted(spans):
        if text.warned(start):
            continue
        yield security_codes.SECURITY_CREDENTIAL_READ.at(
            text.path,
            f"reads {what}: “{shown(text.text[start:end].strip(), 80)}”. Check why the skill needs it and where "
            "it goes next",
            text.range(start, end),
            severity=None if warning else INFORMATION,
        )
    for match in text.matches_in_text(_SECRET_VARIABLE):
        name = max(_UPPER_NAME.findall(match.group()), key=len)
        if name.endswith(NOT_THE_SECRET) or text.warned(match.start()):
            continue
        yield security_codes.SECURITY_CREDENTIAL_READ.at(
            text.path,
            f"reads the secret environment variable “{shown(match.group(), 80)}”. Usually the skill's own key; "
            "check that it is only sent to the service it belongs to",
            text.range(match.start(), match.end()),
            severity=INFORMATION,
        )


# what an upload's message starts with (destinations.py turns an upload to the skill's own service into
# information, never a raw socket, a collector or a DNS lookup)
_PIPED_UPLOAD = "uploads what is piped into curl"
_CURL_UPLOAD = "uploads a local file with curl"
_OTHER_UPLOAD_WORDS = "sends a local file over the network"
UPLOADS = (_PIPED_UPLOAD, _CURL_UPLOAD, _OTHER_UPLOAD_WORDS)


def sends(text: Text) -> Iterator[Diagnostic]:
    """`security-exfiltration` findings: uploads of files or the environment, collectors, DNS lookups."""
    source = text.text
    curls = [match.start() for match in text.words(_CURL)]
    for match in text.matches_in_text(_UPLOAD_FLAG) if curls else ():  # an upload flag counts after a curl
        if match.start() == 0 or source[match.start() - 1] not in " \t":
            continue
        curl = last_before(curls, match.start())
        if curl is None or match.start() - curl > SECURITY_WINDOW_CHARS or not text.same_command(curl, match.start()):
            continue
        flag = source[match.start() : match.end()]
        if source.startswith("-", match.end()) and flag.endswith("@"):  # `@-`: standard input
            piped = text.command_start(curl) > text.line_starts[text.line_of(curl)] and "|" in source[
                text.line_starts[text.line_of(curl)] : curl
            ]
            if not piped:  # a here-document or a terminal: nothing local is read
                continue
            yield from _sent(text, curl, match.end() + 1, _PIPED_UPLOAD)
            continue
        yield from _sent(text, curl, match.end(), _CURL_UPLOAD)
    for pattern, what in (  # matched at word starts of the lower-cased text
        (_OTHER_UPLOAD, _OTHER_UPLOAD_WORDS),
        (_RAW_SOCKET, "sends a local file or stream to a raw network socket"),
        (_COLLECTORS, "addresses a webhook, paste site, request catcher or tunnel, where data sent can be read by "
                      "anyone holding the link"),
        (_DNS_LOOKUP, "looks up a host name built from a variable: data leaves in the DNS query itself"),
    ):
        for match in text.words(pattern):
            if pattern is _DNS_LOOKUP and not text.at_command_position(match.start()):
                continue
            yield from _sent(text, match.start(), match.end(), what)


def _sent(text: Text, start: int, end: int, what: str) -> Iterator[Diagnostic]:
    if text.warned(start):
        return
    line_end = text.line_span(text.line_of(start))[1]
    shown_text = text.text[start : max(min(end, line_end), min(line_end, start + 100))]
    yield security_codes.SECURITY_EXFILTRATION.at(
        text.path,
        f"{what}: “{shown(shown_text.strip(), 100)}”. Check what is sent and to whom; the skill should tell its "
        "user",
        text.range(start, end),
    )
