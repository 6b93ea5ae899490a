"""Shell scripts and shell code blocks read as programs: what a download saves or prints followed to where it
is run, however the address or the file name is built.

The text reading (fetch_run.py) finds a download piped into a shell and a download saved and run within a few
lines. A download kept in a variable (`S=$(curl -fsSL "$BASE/s.sh")` ... `eval "$S"`), or saved under a name
built from variables and run anywhere later in the script, is a flow the lines alone do not show. This
reading parses the script with tree-sitter's Bash grammar (`tree-sitter-bash`, a compiled parser: it builds a
syntax tree and runs nothing) and walks it once, in document order:

- **Downloads**: `curl`, `wget`, `Invoke-WebRequest`/`iwr`, `fetch` with an address; what they print goes
  into the variable their command substitution is assigned to, what they save into the file named by `-o`,
  `--output`, `-O FILE` (wget), a `>` redirection, or the address's last segment (`-O` of curl, wget without
  one). A decoding (`base64 -d`) is followed the same way. Names are compared after the script's own
  assignments are put in (`D=/tmp/tool` ... `"$D"`), quotes removed.
- **Runs**: `eval`, `source`, `.`, `sh -c`/`bash -c`/`python3 -c`/`node -e` given a followed variable or
  download; a command whose name is a
  downloaded file (`"$DEST"`, `./tool`); a shell or interpreter (`bash`, `sh`, `python3`, `node`...) given
  a downloaded file; `echo "$S" | bash`.

A download reaching a run is `security-fetch-and-run` on the run, with the download as related information
(unless the text reading already flagged that download). Which files: `.sh`, `.bash`, `.zsh`, `.ksh` files,
files whose `#!` line names a shell, and the fenced blocks of Markdown tagged `sh`, `bash`, `zsh`, `shell` or
`console` (`$ ` prompts read as blanks). Where `tree-sitter-bash` is not installed (the VS Code extension's
universal bundle holds no compiled module), the text reading alone reads them. Bounds: `MAX_SHELL_PARSE_CHARS`
per script or block (past it a note says the script was not parsed, except in a file cut at or filling the
file bound, whose own finding says where reading stopped), `MAX_SHELL_SYNTAX_NODES` nodes walked per file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from ..core import security_codes
from ..core.limits import MAX_SECURITY_FILE_BYTES, MAX_SHELL_PARSE_CHARS, MAX_SHELL_SYNTAX_NODES
from ..core.model import INFORMATION, Diagnostic, Range, Related
from .shell_secrets import KEY_KINDS, Origin, SecretFlow
from .text import Text, shown

_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh")
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash"})
_BLOCK_TAGS = frozenset({"sh", "bash", "zsh", "shell", "console"})
_DOWNLOADERS = frozenset({"curl", "wget", "invoke-webrequest", "iwr", "fetch", "aria2c"})
_INTERPRETERS = _SHELLS | frozenset({"python", "python3", "node", "perl", "ruby", "php", "pwsh", "powershell"})
_EVALUATORS = frozenset({"eval", "source", "."})
_PARSER: Any = None  # the Bash parser, made on first use; False when tree-sitter-bash is not installed


def _parser() -> Any:
    global _PARSER
    if _PARSER is None:
        try:
            from tree_sitter import Language, Parser

            from .grammars import binding

            grammar = binding("tree_sitter_bash")
        except ImportError:
            _PARSER = False
        else:
            _PARSER = Parser(Language(grammar.language()))
    return _PARSER


def is_shell(text: Text) -> bool:
    if text.path.lower().endswith(_SHELL_SUFFIXES):
        return True
    if not text.text.startswith("#!"):
        return False
    first = text.text[: text.text.find("\n") if "\n" in text.text else 200]
    return any(os.path.basename(word) in _SHELLS for word in first[2:].split())


def _units(text: Text) -> Iterator[tuple[int, str, bool]]:
    """(first line, shell text, tagged) of each script to parse: the whole file, or each shell block of
    Markdown; an untagged block is a candidate (tagged False), read as shell only when it parses as shell."""
    if is_shell(text):
        yield 0, text.text, True
        return
    if not text.path.lower().endswith((".md", ".markdown", ".mdx")) or "```" not in text.text and "~~~" not in text.text:
        return
    lines = text.lines()
    for first, last in text.fenced():
        tag = lines[first].strip().lstrip("`~").strip().split(" ")[0].lower()
        if tag not in _BLOCK_TAGS and tag or last <= first + 1:
            continue
        body = lines[first + 1 : last]
        if tag == "console":  # `$ cmd`: the prompt is blanked, so columns stay those of the file
            body = ["  " + line[2:] if line.startswith("$ ") else "" for line in body]
        joined = "\n".join(body)
        if tag or _may_flow(joined):
            yield first + 1, joined, bool(tag)


# an untagged block can hold a flow only if it names a downloader, a decoder or a sender (the sinks of
# shell_secrets.py but `host`, a common word); only then is it parsed to see whether it is shell at all
_FLOW_WORDS = ("curl", "wget", "iwr", "invoke-webrequest", "aria2c", "fetch", "base64", "nc ", "ncat", "socat",
               "nslookup", "dig ")


def _may_flow(block: str) -> bool:
    lower = block.lower()
    return any(word in lower for word in _FLOW_WORDS)


def _word(node: Any, values: dict[str, str]) -> str:
    """A word's text with quotes removed and the script's own variables put in (`"$D"` -> `/tmp/tool`)."""
    said = node.text.decode("utf-8", "replace")
    for name, value in values.items():
        if "$" in said:
            said = said.replace("${" + name + "}", value).replace("$" + name, value)
    return said.replace('"', "").replace("'", "")


def _command_words(node: Any) -> list[Any]:
    """The name and arguments of a `command` node (its redirections apart)."""
    return [child for child in node.children if child.type not in ("file_redirect", "herestring_redirect")]


class _Walk:
    """One unit's walk: the downloads met so far, and the runs they reach."""

    def __init__(self, text: Text, first_line: int) -> None:
        self.text = text
        self.first_line = first_line
        self.values: dict[str, str] = {}  # NAME=value assignments with no download in them
        self.fetched: dict[str, Any] = {}  # variable -> the download command whose output it holds
        self.saved: dict[str, Any] = {}  # file name (as written, variables put in) -> the download command
        self.secrets = SecretFlow(lambda node: _word(node, self.values), _command_words)
        self.nodes = 0
        self.stopped = False  # the walk reached MAX_SHELL_SYNTAX_NODES

    def range(self, node: Any) -> Range:
        """The node's range in the file (its unit starts at `first_line`)."""
        return self.text.range_of_points(node.start_point, node.end_point, self.first_line)

    def _downloader(self, node: Any) -> bool:
        words = _command_words(node)
        return bool(words) and words[0].type == "command_name" and words[0].text.decode().lower() in _DOWNLOADERS

    def _saved_name(self, node: Any) -> str | None:
        """The file a download command saves to, or None when it prints what it fetched."""
        words = [_word(w, self.values) for w in _command_words(node)[1:]]
        tool = _command_words(node)[0].text.decode().lower()
        for child in node.children:
            if child.type == "file_redirect" and child.children and child.children[0].type == ">":
                return _word(child.children[-1], self.values)
        address = next((w for w in words if "://" in w or w.startswith("$")), None)
        for index, said in enumerate(words):
            if said in ("-o", "--output", "-OutFile") or (tool == "wget" and said == "-O"):
                if index + 1 < len(words) and words[index + 1] != "-":
                    return words[index + 1]
                return None
            if said.startswith("--output=") or said.startswith("--output-document="):
                return said.split("=", 1)[1]
        remote_name = tool == "wget" and not any(w in ("-O", "-qO-", "-O-") or w.startswith("-qO") for w in words) or (
            tool == "curl" and any(w in ("-O", "--remote-name") or (w.startswith("-") and not w.startswith("--")
                                                                       and "O" in w) for w in words)
        )
        if remote_name and address:
            return address.rstrip("/").rsplit("/", 1)[-1].split("?")[0]
        return None

    def walk(self, root: Any) -> Iterator[tuple[Any, Any]]:
        """(run, download) for each run of something downloaded earlier in the unit."""
        stack = [root]
        while stack:
            node = stack.pop()
            self.nodes += 1
            if self.nodes > MAX_SHELL_SYNTAX_NODES:
                self.stopped = True
                return
            if node.type == "variable_assignment":
                self._assignment(node)
            elif node.type == "command":
                self.secrets.command(node)
                found = self._command(node)
                if found is not None:
                    yield found
            elif node.type == "redirected_statement":
                self.secrets.redirected(node)
            elif node.type == "pipeline":
                self.secrets.pipeline(node)
                found = self._pipeline(node)
                if found is not None:
                    yield found
            stack.extend(reversed(node.children))

    def _assignment(self, node: Any) -> None:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or value is None:
            return
        variable = name.text.decode()
        self.secrets.assignment(variable, value)
        download = self._download_in(value)
        if download is not None:
            self.fetched[variable] = download
        else:
            self.values[variable] = _word(value, self.values)

    def _download_in(self, node: Any) -> Any:
        """The download (or decoding) command whose output an expression holds, if any."""
        stack = [node]
        while stack:
            inner = stack.pop()
            if inner.type == "command" and (self._downloader(inner) and self._saved_name(inner) is None
                                            or self._decoder(inner)):
                return inner
            if inner.type == "simple_expansion" or inner.type == "expansion":
                named = next((c for c in inner.children if c.type == "variable_name"), None)
                if named is not None and named.text.decode() in self.fetched:
                    return self.fetched[named.text.decode()]
            stack.extend(inner.children)
        return None

    def _decoder(self, node: Any) -> bool:
        words = [w.text.decode() for w in _command_words(node)]
        return bool(words) and words[0] == "base64" and any(w in ("-d", "--decode", "-D") for w in words[1:])

    def _command(self, node: Any) -> tuple[Any, Any] | None:
        words = _command_words(node)
        if not words or words[0].type != "command_name":
            return None
        if self._downloader(node):
            saved = self._saved_name(node)
            if saved is not None:
                self.saved[saved] = node
                self.saved[os.path.basename(saved)] = node
            return None
        name = _word(words[0], self.values)
        arguments = words[1:]
        if name.lower() in _EVALUATORS or (
            name in _INTERPRETERS and any(a.text.decode() in ("-c", "-e") for a in arguments)
        ):
            for argument in arguments:
                download = self._download_in(argument)
                if download is not None:
                    return node, download
        run = self.saved.get(name) or (self.saved.get(name[2:]) if name.startswith("./") else None)
        if run is not None:
            return node, run
        if name in _INTERPRETERS or name.lower() in _EVALUATORS:
            first = next((a for a in arguments if not a.text.decode().startswith("-")), None)
            if first is not None:
                said = _word(first, self.values)
                run = self.saved.get(said) or self.saved.get(said[2:] if said.startswith("./") else said)
                if run is not None:
                    return node, run
        return None

    def _pipeline(self, node: Any) -> tuple[Any, Any] | None:
        """`echo "$S" | bash`: a followed variable printed into a shell."""
        commands = [c for c in node.children if c.type == "command"]
        for left, right in zip(commands, commands[1:]):
            right_words = _command_words(right)
            if not right_words or _word(right_words[0], self.values) not in _INTERPRETERS:
                continue
            if _word(_command_words(left)[0], self.values) in ("echo", "printf", "cat"):
                download = self._download_in(left)
                if download is not None:
                    return right, download
        return None


def scan(text: Text) -> Iterator[Diagnostic]:
    """The runs of downloaded code in one text's shell scripts and shell blocks."""
    units = list(_units(text))
    if not units:
        return
    parser = _parser()
    if parser is False:
        return  # the text reading alone: documented in docs/security.md
    filled = len(text.text.encode("utf-8", "surrogatepass")) >= MAX_SECURITY_FILE_BYTES - 3
    for first_line, unit, tagged in units:
        if len(unit) > MAX_SHELL_PARSE_CHARS:
            if filled or not tagged:
                continue  # a file cut at (or filling) the file bound: its own finding says where reading stopped
            yield security_codes.SECURITY_NOT_FULLY_READ.at(
                text.path,
                f"not read as a program: a shell script of {len(unit):,} characters, past the "
                f"{MAX_SHELL_PARSE_CHARS:,} this reading parses (MAX_SHELL_PARSE_CHARS); its text was read like any "
                "other file's. Check it by hand, or split it",
                Range.of(first_line, 0, first_line, 0),
                severity=INFORMATION,
            )
            continue
        tree = parser.parse(unit.encode("utf-8", "surrogatepass"))
        if not tagged and tree.root_node.has_error:
            continue  # an untagged block that is not shell (a listing, output, another language)
        walk = _Walk(text, first_line)
        for run, download in walk.walk(tree.root_node):
            said = download.text.decode("utf-8", "replace")
            yield security_codes.SECURITY_FETCH_AND_RUN.at(
                text.path,
                f"runs what was downloaded or decoded on line {walk.range(download).start.line + 1} (“{shown(said, 80)}”): "
                f"“{shown(run.text.decode('utf-8', 'replace'), 80)}”. What runs is whatever the server sent; check "
                "the source, and pin it with a checksum",
                walk.range(run),
                (Related(text.path, f"the download: {shown(said, 120)}", walk.range(download)),),
            )
        for sink, origin in walk.secrets.sent:
            yield _sent(text, walk, sink, origin)
        if walk.stopped:
            yield security_codes.SECURITY_NOT_FULLY_READ.at(
                text.path,
                f"the flow reading of this shell script stopped after {MAX_SHELL_SYNTAX_NODES:,} syntax nodes "
                "(MAX_SHELL_SYNTAX_NODES): downloads run past that point are not followed (its text was read in full)",
                Range.of(first_line, 0, first_line, 0),
                severity=INFORMATION,
            )


def _sent(text: Text, walk: _Walk, sink: Any, origin: Origin) -> Diagnostic:
    how = "encoded, " if origin.encoded else ""
    what = "a key" if origin.kind in KEY_KINDS else "a credential"
    return security_codes.SECURITY_CREDENTIAL_EXFILTRATION.at(
        text.path,
        f"sends {how}{origin.said} (read on line {walk.range(origin.node).start.line + 1}): "
        f"“{shown(sink.text.decode('utf-8', 'replace'), 80)}”. The value is followed from where it is read to here "
        f"through the script's variables; {what} sent as data leaves with whoever receives it. Make sure the "
        "secret is not what leaves",
        walk.range(sink),
        (Related(text.path, f"the secret read: {shown(origin.node.text.decode('utf-8', 'replace'), 120)}",
                 walk.range(origin.node)),),
    )
