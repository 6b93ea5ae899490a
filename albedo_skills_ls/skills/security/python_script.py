"""A bundled Python script read as a program: values followed from where a secret is read to where it leaves.

Regular expressions over a script's text cannot follow a value from the line that reads a token to the line
that sends it; this reading parses the script with the standard library's `ast` (parsing only: nothing is
compiled to code, imported or run) and follows names through the module and its functions.

- **Sources**: a credential file or store opened or read (`open(os.path.expanduser("~/.ssh/id_rsa"))`,
  `Path.home() / ".aws/credentials"`, the paths of secrets.py), a CLI's token store run
  (`gh auth token`, `gcloud auth print-access-token`, `security find-generic-password`), the whole environment
  (`dict(os.environ)`, `os.environ.copy()`), and an environment variable named like a secret
  (`os.environ["GITHUB_TOKEN"]`, `os.getenv("API_KEY")`); a download (`requests.get(url).text`,
  `urlopen(url).read()`) for what is run.
- **Flow**: python_flow.py follows each value through the places it moves (assignments, loops, `with`,
  function parameters and returns, per scope), whatever the expression builds: concatenation, f-strings,
  `format`, `%`, `json.dumps`, base64 and hex encodings, method calls on the value.
- **Sinks**: a network call (a `post`, `put`, `patch`, `request`, `urlopen`, `send`, `sendall`, `connect`,
  `gethostbyname`... in a script that imports a network module) given a followed value; a command or code
  run with one (`subprocess.*`, `os.system`, `os.popen`, `exec`, `eval`).

A secret reaching a sink is `security-credential-exfiltration` on the sink, with the source as related
information. An environment variable named like a secret, or a CLI's token, is a key: sent where keys go (a
`headers=`, `auth=`, `params=` or `cookies=` argument, or the URL), it is how keys are used and nothing is said
beyond the variable's note; sent as data (a body, a socket's payload, a DNS name, a command that sends it), or
encoded first outside those places (a key encoded into a header, as `Authorization: Basic` does, is still
where keys go), it is a warning. The environment given to a command as `env=` is nothing.
A download reaching `exec`, `eval` or a command is `security-fetch-and-run`. A file that does not parse
(a syntax error, nesting past the parser's limit) is read by the text reading alone, and an information
finding says so (not when the file was cut at `MAX_SECURITY_FILE_BYTES`: the finding on the cut says it).
Bounds: `MAX_PYTHON_PARSE_CHARS` of text parsed (a larger script is not parsed, and a note says so);
`MAX_PYTHON_AST_NODES` nodes visited and `MAX_PYTHON_FLOW_SECONDS` per file, past which what was found so far is kept and a note says the
flow reading stopped. The parser itself is linear, and nests at most 200 parentheses (past it, a syntax
error: the text reading alone). A script is parsed only when its words name a source and a sink.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..core import security_codes
from ..core.limits import MAX_PYTHON_PARSE_CHARS, MAX_SECURITY_FILE_BYTES
from ..core.model import INFORMATION, Diagnostic, Range, Related
from .text import Text, shown

if TYPE_CHECKING:
    import ast


def is_python(text: Text) -> bool:
    """A `.py` file, or a script whose `#!` line names Python."""
    return text.path.endswith((".py", ".pyw")) or (
        text.text.startswith("#!") and "python" in text.text[: text.text.find("\n") if "\n" in text.text else 200]
    )


def _range(text: Text, node: ast.AST) -> Range:
    """The node's range in the text: ast counts lines from 1 and columns in UTF-8 bytes."""
    line = node.lineno - 1  # type: ignore[attr-defined]
    end_line = (getattr(node, "end_lineno", None) or node.lineno) - 1  # type: ignore[attr-defined]
    start = text.column_of_byte(line, node.col_offset)  # type: ignore[attr-defined]
    end = text.column_of_byte(end_line, getattr(node, "end_col_offset", None) or node.col_offset)  # type: ignore[attr-defined]
    return Range.of(line, start, end_line, end)


def _segment(text: Text, node: ast.AST) -> str:
    """The node's text on its first line, for a message (`ast.get_source_segment` splits the whole file)."""
    where = _range(text, node)
    line = text.line_text(where.start.line)
    return line[where.start.character : where.end.character if where.end.line == where.start.line else len(line)]


# a script can hold a flow only if it names a source and a place to send or run (words searched among the
# text's distinct words, text.py): most bundled scripts are never parsed
_SOURCE_WORDS = ("environ", "getenv", ".ssh", ".aws", ".netrc", ".npmrc", ".pypirc", ".kube", ".docker", ".gnupg",
                 "credentials", "keychain", "login data", "logins.json", "cookies", "gcloud", "git-credentials",
                 "wallet", "auth", "find-", "secret-tool", "urlopen", "requests", "httpx", "urllib", "aiohttp")
_SINK_WORDS = ("requests", "httpx", "urllib", "http", "socket", "aiohttp", "smtplib", "ftplib", "websocket", "dns",
               "paramiko", "pycurl", "subprocess", "system", "popen", "exec", "eval", "spawn")


def _may_flow(text: Text) -> bool:
    words, lower = text.distinct_words_joined(), text.lower
    return any(word in (lower if " " in word else words) for word in _SOURCE_WORDS) and any(
        word in words for word in _SINK_WORDS
    )


def _not_parsed(text: Text, why: str, what_to_do: str) -> Diagnostic:
    return security_codes.SECURITY_NOT_FULLY_READ.at(
        text.path,
        f"not read as a program: {why}; its text was read like any other file's, so a secret carried through "
        f"variables to the network is not followed here. {what_to_do}",
        Range.of(0, 0, 0, 0),
        severity=INFORMATION,
    )


def scan(text: Text) -> Iterator[Diagnostic]:
    """The flows of one Python script (nothing for any other file)."""
    if not is_python(text):
        return
    source = text.text  # at most MAX_SECURITY_FILE_BYTES, as every file is read
    if not _may_flow(text):
        return
    if len(source) > MAX_PYTHON_PARSE_CHARS:
        yield _not_parsed(text, f"{len(source):,} characters, past the {MAX_PYTHON_PARSE_CHARS:,} this reading "
                                "parses (MAX_PYTHON_PARSE_CHARS)", "Check it by hand, or split the script")
        return
    # the parser and the flow reading load here, for a script that names a source and a sink: most skills
    # bundle none, and `ast` with the flow reading's tables is a few milliseconds of every one-skill check
    import ast

    from .python_flow import KEY_KINDS, Budget, FlowReader

    try:
        tree = ast.parse(source, filename=text.path)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        if len(source.encode("utf-8", "surrogatepass")) >= MAX_SECURITY_FILE_BYTES - 3:
            return  # cut at the file bound mid-statement: the not-read finding already says the rest was not read
        where = f" at line {error.lineno}" if isinstance(error, SyntaxError) and error.lineno else ""
        reason = type(error).__name__ + where
        yield _not_parsed(text, f"Python could not parse it ({reason})", "Check it by hand")
        return
    budget = Budget()
    reader = FlowReader(text, tree, budget)
    reader.follow()
    for call, does, origin, as_data in reader.sinks():
        if origin.kind == "download":
            if does == "runs":
                yield security_codes.SECURITY_FETCH_AND_RUN.at(
                    text.path,
                    f"runs what {origin.said} returned (line {origin.node.lineno}): "  # type: ignore[attr-defined]
                    f"“{shown(_segment(text, call), 80)}”. What runs is whatever the server "
                    "sent; ship the code with the skill where it can be read",
                    _range(text, call),
                    (Related(text.path, f"the download: {origin.said}", _range(text, origin.node)),),
                )
            continue
        if origin.kind in KEY_KINDS and not as_data:
            continue  # the skill's own key, sent where keys go: the variable's note says it
        segment = shown(_segment(text, call), 80)
        verb = "runs a command with" if does == "runs" else "sends"
        yield security_codes.SECURITY_CREDENTIAL_EXFILTRATION.at(
            text.path,
            f"{verb} {origin.said} (read at line {origin.node.lineno}): “{segment}”. "  # type: ignore[attr-defined]
            "The value is followed from where it is read to here through the script's variables; make sure the "
            "secret is not what leaves",
            _range(text, call),
            (Related(text.path, f"the secret read: {origin.said}", _range(text, origin.node)),),
        )
    if budget.spent is not None:
        yield security_codes.SECURITY_NOT_FULLY_READ.at(
            text.path,
            f"the flow reading of this script stopped after {budget.spent}: flows past that point are not "
            "followed (its text was read in full)",
            Range.of(0, 0, 0, 0),
            severity=INFORMATION,
        )
