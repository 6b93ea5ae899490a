"""Where a skill's uploads go, and whether that is the service the skill is for.

A skill for a lab notebook, a deployment platform or a files API uploads files to that service: it is what
the skill is for, and a reviewer needs to know where the files go, not to be warned. So an upload
(`security-exfiltration` of a local file or stream, never a collector or a DNS lookup, which are warnings
wherever they point) becomes information naming its destination when the destination is the skill's own
service:

- the skill's own service is a site (its last two host labels, `labarchives.com`) whose name (`labarchives`)
  the skill's frontmatter holds (its name or description: "Deploy applications to Vercel"), or the site its
  texts address throughout: at least `_THROUGHOUT_MENTIONS` of the skill's URLs and more than half of them;
- the destination is the host of the first URL of the sending command (its continued lines included, within
  the window), or, when the command sends to a variable (`"$DEPLOY_ENDPOINT"`, `requests.post(url, ...)`),
  the host of the URL that variable is assigned in the same file (`DEPLOY_ENDPOINT="https://..."`,
  `url = f"https://..."`). An upload whose destination is another site stays a warning; one whose destination
  cannot be read from the file (`requests.post(f"{self.base_url}/upload", ...)`) is information in a skill
  that has an own service, saying so, and a warning otherwise.

The pair (a credential read and a sending, `security-credential-exfiltration`) is decided as before: a skill
sending a user's SSH key to its own service is still the shape of theft.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ..core import programs
from ..core import security_codes
from ..core.limits import SECURITY_WINDOW_CHARS
from ..core.model import INFORMATION, Diagnostic
from ..document.frontmatter import body_position
from .secrets import UPLOADS
from .text import Text

_THROUGHOUT_MENTIONS = 3  # a site addressed fewer times than this is not what the skill is about
_URL_HOST = programs.compile(r"(?:https?|wss?)://([a-z0-9][a-z0-9.-]{0,252})")
# what an upload sends to when no URL is written on its command: a shell variable or a Python/JS name
_SHELL_TARGET = programs.compile(r"[\"']?\$\{?([A-Za-z_]\w{0,63})")
_CALL_TARGET = programs.compile(
    r"\.(?:post|put|patch|request)\([ \t]*(?:[\"'](?:post|put|patch)[\"'][ \t]*,[ \t]*)?([A-Za-z_]\w{0,63})[ \t]*[,)]"
)


def site(host: str) -> str:
    """The last two labels of a host (`api.labarchives.com` -> `labarchives.com`), how the service is named."""
    labels = host.rstrip(".").split(".")
    return ".".join(labels[-2:])


def _site_name(site_name: str) -> str:
    return site_name.split(".")[0]


def own_sites(texts: Iterable[Text], skill_text: Text | None) -> set[str]:
    """The sites the skill is for: named in its frontmatter, or addressed throughout its texts."""
    mentions: Counter[str] = Counter()
    for text in texts:
        if "://" in text.text:
            mentions.update(site(match.group(1)) for match in _URL_HOST.finditer(text.lower))
    own: set[str] = set()
    if skill_text is not None:
        position = body_position(skill_text.text)
        frontmatter = skill_text.lower[: position[1]] if position is not None else ""
        own.update(name for name in mentions if len(_site_name(name)) >= 3 and _site_name(name) in frontmatter)
    total = sum(mentions.values())
    if mentions:
        top, count = mentions.most_common(1)[0]
        if count >= _THROUGHOUT_MENTIONS and count * 2 > total:
            own.add(top)
    return own


def destination(text: Text, start: int, assigned_hosts: dict[tuple[str, str], str | None]) -> str | None:
    """The host an upload starting at `start` sends to, read from its command or the variable it names
    (`assigned_hosts` keeps each file's answer per name: a file of many uploads is searched once a name)."""
    end = min(len(text.text), start + SECURITY_WINDOW_CHARS)
    command_end = text.line_span(text.line_of(start))[1]
    while command_end < end and text.same_command(start, min(end, command_end + 1)):
        command_end = text.line_span(text.line_of(command_end + 1))[1]
    command = text.lower[start : min(command_end, end)]
    found = _URL_HOST.search(command)
    if found is not None:
        return found.group(1)
    written = text.text[start : min(command_end, end)]
    names = [match.group(1) for match in _CALL_TARGET.finditer(written)] + [
        match.group(1) for match in _SHELL_TARGET.finditer(written)
    ]
    for name in names:
        key = (text.path, name)
        if key not in assigned_hosts:
            assigned = re.search(
                rf"(?:^|[\s;])(?:export[ \t]+|const[ \t]+|let[ \t]+|var[ \t]+)?{re.escape(name)}"
                r"[ \t]*=[ \t]*f?[\"']?(?:https?|wss?)://([^\s\"'/:]{1,253})", text.text, re.MULTILINE
            )
            assigned_hosts[key] = assigned.group(1).lower() if assigned is not None else None
        if assigned_hosts[key] is not None:
            return assigned_hosts[key]
    return None


def to_own_service(found: list[Diagnostic], texts: list[Text]) -> list[Diagnostic]:
    """The findings, each upload to the skill's own service turned into information naming where it goes."""
    uploads = [
        index for index, d in enumerate(found)
        if d.code == security_codes.SECURITY_EXFILTRATION.id and d.severity != INFORMATION and d.message.startswith(UPLOADS)
    ]
    if not uploads:
        return found
    skill = next((text for text in texts if text.kind == "skill"), None)
    own = own_sites(texts, skill)
    if not own:
        return found
    by_path = {text.path: text for text in texts}
    kept = list(found)
    assigned_hosts: dict[tuple[str, str], str | None] = {}
    for index in uploads:
        finding = kept[index]
        text = by_path.get(finding.path)
        if text is None:
            continue
        start = text.line_starts[finding.range.start.line] + finding.range.start.character
        host = destination(text, start, assigned_hosts)
        if host is not None and site(host) not in own:
            continue
        where = (
            f"`{host}`, the service this skill is for" if host is not None
            else f"a destination this file builds when it runs, in a skill for {', '.join(sorted(own))}"
        )
        kept[index] = finding._replace(severity=INFORMATION, message=f"uploads to {where}: {finding.message}")
    return kept
