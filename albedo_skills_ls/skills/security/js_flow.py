"""How values move through a bundled JavaScript or TypeScript script, read from its syntax tree (tree-sitter's
JavaScript and TypeScript grammars: parsed, never run): where a secret or a download is read, the names it
moves into, and the calls it reaches (js_script.py turns those into findings).

- **Sources**: `process.env.X_TOKEN` (a name like a secret), the whole `process.env` (spread, stringified,
  iterated), `fs.readFileSync`/`readFile` of a credential path (strings and template literals joined, so
  `` `${os.homedir()}/.ssh/id_rsa` `` and `path.join(os.homedir(), ".aws", "credentials")` read whole), a CLI's
  token store run (`execSync("gh auth token")`), and a download (`fetch(url)`, `axios.get(url)`, what their
  responses give: `.text()`, `.json()`, `.data`).
- **Flow**: names (one map for the file, as scripts are written) assigned from an expression holding a source
  or a followed name, whatever it builds (template literals, `+`, `JSON.stringify`, objects and arrays); an
  encoding on the way (`Buffer.from(x).toString("base64")`, `btoa`, `encodeURIComponent`, `.toString("hex")`)
  marks it encoded. A value passed to one of the file's own functions follows into its parameter (the file is
  walked again, at most `_PASSES` times, until nothing new is followed). What a network call returns is its
  output, not its arguments (a key sent in a header does not follow into the response).
- **Sinks**: `fetch(url, {body})`, `axios.post(url, data)` and the other verbs, `axios({data})`, the `write`,
  `end` or `send` of a request or socket the file made (`http(s).request`, `net.connect`, `new net.Socket()`,
  `tls.connect`, `new WebSocket`), `dns.lookup`/`resolve*`; and, for a download, `eval`, `Function`/`new
  Function`, `vm.run*`, `child_process.exec*`/`spawn*` (fetch-and-run).
Bounded by `MAX_JS_SYNTAX_NODES` nodes walked (over every pass).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from ..core.limits import MAX_JS_SYNTAX_NODES
from .secret_names import SECRET_PATH, secret_name, token_command

_READS = frozenset({"readFileSync", "readFile"})
_RUNS_COMMAND = frozenset({"exec", "execSync", "execFile", "execFileSync", "spawn", "spawnSync"})
_SENDS = frozenset({"post", "put", "patch", "request"})  # axios and alike: (url, data) or ({data})
_DOWNLOADERS = frozenset({"fetch", "get"})
_RESPONSE = frozenset({"text", "json", "arrayBuffer", "blob", "data", "body", "then"})
_CONNECTIONS = frozenset({"request", "connect", "createConnection", "Socket", "WebSocket", "createSocket"})
_WRITES = frozenset({"write", "end", "send", "sendto"})
_DNS = frozenset({"lookup", "resolve", "resolve4", "resolve6", "resolveTxt", "resolveAny"})
_EVALUATORS = frozenset({"eval", "Function", "runInNewContext", "runInThisContext", "runInContext", "compileFunction"})
_ENCODERS = frozenset({"btoa", "encodeURIComponent", "encodeURI", "escape"})
_KEY_PROPERTIES = frozenset({"headers", "auth", "Authorization", "authorization", "params"})
_PASSES = 3  # walks of the file: a value passed to a function declared above its call is followed in the next


class Origin(NamedTuple):
    """Where a followed value comes from: "credential", "environment", "variable", "token" or "download"."""

    kind: str
    node: Any
    said: str
    encoded: bool = False


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace")


def _strings(node: Any) -> str:
    """The string pieces inside an expression, joined by `/` (a path built from pieces reads whole)."""
    found: list[str] = []
    stack = [node]
    while stack:
        inner = stack.pop()
        if inner.type == "string_fragment":
            found.append(_text(inner))
        stack.extend(reversed(inner.children))
    return "/".join(found)


def _callee(call: Any) -> tuple[str, str, Any]:
    """(the called name's last part, the whole callee as written, the receiver node or None)."""
    function = call.child_by_field_name("function") or call.child_by_field_name("constructor")
    if function is None:
        return "", "", None
    if function.type == "member_expression":
        prop = function.child_by_field_name("property")
        return (_text(prop) if prop is not None else ""), _text(function), function.child_by_field_name("object")
    return _text(function), _text(function), None


def _arguments(call: Any) -> list[Any]:
    arguments = call.child_by_field_name("arguments")
    return [c for c in arguments.named_children if c.type != "comment"] if arguments is not None else []


class FlowReader:
    """One file's walk: the names followed, the connections made, and the sinks reached."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.followed: dict[str, Origin] = {}
        self.connections: set[str] = set()  # names holding a request or socket the file made
        self.paths: dict[str, str] = {}  # names holding a credential file's path (`p = path.join(home, ".ssh")`)
        self.functions: dict[str, list[str]] = {}  # the file's own functions: name -> parameter names
        self.sinks: dict[int, tuple[Any, str, Origin, bool]] = {}  # call id -> (call, "sends"/"runs", origin, data)
        self.nodes = 0
        self.stopped = False

    def follow(self) -> None:
        for _ in range(_PASSES):
            before = (len(self.followed), len(self.sinks))
            self._walk()
            if self.stopped or (len(self.followed), len(self.sinks)) == before:
                return

    def _walk(self) -> None:
        stack = [self.root]
        while stack:
            node = stack.pop()
            self.nodes += 1
            if self.nodes > MAX_JS_SYNTAX_NODES:
                self.stopped = True
                return
            kind = node.type
            if kind == "variable_declarator":
                self._assign(node.child_by_field_name("name"), node.child_by_field_name("value"))
            elif kind in ("assignment_expression", "augmented_assignment_expression"):
                self._assign(node.child_by_field_name("left"), node.child_by_field_name("right"),
                             keep=kind.startswith("augmented"))
            elif kind in ("function_declaration", "generator_function_declaration"):
                self._function(node.child_by_field_name("name"), node)
            elif kind in ("call_expression", "new_expression"):
                self._call(node)
            stack.extend(reversed(node.children))

    def _function(self, name: Any, node: Any) -> None:
        parameters = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        if name is None or parameters is None:
            return
        names = [_text(p.child_by_field_name("pattern") or p) for p in parameters.named_children] if (
            parameters.type == "formal_parameters") else [_text(parameters)]
        self.functions[_text(name)] = names

    def _assign(self, target: Any, value: Any, keep: bool = False) -> None:
        if target is None or value is None:
            return
        if value.type in ("arrow_function", "function_expression", "function"):
            self._function(target, value)
            return
        name = _text(target)
        path = _strings(value)
        if path and SECRET_PATH.search(path.lower()):
            self.paths[name] = path
        origin = self.source_in(value)
        if origin is not None:
            self.followed[name] = origin
        elif not keep:
            self.followed.pop(name, None)
        made = value.named_children[0] if value.type == "await_expression" and value.named_children else value
        if made.type in ("call_expression", "new_expression") and _callee(made)[0] in _CONNECTIONS:
            self.connections.add(name)

    def source_in(self, node: Any) -> Origin | None:
        """The first source an expression holds, read there or followed into a name it reads."""
        stack = [(node, False)]
        while stack:
            inner, encoded = stack.pop()
            self.nodes += 1
            kind = inner.type
            if kind in ("identifier", "shorthand_property_identifier") and _text(inner) in self.followed:
                origin = self.followed[_text(inner)]
                return origin._replace(encoded=origin.encoded or encoded)
            if kind in ("member_expression", "subscript_expression"):
                origin = self._environment(inner)
                if origin is not None:
                    return origin._replace(encoded=encoded)
            if kind in ("call_expression", "new_expression", "await_expression"):
                origin = self._called_source(inner) if kind != "await_expression" else None
                if origin is not None:
                    return origin._replace(encoded=encoded or origin.encoded)
                if kind != "await_expression" and _callee(inner)[0] in ("post", "put", "patch", "request", "send"):
                    continue  # what a network call returns is its answer, not what it was given
                if kind == "call_expression" and self._encodes(inner):
                    encoded = True
            if kind == "spread_element" and _text(inner).replace(" ", "") == "...process.env":
                return Origin("environment", inner, "the whole environment", encoded)
            stack.extend((child, encoded) for child in reversed(inner.children))
        return None

    def _encodes(self, call: Any) -> bool:
        name, _, _ = _callee(call)
        if name in _ENCODERS:
            return True
        if name == "toString":
            return any(_strings(a) in ("base64", "hex", "base64url") for a in _arguments(call))
        return False

    def _environment(self, node: Any) -> Origin | None:
        """`process.env.NAME` or `process.env["NAME"]` named like a secret."""
        target = node.child_by_field_name("object")
        if target is None or _text(target).replace(" ", "") != "process.env":
            return None
        key = node.child_by_field_name("property") or node.child_by_field_name("index")
        name = _strings(key) if key is not None and key.type == "string" else (_text(key) if key is not None else "")
        return Origin("variable", node, f"process.env.{name}") if secret_name(name) else None

    def _called_source(self, call: Any) -> Origin | None:
        name, whole, receiver = _callee(call)
        arguments = _arguments(call)
        if name in _READS and arguments:
            path = _strings(arguments[0]) or self.paths.get(_text(arguments[0]), "")
            if SECRET_PATH.search(path.lower()):
                return Origin("credential", call, f"the credential file {path}")
        if name in _RUNS_COMMAND and arguments:
            words = " ".join(_strings(a) for a in arguments).replace("/", " ").split()
            store = token_command(words)
            if store is not None:
                return Origin("token", call, f"the token store `{' '.join(store)}`")
        if whole in ("JSON.stringify", "Object.entries", "Object.values", "Object.assign") and any(
            _text(a).replace(" ", "") == "process.env" for a in arguments
        ):
            return Origin("environment", call, "the whole environment")
        if name == "fetch" and receiver is None or name in _DOWNLOADERS and receiver is not None and _text(
            receiver
        ) in ("axios", "got", "superagent", "needle"):
            return Origin("download", call, f"a download ({whole})")
        if name in _RESPONSE and receiver is not None:
            inner = self.source_in(receiver)
            if inner is not None and inner.kind == "download":
                return inner
        return None

    def _call(self, call: Any) -> None:
        name, whole, receiver = _callee(call)
        arguments = _arguments(call)
        if name in self.functions:
            for parameter, argument in zip(self.functions[name], arguments):
                origin = self.source_in(argument)
                if origin is not None:
                    self.followed.setdefault(parameter, origin)
        if name in _EVALUATORS or name in _RUNS_COMMAND:
            for argument in arguments[:1]:
                origin = self.source_in(argument)
                if origin is not None and origin.kind == "download":
                    self.sinks.setdefault(id(call), (call, "runs", origin, True))
                elif origin is not None and name in _RUNS_COMMAND and any(
                    tool in _strings(argument).split() for tool in ("curl", "wget", "nc")
                ):
                    self.sinks.setdefault(id(call), (call, "sends", origin, True))
            return
        reached = [(origin, as_data) for argument, as_data in self._sent(name, whole, receiver, arguments)
                   if (origin := self.source_in(argument)) is not None and origin.kind != "download"]
        if reached:  # sent as data, if any argument is; else where keys go
            origin, as_data = max(reached, key=lambda found: found[1])
            self.sinks.setdefault(id(call), (call, "sends", origin, as_data))

    def _sent(self, name: str, whole: str, receiver: Any, arguments: list[Any]) -> Iterator[tuple[Any, bool]]:
        """(argument, whether it is sent as data) for each argument a network call sends."""
        target = _text(receiver) if receiver is not None else ""
        if name == "fetch" and receiver is None or name in _SENDS | {"get", "delete", "head"} and target in (
            "axios", "got", "superagent", "needle", "ky"
        ) or whole == "axios":
            for index, argument in enumerate(arguments):
                if index == 1 and name in _SENDS - {"request"}:
                    yield argument, True  # axios.post(url, data, options): the data, whatever its shape
                elif argument.type == "object":
                    yield from self._options(argument)  # fetch's options, axios(config), a request's config
                else:
                    yield argument, False  # the address: where keys go
        elif name in _WRITES and target in self.connections:
            yield from ((argument, True) for argument in arguments)
        elif name in _DNS and target == "dns" or whole.startswith("dns.promises."):
            yield from ((argument, True) for argument in arguments[:1])

    def _options(self, options: Any) -> Iterator[tuple[Any, bool]]:
        """The values of a request's options: a body or data as data, headers and the address where keys go."""
        for pair in options.named_children:
            if pair.type == "shorthand_property_identifier":  # `{ body }`
                yield pair, _text(pair) in ("body", "data", "json", "form")
                continue
            if pair.type != "pair":
                continue
            key = _strings(pair.child_by_field_name("key")) or _text(pair.child_by_field_name("key"))
            value = pair.child_by_field_name("value")
            if value is not None:
                yield value, key in ("body", "data", "json", "form") and key not in _KEY_PROPERTIES
