"""A bundled JavaScript or TypeScript script read as a program: values followed from where a secret is read to
where it leaves (js_flow.py), with tree-sitter's JavaScript and TypeScript grammars (`tree-sitter-javascript`,
`tree-sitter-typescript`: compiled parsers that build a syntax tree and run nothing).

Which files: `.js`, `.mjs`, `.cjs`, `.jsx`, `.ts`, `.mts`, `.cts`, `.tsx`, and a script whose `#!` line names
`node`, `deno` or `bun`. The findings are those of the Python reading (python_script.py): a credential file or
store, or the whole environment, reaching a network call is `security-credential-exfiltration` on the call
with the read as related information; a key (a secret variable, a CLI's token) only when it is sent as data
(a body, `data`, a socket's payload, a DNS name), not in `headers` or the address, encoded or not; a download
reaching `eval`, `Function` or a command is `security-fetch-and-run`. Where the grammars are not installed
(the VS Code extension's universal bundle), the text reading alone reads the file.

Bounds: `MAX_JS_PARSE_CHARS` per script (past it a note says it was not parsed, except in a file cut at the
file bound, whose own finding says where reading stopped) and `MAX_JS_SYNTAX_NODES` walked. A script is parsed
only when its words name a source and a place to send or run.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core import security_codes
from ..core.limits import MAX_JS_PARSE_CHARS, MAX_JS_SYNTAX_NODES, MAX_SECURITY_FILE_BYTES
from ..core.model import INFORMATION, Diagnostic, Range, Related
from .js_flow import FlowReader
from .text import Text, shown

_SUFFIXES = {".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
             ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx"}
_RUNTIMES = ("node", "deno", "bun")
_PARSERS: dict[str, Any] = {}  # made on first use; False when the grammar is not installed
_SOURCE_WORDS = ("process.env", "readfile", ".ssh", ".aws", ".netrc", ".npmrc", "credentials", "execsync", "exec(",
                 "spawn", "fetch", "axios")
_SINK_WORDS = ("fetch", "axios", "http", "net", "socket", "dns", "eval", "function", "vm.", "exec", "spawn", "got",
               "request", "websocket")
KEY_KINDS = ("variable", "token")


def language_of(text: Text) -> str | None:
    """The grammar a file is read with, or None for a file that is not JavaScript or TypeScript."""
    path = text.path.lower()
    for suffix, language in _SUFFIXES.items():
        if path.endswith(suffix):
            return language
    if text.text.startswith("#!"):
        first = text.text[: text.text.find("\n") if "\n" in text.text else 200]
        if any(runtime in first for runtime in _RUNTIMES):
            return "javascript"
    return None


def _parser(language: str) -> Any:
    if language not in _PARSERS:
        try:
            from tree_sitter import Language, Parser

            from .grammars import binding

            if language == "javascript":
                made = binding("tree_sitter_javascript").language()
            else:
                grammar = binding("tree_sitter_typescript")
                made = grammar.language_typescript() if language == "typescript" else grammar.language_tsx()
        except ImportError:
            _PARSERS[language] = False
        else:
            _PARSERS[language] = Parser(Language(made))
    return _PARSERS[language]


def _note(text: Text, message: str) -> Diagnostic:
    return security_codes.SECURITY_NOT_FULLY_READ.at(text.path, message, Range.of(0, 0, 0, 0), severity=INFORMATION)


def scan(text: Text) -> Iterator[Diagnostic]:
    """The flows of one JavaScript or TypeScript script (nothing for any other file)."""
    language = language_of(text)
    if language is None:
        return
    lower = text.lower
    if not any(word in lower for word in _SOURCE_WORDS) or not any(word in lower for word in _SINK_WORDS):
        return
    parser = _parser(language)
    if parser is False:
        return  # the text reading alone: documented in docs/security.md
    source = text.text
    if len(source) > MAX_JS_PARSE_CHARS:
        if len(source.encode("utf-8", "surrogatepass")) < MAX_SECURITY_FILE_BYTES - 3:
            yield _note(text, f"not read as a program: {len(source):,} characters, past the {MAX_JS_PARSE_CHARS:,} "
                              "this reading parses (MAX_JS_PARSE_CHARS); its text was read like any other file's, so a "
                              "secret carried through variables to the network is not followed here. Check it by hand")
        return
    reader = FlowReader(parser.parse(source.encode("utf-8", "surrogatepass")).root_node)
    reader.follow()
    for call, does, origin, as_data in sorted(reader.sinks.values(), key=lambda sink: sink[0].start_byte):
        segment = shown(call.text.decode("utf-8", "replace").split("\n")[0], 80)
        read_at = origin.node.start_point[0] + 1
        related = (Related(text.path, f"the source: {origin.said}", text.range_of_points(origin.node.start_point, origin.node.end_point)),)
        if origin.kind == "download":
            yield security_codes.SECURITY_FETCH_AND_RUN.at(
                text.path,
                f"runs what {origin.said} returned (line {read_at}): “{segment}”. What runs is whatever the server "
                "sent; ship the code with the skill where it can be read",
                text.range_of_points(call.start_point, call.end_point), related,
            )
        elif origin.kind not in KEY_KINDS or as_data:
            how = "encoded, " if origin.encoded else ""
            yield security_codes.SECURITY_CREDENTIAL_EXFILTRATION.at(
                text.path,
                f"sends {how}{origin.said} (read at line {read_at}): “{segment}”. The value is followed from where it "
                "is read to here through the script's variables; make sure the secret is not what leaves",
                text.range_of_points(call.start_point, call.end_point), related,
            )
    if reader.stopped:
        yield _note(text, f"the flow reading of this script stopped after {MAX_JS_SYNTAX_NODES:,} syntax nodes "
                          "(MAX_JS_SYNTAX_NODES): flows past that point are not followed (its text was read in full)")
