"""Fetch and run: code downloaded and executed in one step, so what runs is whatever the server sends that day.

Three shapes, in prose, code spans and code fences alike (a skill's prose is what the model follows):
1. a download or a decoding piped into a shell or interpreter: `curl URL | sh`, `iwr URL | iex`,
   `base64 -d | bash` (an interpreter given `-c`, `-m` or `-e` runs its argument, not the download: left alone);
2. an evaluation of a download or a decoding: `eval "$(curl URL)"`, `bash -c "$(wget -qO- URL)"`,
   `source <(curl URL)`, `iex (iwr URL)`, `exec(urlopen(URL).read())`, `exec(base64.b64decode(...))`;
3. a download to a file that is then made executable or run, up to `SECURITY_FOLLOW_LINES` lines later:
   `wget URL` ... `chmod +x tool` ... `./tool`.
A download needs a source (a URL or a variable) after the downloading word: prose that names `curl ... | sh`
with no source describes the pattern and is left alone, as is a line whose earlier words warn against it.
Package managers (`pip install`, `npm install`, `npx`) are not flagged: their sources are the registries
the user configured.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

from ..core import security_codes
from ..core.limits import SECURITY_FOLLOW_LINES, SECURITY_WINDOW_CHARS
from ..core.model import Diagnostic
from .prefilter import Expression
from .text import Text, first_at_or_after, last_before, shown

# lower-case, matched on `Text.lower` at word starts (text.py says why)
_FETCH = Expression(
    r"(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|urlopen|"
    r"requests\.get|httpx\.get|urllib\.request\.urlretrieve|urlretrieve)\b|fetch\s*\("
)
_DECODE = Expression(r"(?:base64\s+(?:-d|--decode)\b|b64decode\b|frombase64string\b|atob\s*\(|xxd\s+-r\b)")
_SOURCE = Expression(r"(?:https?|ftp)://|\$\{?[a-z_]|%[a-z_]+%")
_SHELLS = r"(?:sh|bash|zsh|dash|ksh|fish|python[23]?|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell)"
# a lone `|` (not `||`, checked on the match) into a shell; an interpreter given -c, -m or -e runs its argument
_PIPE_RUN = Expression(
    rf"\|(?!\|)[ \t]*(?:sudo[ \t]+(?:-e[ \t]+)?)?{_SHELLS}(?![-.\w])(?![ \t]+-[mce]\b)"
)
_EVALUATE = Expression(
    r"(?:eval\b|exec\s*\(|iex\b|invoke-expression\b|\[scriptblock\]::create|new\s+function\s*\(|"
    r"(?:bash|zsh|dash|ksh|sh)[ \t]+(?:-c[ \t]|<\()|(?:python[23]?|perl|ruby|node)[ \t]+-[ce][ \t]|source[ \t]+<\(|"
    r"\.[ \t]+<\()"
)
# the downloaders that can write a file
_SAVING = frozenset(
    {"curl", "wget", "iwr", "invoke-webrequest", "downloadfile", "urlretrieve", "urllib.request.urlretrieve"}
)
# a file run by a runner word, or made executable: the target is the word after it
_RUNNER_TARGET = Expression(
    r"(chmod[ \t]+(?:[+ugoarw]*x|[0-7]?[157][0-7][0-7])|sh|bash|zsh|dash|ksh|source|\.|python[23]?|"
    r"perl|ruby|node|pwsh|powershell|&|exec|start-process|nohup)[ \t]+[\"']?([^\s\"'`;&|()<>]+)"
)
# a path run as a command: `./tool` or `.\\tool.exe` at a line's start (after a prompt sign, a backtick or
# indentation) or after `&&`, `;`, `|` or `(`
_PATH_RUN = Expression(r"\.\.?[/\\][^\s\"'`;&|()<>]+")
_COMMAND_BEFORE = ";&|(`$>"  # what may stand before a path run as a command (else only indentation)
_QUOTES = "\"'`()"


def scan(text: Text) -> Iterator[Diagnostic]:
    decodes = [match.start() for match in text.words(_DECODE)]
    sources = [match.start() for match in text.matches(_SOURCE)]
    if not decodes and not sources:  # every finding runs decoded text or a download from a source
        return
    fetches = [match.start() for match in text.words(_FETCH)]
    if not fetches and not decodes:
        return
    yield from _piped(text, fetches, decodes, sources)
    yield from _evaluated(text, fetches, decodes, sources)
    yield from _saved_then_run(text, fetches, sources)


def _has_source(text: Text, fetch: int, before: int, sources: list[int]) -> bool:
    found = first_at_or_after(sources, fetch)
    return found is not None and found < before and text.same_command(fetch, found)


def _what(text: Text, start: int) -> str:
    return shown(text.text[start : start + 120].split("\n", 1)[0], 100)


def _piped(text: Text, fetches: list[int], decodes: list[int], sources: list[int]) -> Iterator[Diagnostic]:
    for match in text.matches(_PIPE_RUN):
        pipe = match.start()
        if pipe > 0 and text.lower[pipe - 1] == "|":
            continue
        fetch = last_before(fetches, pipe)
        decode = last_before(decodes, pipe)
        origin, decoded = (decode, True) if decode is not None and (fetch is None or decode > fetch) else (fetch, False)
        if origin is None or pipe - origin > SECURITY_WINDOW_CHARS or not text.same_command(origin, pipe):
            continue
        if not decoded and not _has_source(text, origin, pipe, sources):
            continue
        if text.warned(origin):
            continue
        runner = text.text[match.start() : match.end()].lstrip("| \t")
        what = "decoded text" if decoded else "a download"
        yield security_codes.SECURITY_FETCH_AND_RUN.at(
            text.path,
            f"{what} is piped straight into `{runner}`: “{shown(text.text[origin : match.end()], 100)}” runs "
            "whatever "
            f"{'the encoded text holds' if decoded else 'the server sends'}, unread. Check the source; prefer "
            "downloading, reading and pinning it (a checksum) before running it",
            text.range(origin, match.end()),
        )


def _evaluated(text: Text, fetches: list[int], decodes: list[int], sources: list[int]) -> Iterator[Diagnostic]:
    for match in text.words(_EVALUATE):
        at = match.start()
        fetch = first_at_or_after(fetches, match.end())
        decode = first_at_or_after(decodes, match.end())
        origin, decoded = (decode, True) if decode is not None and (fetch is None or decode < fetch) else (fetch, False)
        if origin is None or origin - at > SECURITY_WINDOW_CHARS or not text.same_command(at, origin):
            continue
        if not _evaluates(match.group(), text.lower[match.end() : origin]):
            continue
        if not decoded and not _has_source(text, origin, at + SECURITY_WINDOW_CHARS, sources):
            continue
        if text.warned(at):
            continue
        end = min(len(text.text), text.line_span(text.line_of(origin))[1])
        yield security_codes.SECURITY_FETCH_AND_RUN.at(
            text.path,
            f"`{text.text[at : match.end()].strip()}` runs {'decoded text' if decoded else 'a download'} as code: "
            f"“{_what(text, at)}”. Check what it fetches or decodes; a skill should ship the code it runs where "
            "it can be read",
            text.range(at, end),
        )


_SHELL_EVALUATORS = ("eval", "bash", "zsh", "dash", "ksh", "sh", "python", "perl", "ruby", "node")
_MAX_BETWEEN = 48  # characters between an evaluating word and the download it runs: `iex (New-Object Net.WebClient).`


def _evaluates(trigger: str, between: str) -> bool:
    """Whether the evaluating word runs the download's output, not a command that happens to fetch: a shell's
    `eval` or `-c` needs the output substituted in (`$(curl ...)`, a backtick); any of them needs the download
    within a short expression, with no command separator between."""
    if len(between) > _MAX_BETWEEN or any(separator in between for separator in (";", "&&", "||", "\n", "|")):
        return False
    if trigger.startswith(_SHELL_EVALUATORS) and "<(" not in trigger:
        return "$(" in between or "`" in between
    return True


def _tokens(segment: str) -> list[str]:
    return [token.strip(_QUOTES) for token in segment.split()]


def _saved_name(words: list[str]) -> str | None:
    """The file a download command writes, from its words (the downloader first), or None for stdout."""
    tool = words[0].lower()
    url = next((w for w in words if "://" in w), None)
    remote_name = url.rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0] if url else None
    for index, word in enumerate(words[1:], 1):
        following = words[index + 1] if index + 1 < len(words) else None
        lower = word.lower()
        if lower in ("-o", "--output", "-outfile", "--output-document") or (tool == "wget" and word == "-O"):
            return following
        for prefix in ("--output=", "--output-document=", "-outfile:"):
            if lower.startswith(prefix):
                return word[len(prefix):]
        if tool == "curl" and word.startswith("-") and not word.startswith("--") and "O" in word:
            return remote_name
        if tool == "curl" and word == "--remote-name":
            return remote_name
    if tool == "wget":
        return remote_name
    if tool in ("downloadfile", "urlretrieve", "urllib.request.urlretrieve") and len(words) > 2:
        return words[-1].strip(",);")
    return None


def _run_sites(text: Text) -> dict[str, list[tuple[int, str]]]:
    """Every place a file is run or made executable, by the file's base name: (offset, how), in order."""
    sites: dict[str, list[tuple[int, str]]] = {}
    source, lower = text.text, text.lower
    for match in text.matches(_RUNNER_TARGET):
        start = match.start()
        if start > 0 and (lower[start - 1].isalnum() or lower[start - 1] in "_.&-"):
            continue
        runner, target = source[start : match.end(1)], source[match.start(2) : match.end(2)]
        how = "made executable" if runner.lower().startswith("chmod") else f"run (`{runner} {target}`)"
        sites.setdefault(_base(target), []).append((start, how))
    for match in text.matches_in_text(_PATH_RUN):
        start = match.start()
        line_start = text.line_starts[text.line_of(start)]
        before = source[max(line_start, start - 64) : start].rstrip(" \t")
        if (before == "" and start - line_start <= 64) or before[-1:] in _COMMAND_BEFORE and before:
            sites.setdefault(_base(match.group()), []).append((start, f"run (`{match.group()}`)"))
    for found in sites.values():
        found.sort()
    return sites


def _base(path: str) -> str:
    return path.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]


def _saved_then_run(text: Text, fetches: list[int], sources: list[int]) -> Iterator[Diagnostic]:
    source = text.text
    sites: dict[str, list[tuple[int, str]]] | None = None
    for index, fetch in enumerate(fetches):
        line = text.line_of(fetch)
        # the command ends at its line's end, the window, or the next download (a command of its own)
        end = min(text.line_span(line)[1], fetch + SECURITY_WINDOW_CHARS)
        if index + 1 < len(fetches):
            end = min(end, fetches[index + 1])
        if not _has_source(text, fetch, end, sources):
            continue
        segment = source[fetch:end]
        for stop in ("|", "&&", ";"):
            segment = segment.split(stop, 1)[0]
        words = _tokens(segment.replace("(", " ").replace(",", " "))
        if not words or words[0].lower() not in _SAVING or not _has_source(text, fetch, fetch + len(segment), sources):
            continue
        name = _saved_name(words)
        if not name or name == "-" or "/dev/" in name:
            continue
        name = _base(name)
        if len(name) < 2:
            continue
        if sites is None:
            sites = _run_sites(text)
        later = sites.get(name, [])
        index = bisect_left(later, (fetch + len(segment), ""))
        if index == len(later) or text.line_of(later[index][0]) > line + SECURITY_FOLLOW_LINES or text.warned(fetch):
            continue
        run_at, how = later[index]
        yield security_codes.SECURITY_FETCH_AND_RUN.at(
            text.path,
            f"a download saved as `{name}` is {how} on line {text.line_of(run_at) + 1}: “{_what(text, fetch)}”. "
            "What runs is whatever the server sent; check the source, and pin it with a checksum",
            text.range(fetch, fetch + len(segment.rstrip())),
        )
