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

from .. import codes
from ..limits import SECURITY_WINDOW_CHARS
from ..model import INFORMATION, Diagnostic
from .text import Text, last_before, positions, shown

_SECRET_PATHS = re.compile(
    r"\.ssh/(?:id_[a-z0-9_]+|identity)\b|\.aws/credentials\b|\.config/gcloud\b|application_default_credentials\.json|"
    r"\.kube/config\b|\.docker/config\.json|\.netrc\b|\.git-credentials\b|\.pypirc\b|\.npmrc\b|\.gnupg/|"
    r"\.azure/(?:accesstokens|msal_token_cache)|\bLogin Data\b|\blogins\.json\b|\bkey[34]\.db\b|"
    r"\bCookies\.binarycookies\b|Google/Chrome/(?:Default|Profile)|\.mozilla/firefox|Library/Keychains|"
    r"\blogin\.keychain|\bsecurity\s+(?:find-generic-password|find-internet-password|dump-keychain)\b|"
    r"\bsecret-tool\s+lookup\b|\bwallet\.dat\b",
    re.IGNORECASE,
)
# a `.env` file read: opened, printed, sourced or loaded
_DOTENV = re.compile(
    r"(?:\bcat|\bsource|(?<![\w.])\.|\bopen\(|\bread_text\(|\breadFileSync\(|\bGet-Content|\btype)[ \t]*\(?[ \t]*"
    r"[\"']?(?:[\w.~${}-]{0,64}/){0,8}\.env\b(?![.\w-])",
    re.IGNORECASE,
)
_ENV_DUMP = re.compile(
    r"\bprintenv\b[ \t]*(?:$|[|>;&)`])|\benv[ \t]*[|>]|\bdict\(os\.environ\)|json\.dumps\(os\.environ|"
    r"JSON\.stringify\(process\.env\)|\bGet-ChildItem[ \t]+env:|\bgci[ \t]+env:|\bls[ \t]+env:",
    re.IGNORECASE | re.MULTILINE,
)
_SECRET_NAME = r"[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*"
_SECRET_VARIABLE = re.compile(
    rf"\$\{{?{_SECRET_NAME}\b|\$env:{_SECRET_NAME}\b|os\.environ(?:\.get)?[\[(][ \t]*[\"']{_SECRET_NAME}[\"']|"
    rf"os\.getenv\([ \t]*[\"']{_SECRET_NAME}[\"']|process\.env\.{_SECRET_NAME}\b|"
    rf"process\.env\[[\"']{_SECRET_NAME}[\"']\]|ENV\[[\"']{_SECRET_NAME}[\"']\]|getenv\([\"']{_SECRET_NAME}[\"']",
)

_UPLOAD_FLAG = re.compile(
    r"(?:^|[ \t])(?:-d|--data|--data-binary|--data-raw|--data-urlencode)[ \t=]*[\"']?@|"
    r"(?:^|[ \t])(?:-F|--form)[ \t]+[\"']?[\w.-]+=@|(?:^|[ \t])(?:-T|--upload-file)[ \t]+\S",
    re.MULTILINE,
)
_CURL = re.compile(r"\bcurl\b", re.IGNORECASE)
_OTHER_UPLOAD = re.compile(
    r"\b(?:nc|ncat|netcat)[ \t]+[\w.-]+[ \t]+\d+[ \t]*<|/dev/tcp/|\bInvoke-RestMethod\b[^\n]{0,200}?-InFile\b|"
    r"\brequests\.post\([^\n]{0,200}?\bfiles[ \t]*=|\bscp[ \t]+\S*(?:\.ssh|\.aws|\.env)\S*[ \t]+\S+:",
    re.IGNORECASE,
)
_COLLECTORS = re.compile(
    r"\b(?:https?|wss?)://(?:[\w-]+\.)*(?:webhook\.site|requestbin\.\w+|pipedream\.net|hookbin\.com|beeceptor\.com|"
    r"requestcatcher\.com|ngrok(?:-free)?\.(?:io|app|dev)|trycloudflare\.com|pastebin\.com|paste\.ee|hastebin\.com|"
    r"ghostbin\.\w+|transfer\.sh|0x0\.st|file\.io|termbin\.com|(?:discord|discordapp)\.com/api/webhooks|"
    r"hooks\.slack\.com|api\.telegram\.org/bot|interact\.sh|oast\.(?:fun|pro|live|site|online|me)|"
    r"burpcollaborator\.net|canarytokens\.com|dnslog\.cn)",
    re.IGNORECASE,
)
_DNS_LOOKUP = re.compile(
    r"\b(?:dig|nslookup|host|ping|Resolve-DnsName)[ \t]+(?:-\w+[ \t]+)?[\"']?[\w.-]*(?:\$\(|\$\{?\w|`)[^\s\"']{0,200}\.[a-z]{2,}",
    re.IGNORECASE,
)


def reads(text: Text) -> Iterator[Diagnostic]:
    """`security-credential-read` findings: secret files and stores, `.env`, the environment."""
    for pattern, what in (
        (_SECRET_PATHS, "a credential file or store"),
        (_DOTENV, "a `.env` file, where secrets usually live"),
        (_ENV_DUMP, "the whole environment, every secret in it"),
    ):
        for match in pattern.finditer(text.text):
            if text.warned(match.start()):
                continue
            yield codes.SECURITY_CREDENTIAL_READ.at(
                text.path,
                f"reads {what}: “{shown(match.group().strip(), 80)}”. Check why the skill needs it and where "
                "it goes next",
                text.range(match.start(), match.end()),
            )
    for match in _SECRET_VARIABLE.finditer(text.text):
        if text.warned(match.start()):
            continue
        yield codes.SECURITY_CREDENTIAL_READ.at(
            text.path,
            f"reads the secret environment variable “{shown(match.group(), 80)}”. Usually the skill's own key; "
            "check that it is only sent to the service it belongs to",
            text.range(match.start(), match.end()),
            severity=INFORMATION,
        )


def sends(text: Text) -> Iterator[Diagnostic]:
    """`security-exfiltration` findings: uploads of files or the environment, collectors, DNS lookups."""
    source = text.text
    curls = positions(_CURL, source)
    for match in _UPLOAD_FLAG.finditer(source):
        curl = last_before(curls, match.start())
        if curl is None or match.start() - curl > SECURITY_WINDOW_CHARS or not text.same_command(curl, match.start()):
            continue
        yield from _sent(text, curl, match.end(), "uploads a local file with curl")
    for pattern, what in (
        (_OTHER_UPLOAD, "sends a local file or stream over the network"),
        (_COLLECTORS, "addresses a webhook, paste site, request catcher or tunnel, where data sent can be read by anyone holding the link"),
        (_DNS_LOOKUP, "looks up a host name built from a variable: data leaves in the DNS query itself"),
    ):
        for match in pattern.finditer(source):
            yield from _sent(text, match.start(), match.end(), what)


def _sent(text: Text, start: int, end: int, what: str) -> Iterator[Diagnostic]:
    if text.warned(start):
        return
    line_end = text.line_span(text.line_of(start))[1]
    shown_text = text.text[start : max(end, min(line_end, start + 100))]
    yield codes.SECURITY_EXFILTRATION.at(
        text.path,
        f"{what}: “{shown(shown_text.strip(), 100)}”. Check what is sent and to whom; the skill should tell its user",
        text.range(start, end),
    )
