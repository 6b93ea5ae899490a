"""How values move through a bundled Python script, read from its syntax tree (`ast`: parsed, never compiled
to code, imported or run): where a secret or a download is read (a `Source`), every place a value moves, and
the calls it reaches (python_script.py turns those into findings and says which are).

Names are per scope (a function's own, a comprehension's own, else the module's); a value assigned from an
expression holding a source or a followed name is followed too, whatever the expression builds (concatenation,
f-strings, `format`, `%`, `json.dumps`, encodings, method calls); a value passed to one of the script's
functions follows into its parameter, and one it returns out of its calls. What a command or a network call
returns is its output, not its arguments (a key sent in a header does not follow into the response). Each
place a value moves is read once, and values are followed from a work list: linear in the script, within the
`MAX_PYTHON_AST_NODES` and `MAX_PYTHON_FLOW_SECONDS` of `Budget`.
"""

from __future__ import annotations

import ast
import time
from collections.abc import Iterator
from typing import NamedTuple

from ..core import programs
from ..core.limits import MAX_PYTHON_AST_NODES, MAX_PYTHON_FLOW_SECONDS
from .secret_names import SECRET_PATH, secret_name, token_command
from .text import Text, shown

_NETWORK_MODULES = frozenset({"requests", "httpx", "urllib", "urllib3", "http", "socket", "aiohttp", "smtplib",
                              "ftplib", "websocket", "websockets", "dns", "paramiko", "pycurl"})
# calls that send, by their own name in a script importing a network module; and names too common to say so
# alone (`dict.get`), counted only on a network module or a client made by one (`requests.Session()`)
_NETWORK_CALLS = frozenset({"post", "put", "patch", "urlopen", "Request", "sendall", "sendto", "create_connection",
                            "gethostbyname", "gethostbyname_ex", "getaddrinfo", "sendmail", "storbinary",
                            "urlretrieve"})
_CLIENT_CALLS = frozenset({"get", "delete", "head", "request", "send", "fetch", "query", "resolve", "connect",
                           "options", "stream"})
# the calls whose first argument is the address (a key in a URL is where keys go); the others' is the payload
_ADDRESS_FIRST = frozenset({"post", "put", "patch", "urlopen", "Request", "get", "delete", "head", "fetch",
                            "options", "stream", "urlretrieve"})
_DOWNLOADS = frozenset({"urlopen", "get", "urlretrieve", "fetch"})
_RUNS = frozenset({"system", "popen", "run", "call", "check_call", "check_output", "Popen", "exec", "eval",
                   "execv", "execve", "execl", "execlp", "execvp", "spawnv", "spawnl"})
_RUN_MODULES = frozenset({"subprocess", "os"})
_KEY_ARGUMENTS = frozenset({"headers", "auth", "params", "url", "cookies"})  # where a service's key is expected
_NETWORK_TOOLS = programs.compile(r"(?:^|\s)(?:curl|wget|nc|ncat|netcat|invoke-webrequest|iwr)(?:\s|$)")
_KEY_FLAGS = programs.compile(r"(?:^|\s)(?:-h|--header|-u|--user)(?:\s|$)|authorization|bearer")
_ENCODINGS = frozenset({"b64encode", "urlsafe_b64encode", "b32encode", "b85encode", "hexlify", "a85encode",
                        "encodebytes", "hex"})


KEY_KINDS = ("variable", "token")  # keys: sent where keys go (a header, auth, the URL), how they are used


class Source(NamedTuple):
    """Where a followed value comes from: its kind, the node read, and its text for the message."""

    # "credential" (a file or store of the user's), "token" (a CLI's token store: a key, like "variable"),
    # "environment" (the whole), "variable" (one named like a secret), "download" (what a server sent)
    kind: str
    node: ast.AST
    said: str


class Budget:
    """The per-file bounds: nodes visited and seconds spent (checked every few hundred nodes)."""

    def __init__(self) -> None:
        self.nodes = 0
        self.deadline = time.monotonic() + MAX_PYTHON_FLOW_SECONDS
        self.spent: str | None = None

    def visit(self) -> bool:
        self.nodes += 1
        if self.nodes > MAX_PYTHON_AST_NODES:
            self.spent = f"{MAX_PYTHON_AST_NODES:,} syntax nodes (MAX_PYTHON_AST_NODES)"
        elif self.nodes % 512 == 1 and time.monotonic() > self.deadline:  # the clock read every 512 nodes
            self.spent = f"{MAX_PYTHON_FLOW_SECONDS:g} s (MAX_PYTHON_FLOW_SECONDS)"
        return self.spent is None


def _dotted(node: ast.AST) -> str:
    """`a.b.c` for a name or attribute chain (calls in it read as their function: `Path.home().x`)."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            break
        else:
            break
    return ".".join(reversed(parts))


def _strings(node: ast.AST) -> str:
    """The constant strings inside an expression, joined by `/` (a path built from pieces reads whole)."""
    found = [n for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    found.sort(key=lambda n: (n.lineno, n.col_offset))  # in the order written (ast.walk goes breadth first)
    return "/".join(n.value for n in found)


def _built_name(node: ast.AST) -> str | None:
    """A variable's name written as a string, or built from strings (`"GITHUB_" + "TOKEN"`, an f-string of
    constants): the name the environment is asked for."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _built_name(node.left), _built_name(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(str(v.value) for v in node.values)  # type: ignore[attr-defined]
    return None


Key = tuple[int, str]  # (the scope a name lives in: a function's id, or 0 for the module; the name)
_MODULE = 0


class _Flow(NamedTuple):
    """One place a value moves: the keys it is stored under, the expression it comes from, the scope that
    expression is read in."""

    targets: tuple[Key, ...]
    value: ast.AST
    scope: int


class FlowReader:
    """One script's flows: every place a value moves, the names followed (and from which source), then the
    sinks they reach. Names are per scope (a function's own, else the module's); a value passed to a function
    of the script follows into its parameter, and one it returns follows out of its calls."""

    def __init__(self, text: Text, tree: ast.Module, budget: Budget) -> None:
        self.text = text
        self.tree = tree
        self.budget = budget
        self.followed: dict[Key, Source] = {}
        self.paths: dict[str, str] = {}  # names holding a credential file's path (not its content): name -> path
        self.clients: set[str] = set()  # names holding a network client (`s = requests.Session()`)
        self.from_imports: dict[str, str] = {}  # `from subprocess import run`: run -> subprocess
        self.imports: set[str] = set()
        self.network = False
        self.locals: dict[int, set[str]] = {_MODULE: set()}
        self.functions: dict[str, ast.AST] = {}  # the script's functions and methods, by name
        self.flows: list[_Flow] = []
        self.calls: list[tuple[ast.Call, int]] = []  # every call, with the scope it is made in
        self._moves: list[tuple[list[ast.AST], ast.AST, int]] = []  # (targets, value, scope), keyed once all is read
        self._assigns: list[ast.Assign] = []

    def _traverse(self) -> None:
        """One pass over the script (no recursion): scopes and their own names, functions, imports, calls, and
        every place a value moves (assignments, loops, `with`, returns)."""
        stack: list[tuple[ast.AST, int]] = [(self.tree, _MODULE)]
        moves = self._moves
        while stack and self.budget.visit():
            node, scope = stack.pop()
            inner = scope
            kind = type(node)
            if kind is ast.Call:
                self.calls.append((node, scope))  # type: ignore[arg-type]
            elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
                inner = id(node)
                arguments = node.args  # type: ignore[attr-defined]
                self.locals[inner] = {a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs}
                if kind is not ast.Lambda:
                    self.functions.setdefault(node.name, node)  # type: ignore[attr-defined]
            elif kind in (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp):
                inner = id(node)  # a comprehension's names are its own (`{k: v for k, v in ...}`)
                self.locals[inner] = set()
            elif kind is ast.Assign:
                moves.append((node.targets, node.value, scope))  # type: ignore[attr-defined]
                self._assigns.append(node)  # type: ignore[arg-type]
            elif kind in (ast.AnnAssign, ast.AugAssign) and node.value is not None:  # type: ignore[attr-defined]
                moves.append(([node.target], node.value, scope))  # type: ignore[attr-defined]
            elif kind is ast.NamedExpr:
                moves.append(([node.target], node.value, scope))  # type: ignore[attr-defined]
            elif kind in (ast.For, ast.AsyncFor):
                moves.append(([node.target], node.iter, scope))  # type: ignore[attr-defined]
            elif kind is ast.comprehension:
                moves.append(([node.target], node.iter, scope))  # type: ignore[attr-defined]
            elif kind in (ast.With, ast.AsyncWith):
                moves.extend(([i.optional_vars], i.context_expr, scope) for i in node.items if i.optional_vars)  # type: ignore[attr-defined]
            elif kind is ast.Return and node.value is not None and scope != _MODULE:  # type: ignore[attr-defined]
                moves.append(([], node.value, scope))  # type: ignore[attr-defined]
            elif kind is ast.Import:
                self.imports.update(alias.name.split(".")[0] for alias in node.names)  # type: ignore[attr-defined]
            elif kind is ast.ImportFrom and node.module:  # type: ignore[attr-defined]
                module = node.module.split(".")[0]  # type: ignore[attr-defined]
                self.imports.add(module)
                self.from_imports.update((alias.asname or alias.name, module) for alias in node.names)  # type: ignore[attr-defined]
            stack.extend((child, inner) for child in ast.iter_child_nodes(node))
        self.network = bool(self.imports & _NETWORK_MODULES)

    def key(self, name: str, scope: int) -> Key:
        return (scope, name) if name in self.locals.get(scope, ()) else (_MODULE, name)

    def _targets(self, targets: list[ast.AST], scope: int) -> tuple[Key, ...]:
        if not targets:
            return ((scope, "<return>"),)
        keys: list[Key] = []
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    self.locals.setdefault(scope, set()).add(node.id)
                    keys.append((scope, node.id))
                elif isinstance(node, ast.Attribute):
                    keys.append((_MODULE, _dotted(node)))  # `self.token = ...`: one name for the whole script
                    break
        return tuple(keys)

    def _collect(self) -> None:
        """The places values move, keyed now that every scope's names are known; and a value passed to one of
        the script's functions moves into its parameter."""
        self.flows = [_Flow(self._targets(targets, scope), value, scope) for targets, value, scope in self._moves]
        for node in self._assigns:  # after the traversal: `from requests import Session` is known by then
            self._note_path_or_client(node, node.targets)
        for node, scope in self.calls:
            called = self.functions.get(_dotted(node.func).rsplit(".", 1)[-1])
            if called is None:
                continue
            parameters = [a.arg for a in called.args.posonlyargs + called.args.args]  # type: ignore[attr-defined]
            if parameters and parameters[0] in ("self", "cls") and isinstance(node.func, ast.Attribute):
                parameters = parameters[1:]
            for parameter, argument in zip(parameters, node.args):
                self.flows.append(_Flow(((id(called), parameter),), argument, scope))
            for keyword in node.keywords:
                if keyword.arg is not None:
                    self.flows.append(_Flow(((id(called), keyword.arg),), keyword.value, scope))

    def _note_path_or_client(self, node: ast.Assign, targets: list[ast.expr]) -> None:
        value = node.value
        names = [_dotted(n) for target in targets for n in ast.walk(target) if isinstance(n, (ast.Name, ast.Attribute))]
        path = _strings(value)
        builds_path = not isinstance(value, ast.Call) or _dotted(value.func).rsplit(".", 1)[-1] in (
            "expanduser", "Path", "join", "home"
        )
        if builds_path and SECRET_PATH.search(path.lower()):
            self.paths.update((name, path) for name in names)
        if isinstance(value, ast.Call) and self._root(_dotted(value.func)) in _NETWORK_MODULES:
            self.clients.update(names)

    def _reads(self, node: ast.AST, scope: int) -> tuple[Source | None, list[Key]]:
        """The source an expression reads directly (the first), and the keys of the names it reads. What a
        command or a network call returns is its output, not its arguments: a key sent in a header does not
        follow into the response, nor the environment given to a command into what it prints."""
        direct: Source | None = None
        keys: list[Key] = []
        stack = [node]
        while stack and self.budget.visit():
            inner = stack.pop()
            if direct is None:
                direct = self._direct_source(inner)
            if isinstance(inner, ast.Name):
                keys.append(self.key(inner.id, scope))
            elif isinstance(inner, ast.Attribute):
                keys.append((_MODULE, _dotted(inner)))
            elif isinstance(inner, ast.Call):
                if self.sink_kind(inner) is not None:
                    stack.append(inner.func)  # `sock.recv()` of a followed socket still reads it
                    continue
                called = self.functions.get(_dotted(inner.func).rsplit(".", 1)[-1])
                if called is not None:
                    keys.append((id(called), "<return>"))
            stack.extend(ast.iter_child_nodes(inner))
        return direct, keys

    def sink_kind(self, node: ast.Call) -> str | None:
        """"runs" for a call that runs a command or code, "sends" for a network call, None otherwise."""
        name = _dotted(node.func)
        last = name.rsplit(".", 1)[-1]
        root = self._root(name)
        if last in ("exec", "eval") and name == last or (last in _RUNS and root in _RUN_MODULES):
            return "runs"
        if self.network and (last in _NETWORK_CALLS or (
            last in _CLIENT_CALLS and (root in _NETWORK_MODULES or name.split(".")[0] in self.clients)
        )):
            return "sends"
        return None

    def follow(self) -> None:
        """Follow every value from its sources through the places it moves (each place read once: linear)."""
        self._traverse()
        self._collect()
        readers: dict[Key, list[_Flow]] = {}
        work: list[tuple[Key, Source]] = []
        for flow in self.flows:
            direct, keys = self._reads(flow.value, flow.scope)
            for key in keys:
                readers.setdefault(key, []).append(flow)
            if direct is not None:
                work.extend((target, direct) for target in flow.targets)
        while work and self.budget.visit():
            key, source = work.pop()
            if key in self.followed:
                continue
            self.followed[key] = source
            for flow in readers.get(key, ()):
                work.extend((target, source) for target in flow.targets if target not in self.followed)

    def source_of(self, node: ast.AST, scope: int) -> Source | None:
        """The first source an expression holds, read there or followed into a name it reads."""
        direct, keys = self._reads(node, scope)
        if direct is not None:
            return direct
        return next((self.followed[key] for key in keys if key in self.followed), None)

    def _direct_source(self, node: ast.AST) -> Source | None:
        if isinstance(node, ast.Subscript) and _dotted(node.value) in ("os.environ", "environ"):
            named = _built_name(node.slice)
            if named is not None and secret_name(named):
                return Source("variable", node, f"os.environ[{named!r}]")
        if not isinstance(node, ast.Call):
            return None
        name = _dotted(node.func)
        last = name.rsplit(".", 1)[-1]
        if name in ("os.getenv", "getenv", "os.environ.get", "environ.get") and node.args:
            named = _built_name(node.args[0])
            if named is not None and secret_name(named):
                return Source("variable", node, f"{name}({named!r})")
        if name in ("dict", "json.dumps", "str", "repr") and node.args and _dotted(node.args[0]) in (
            "os.environ", "environ"
        ) or name in ("os.environ.copy", "os.environ.items"):
            return Source("environment", node, "the whole environment")
        if last in ("open", "read_text", "read_bytes", "readfile", "load"):
            path = _strings(node).lower()
            named = [n for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute)) and _dotted(n) in self.paths]
            named += [n for n in ast.walk(node.func) if isinstance(n, ast.Name) and n.id in self.paths]
            if SECRET_PATH.search(path) or named:
                said = _strings(node) or self.paths[_dotted(named[0])]
                return Source("credential", node, f"the credential file {shown(said, 60)}")
        if last in _RUNS and node.args:
            words = [n.value for n in ast.walk(node.args[0]) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            joined = " ".join(words).split()
            command = token_command(joined)
            if command is not None:
                return Source("token", node, f"the token store `{' '.join(command)}`")
        if last in _DOWNLOADS and (name.split(".")[0] in _NETWORK_MODULES or last == "urlopen"):
            return Source("download", node, f"a download ({name})")
        return None

    def _root(self, name: str) -> str:
        """The module a dotted name starts from, through `from X import name`."""
        root = name.split(".")[0]
        return self.from_imports.get(root, root)

    def sinks(self) -> Iterator[tuple[ast.Call, str, Source, bool]]:
        """(call, what it does, the source reaching it, whether sent as data) for each sink a source reaches."""
        inside: set[int] = set()  # calls inside a sink already reported (`urlopen(Request(...))` is one sending)
        for node, scope in self.calls:
            if id(node) in inside:
                continue
            kind = self.sink_kind(node)
            if kind is None:
                continue
            runs, sends = kind == "runs", kind == "sends"
            last = _dotted(node.func).rsplit(".", 1)[-1]
            for argument, keyword in [(a, None) for a in node.args] + [(k.value, k.arg) for k in node.keywords]:
                source = self.source_of(argument, scope)
                if source is None or source.node is node:
                    continue
                address = keyword is None and bool(node.args) and argument is node.args[0] and last in _ADDRESS_FIRST
                where_keys_go = keyword in _KEY_ARGUMENTS or (sends and address)
                as_data = not where_keys_go
                if runs and keyword == "env":
                    continue  # a command given the environment: a child process has it anyway
                if runs and source.kind in KEY_KINDS:  # a key handed to a command: data only if a downloader sends it
                    said = " ".join(_strings(node).lower().split("/"))
                    as_data = bool(_NETWORK_TOOLS.search(said)) and not _KEY_FLAGS.search(said)
                encoded = any(
                    isinstance(n, ast.Call) and _dotted(n.func).rsplit(".", 1)[-1] in _ENCODINGS for n in ast.walk(argument)
                )
                inside.update(id(n) for n in ast.walk(node) if isinstance(n, ast.Call))
                # encoded into a header or the address is still where keys go (`Authorization: Basic` is base64)
                yield node, ("runs" if runs else "sends"), source, as_data or (encoded and not where_keys_go)
                break
