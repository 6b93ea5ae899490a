"""A secret followed through a shell script or shell block to a command that sends it (the other half of the
shell walk, shell_flow.py, which follows downloads to where they run).

- **Sources**: a credential file or store read (`cat ~/.ssh/id_rsa`, `cat "$F"` where the script set
  `F="$HOME/.aws/credentials"`: names compared after the script's own assignments are put in), a CLI's token
  store (`gh auth token`, `security find-generic-password ...`), an environment variable named like a
  secret (`$GITHUB_TOKEN`); read through a redirection too (`$(< ~/.netrc)`, `read -r T < ~/.ssh/id_rsa`).
- **Flow**: a variable assigned from an expression holding a source or a followed variable is followed too,
  whatever the expression builds (strings, `$(...)`, pipelines); one that goes through an encoder (`base64`,
  `xxd`, `od`, `openssl`) on its way is marked encoded.
- **Sinks**: `curl`, `wget`, `nc`, `ncat`, `socat`, `nslookup`, `dig`, `host`, `http`, given a followed value
  as an argument, in a here-document or here-string, or printed into them through a pipe (`printf '%s' "$P" | nc host 4444`).

A credential file or store reaching a sink is a warning wherever it goes. A key (a secret variable or a CLI's
token) sent where keys go (a header `-H`, `-u`, a cookie, the address) is how a skill uses its key, and only
the variable's note says it, encoded or not (`Authorization: Basic` carries a key in base64); sent as data
(`-d`, `--data*`, `-F`, `--post-data`, a pipe, a DNS name), it is a warning.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .secret_names import SECRET_PATH, secret_name, token_command

_READERS = frozenset({"cat", "head", "tail", "base64", "xxd", "od", "gpg", "tar", "zip", "less", "more", "strings"})
_ENCODERS = frozenset({"base64", "xxd", "od", "openssl", "gzip", "hexdump"})
SENDERS = frozenset({"curl", "wget", "nc", "ncat", "netcat", "socat", "nslookup", "dig", "host", "http", "https"})
_DATA_FLAGS = frozenset({"-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii",
                         "--json", "-F", "--form", "--form-string", "-T", "--upload-file", "--post-data", "--body-data"})
_DNS = frozenset({"nslookup", "dig", "host"})
KEY_KINDS = ("variable", "token")  # keys: sent where keys go (a header, the address), how they are used


class Origin(NamedTuple):
    """Where a followed value was read: its kind ("credential", "token", "variable"), the node, its text for the
    message, and whether it went through an encoder since."""

    kind: str
    node: Any
    said: str
    encoded: bool = False


class SecretFlow:
    """The secrets followed in one unit (script or block) and the sends they reach: (sink node, origin)."""

    def __init__(self, word: Any, command_words: Any) -> None:
        self._word = word  # (node) -> its text with the script's own assignments put in, quotes removed
        self._command_words = command_words
        self.secret: dict[str, Origin] = {}
        self.sent: list[tuple[Any, Origin]] = []
        self._reported: set[int] = set()

    def assignment(self, variable: str, value: Any) -> None:
        origin = self.source_in(value)
        if origin is None:
            self.secret.pop(variable, None)
        else:
            self.secret[variable] = origin

    def source_in(self, node: Any) -> Origin | None:
        """The secret an expression holds, if any: the first met in it."""
        stack = [(node, False)]
        while stack:
            inner, encoded = stack.pop()
            if inner.type in ("simple_expansion", "expansion"):
                named = next((c for c in inner.children if c.type == "variable_name"), None)
                if named is not None:
                    name = named.text.decode()
                    if name in self.secret:
                        origin = self.secret[name]
                        return origin._replace(encoded=origin.encoded or encoded)
                    if secret_name(name):
                        return Origin("variable", inner, f"the secret variable ${name}", encoded)
            elif inner.type == "pipeline":
                commands = [c for c in inner.children if c.type == "command"]
                encoded = encoded or any(self._name(c) in _ENCODERS and not self._decodes(c) for c in commands[1:])
            elif inner.type == "command":
                origin = self._read_by(inner)
                if origin is not None:
                    return origin._replace(encoded=encoded)
            elif inner.type == "file_redirect":  # `$(< ~/.ssh/id_rsa)`, `cat < ~/.netrc`
                origin = self._read_from(inner)
                if origin is not None:
                    return origin._replace(encoded=encoded)
            stack.extend((child, encoded) for child in reversed(inner.children))
        return None

    def _name(self, command: Any) -> str:
        words = self._command_words(command)
        return self._word(words[0]).lower() if words and words[0].type == "command_name" else ""

    def _decodes(self, command: Any) -> bool:
        return any(w.text.decode() in ("-d", "--decode", "-D", "-r") for w in self._command_words(command)[1:])

    def _read_by(self, command: Any) -> Origin | None:
        words = [self._word(w) for w in self._command_words(command)]
        if not words:
            return None
        store = token_command(words)
        if store is not None:
            return Origin("token", command, f"the token store `{' '.join(store)}`")
        if words[0].lower() in _READERS:
            for said in words[1:]:
                if SECRET_PATH.search(said.lower()):
                    return Origin("credential", command, f"the credential file {said}")
        return None

    def _read_from(self, redirect: Any) -> Origin | None:
        """The credential file a `<` redirection reads, if it names one."""
        if redirect.children and redirect.children[0].type == "<":
            said = self._word(redirect.children[-1])
            if SECRET_PATH.search(said.lower()):
                return Origin("credential", redirect, f"the credential file {said}")
        return None

    def redirected(self, node: Any) -> None:
        """`read -r T < ~/.ssh/id_rsa` (a secret read into T); a sending command given a followed value in a
        here-document or here-string (`curl --data-binary @- URL <<EOF` ... `$T` ... `EOF`)."""
        command = next((c for c in node.children if c.type == "command"), None)
        if command is None:
            return
        name = self._name(command)
        for redirect in node.children:
            if name == "read" and redirect.type == "file_redirect":
                origin = self._read_from(redirect)
                variables = [w for w in self._command_words(command)[1:] if not w.text.decode().startswith("-")]
                if origin is not None and variables:
                    self.secret[variables[-1].text.decode()] = origin._replace(node=node)
            elif name in SENDERS and redirect.type in ("heredoc_redirect", "herestring_redirect"):
                origin = self.source_in(redirect)
                if origin is not None:
                    self._send(node, origin)
                    return

    def command(self, node: Any) -> None:
        """A sending command given a followed value as an argument or on a here-string."""
        name = self._name(node)
        if name not in SENDERS:
            return
        words = self._command_words(node)[1:]
        for index, argument in enumerate(words):
            origin = self.source_in(argument)
            if origin is None:
                continue
            said = argument.text.decode("utf-8", "replace")
            flag = words[index - 1].text.decode() if index else ""
            flag_here = said.split("=", 1)[0] if said.startswith("-") else ""
            as_data = name in _DNS or flag in _DATA_FLAGS or flag_here in _DATA_FLAGS
            if as_data or origin.kind not in KEY_KINDS:  # a key elsewhere (encoded too: `Basic`): where keys go
                self._send(node, origin)
                return
        for child in node.children:  # a here-string is the command's own child (a here-document is not)
            if child.type == "herestring_redirect":
                origin = self.source_in(child)
                if origin is not None:
                    self._send(node, origin)
                    return

    def pipeline(self, node: Any) -> None:
        """A followed value printed into a sending command: `printf '%s' "$P" | nc host 4444`."""
        commands = [c for c in node.children if c.type == "command"]
        for index, right in enumerate(commands[1:], 1):
            if self._name(right) not in SENDERS:
                continue
            encoded = False
            for left in commands[:index]:
                encoded = encoded or (self._name(left) in _ENCODERS and not self._decodes(left))
                origin = self.source_in(left)
                if origin is not None:
                    self._send(right, origin._replace(encoded=origin.encoded or encoded))
                    return

    def _send(self, sink: Any, origin: Origin) -> None:
        if id(sink) not in self._reported:
            self._reported.add(id(sink))
            self.sent.append((sink, origin))
