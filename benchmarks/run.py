"""Benchmarks against the issue's limits and against the other tools, as one Markdown table.

    .venv/bin/python benchmarks/run.py            # full: medians and p95 over many runs (~3-4 min)
    .venv/bin/python benchmarks/run.py --quick    # smoke check: few runs (~40 s)

Run it with the project's interpreter (the one that has albedo_skills_ls, pygls and lsprotocol). The
other tools (`skills-ref`, `agnix`) are installed on first use into their own virtualenv,
benchmarks/.work/venv-tools, so they never touch the project's. Trees are generated afresh (and
deterministically) under benchmarks/.work/trees by benchmarks/generate.py.

Three groups of rows (README.md beside this file says what each row means):
- engine, in this process: plain `time.perf_counter` loops with warm-ups;
- the server over stdio, driven by a raw JSON-RPC client (Content-Length framing over asyncio pipes, no
  pygls client in the timing), next to benchmarks/minimal_server.py started the same way;
- whole processes on the same 128-skill tree: `hyperfine -N` when it is installed, else a perf_counter
  loop around `subprocess.run`.
The full table is printed on stdout (progress on stderr) and also saved to benchmarks/.work/last-run.md.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import importlib
import importlib.metadata
import json
import math
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Callable

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
WORK = os.path.join(HERE, ".work")
TREES = os.path.join(WORK, "trees")
TOOLS_VENV = os.path.join(WORK, "venv-tools")
TOOLS_PINS = ("skills-ref==0.1.1", "agnix==0.59.3")  # the versions the README's figures were taken with
sys.path[:0] = [REPO, HERE]

import generate  # noqa: E402  (benchmarks/generate.py)

PYTHON = sys.executable
BIN = os.path.dirname(PYTHON)
ALBEDO_CHECK = os.path.join(BIN, "albedo-skills")


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# --- numbers ---------------------------------------------------------------------------------------------


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(0.95 * len(ordered)) - 1))]


def bench(fn: Callable[[], Any], runs: int, warmup: int, setup: Callable[[], Any] | None = None) -> list[float]:
    """`runs` timings of `fn()` in ms, after `warmup` untimed calls; `setup()` runs untimed before each."""
    for _ in range(warmup):
        if setup:
            setup()
        fn()
    samples = []
    for _ in range(runs):
        if setup:
            setup()
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


@dataclass
class Row:
    group: str
    name: str
    samples: list[float] | None = None  # ms
    value: str | None = None  # shown instead of median when set (ratios, MiB, n/a)
    goal: str = "—"
    met: bool | None = None
    note: str = ""

    @property
    def median(self) -> float | None:
        return statistics.median(self.samples) if self.samples else None

    def cells(self) -> list[str]:
        if self.value is not None:
            median, high, low, runs = self.value, "—", "—", str(len(self.samples)) if self.samples else "—"
        elif self.samples:
            median, high, low = fmt_ms(self.median), fmt_ms(p95(self.samples)), fmt_ms(min(self.samples))
            runs = str(len(self.samples))
        else:
            median, high, low, runs = "n/a", "—", "—", "—"
        met = "—" if self.met is None else ("yes" if self.met else "**no**")
        return [self.group, self.name, median, high, low, runs, self.goal, met, self.note]


def fmt_ms(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value < 1:
        return f"{value:.3f} ms"
    if value < 10:
        return f"{value:.2f} ms"
    return f"{value:.1f} ms"


def goal_ms(row: Row, limit: float, p95_limit: float | None = None) -> Row:
    """The goal on the median, and also on the p95 when `p95_limit` is given."""
    row.goal = f"≤ {limit:g} ms" + (f", p95 ≤ {p95_limit:g} ms" if p95_limit is not None else "")
    row.met = row.median is not None and row.median <= limit
    if p95_limit is not None and row.samples:
        row.met = row.met and p95(row.samples) <= p95_limit
    return row


# --- machine and versions --------------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def version_of(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def tool_output(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unavailable ({exc.__class__.__name__})"
    return (done.stdout or done.stderr).strip().splitlines()[0] if (done.stdout or done.stderr).strip() else ""


# --- the other tools' virtualenv -------------------------------------------------------------------------


def tools_bin(name: str) -> str:
    return os.path.join(TOOLS_VENV, "bin", name)


OURS_VENV = os.path.join(WORK, "venv-ours")


def ensure_installed_ours() -> str | None:
    """A regular (non-editable) install of this checkout in benchmarks/.work/venv-ours, as `pip install .`
    or pipx gives users: an editable install adds an import hook (and pathlib) to every start. Reinstalled
    on every run so it measures the code as it is now. None when ready, else why not."""
    python = os.path.join(OURS_VENV, "bin", "python")
    try:
        if not os.path.exists(python):
            log(f"installing this checkout into {OURS_VENV}")
            subprocess.run([PYTHON, "-m", "venv", OURS_VENV], check=True, capture_output=True)
            subprocess.run([python, "-m", "pip", "install", "-q", REPO], check=True, capture_output=True, text=True)
        else:
            subprocess.run(
                [python, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", REPO],
                check=True, capture_output=True, text=True,
            )
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"could not install this checkout: {getattr(exc, 'stderr', '') or exc}"
    return None


def ensure_tools() -> str | None:
    """Create benchmarks/.work/venv-tools with skills-ref and agnix; None when ready, else why not."""
    if os.path.exists(tools_bin("agentskills")) and os.path.exists(tools_bin("agnix")):
        return None
    log(f"installing {' '.join(TOOLS_PINS)} into {TOOLS_VENV}")
    try:
        if not os.path.exists(tools_bin("python")):
            subprocess.run([PYTHON, "-m", "venv", TOOLS_VENV], check=True, capture_output=True)
        subprocess.run(
            [tools_bin("python"), "-m", "pip", "install", "-q", *TOOLS_PINS], check=True, capture_output=True, text=True
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"could not install the other tools: {getattr(exc, 'stderr', '') or exc}"
    return None


# --- whole processes -------------------------------------------------------------------------------------


PYCACHE = os.path.join(WORK, "pycache")


def child_env(home: str | None = None, bytecode: bool = True) -> dict[str, str]:
    """The environment of every measured process.

    With `bytecode` (the default) Python may write and read .pyc files, kept under benchmarks/.work/pycache
    (PYTHONPYCACHEPREFIX, so nothing is written beside the sources): every tool then starts as it would
    from an ordinary install, whatever PYTHONDONTWRITEBYTECODE this shell has. The warm-ups fill the cache.
    """
    env = dict(os.environ)
    if home is not None:
        env["HOME"] = home
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = PYCACHE
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def _hyperfine_once(
    hyperfine: str, argv: list[str], runs: int, warmup: int, env: dict[str, str]
) -> tuple[list[float], list[float]]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
        export = handle.name
    try:
        subprocess.run(
            [hyperfine, "-N", "-i", "--style", "none", "--warmup", str(warmup), "--runs", str(runs),
             "--export-json", export, shlex.join(argv)],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        )
        with open(export, encoding="utf-8") as handle:
            result = json.load(handle)["results"][0]
        # hyperfine gives CPU time as a mean only: one figure per run, the same for each
        cpu = (result["user"] + result["system"]) * 1000
        return [t * 1000 for t in result["times"]], [cpu] * len(result["times"])
    finally:
        os.unlink(export)


def _children_cpu_ms() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def _loop_once(argv: list[str], runs: int, warmup: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system, from the children's rusage) ms of each run."""
    for _ in range(warmup):
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    samples, cpu = [], []
    for _ in range(runs):
        cpu_before = _children_cpu_ms()
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append(_children_cpu_ms() - cpu_before)
    return samples, cpu


def measure_processes(
    commands: dict[str, tuple[list[str], dict[str, str]]], runs: int, warmup: int, rounds: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall-clock ms of whole processes: `hyperfine -N` (no shell) when installed, else a perf_counter loop
    around subprocess.run. The commands take turns in `rounds` rounds of runs/rounds each, so a load that
    comes and goes on the machine falls on all of them alike; warm-ups run in the first round only.
    Returns the wall-clock samples and the CPU-time (user + system) samples."""
    hyperfine = shutil.which("hyperfine")
    samples: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    per_round = max(1, runs // rounds)
    for index in range(rounds):
        for name, (argv, env) in commands.items():
            first = warmup if index == 0 else 0
            if hyperfine:
                wall, used = _hyperfine_once(hyperfine, argv, per_round, first, env)
            else:
                wall, used = _loop_once(argv, per_round, first, env)
            samples[name] += wall
            cpu[name] += used
    return samples, cpu


def measure_loop(argvs: list[list[str]], runs: int, env: dict[str, str]) -> list[float]:
    """Wall-clock ms of running every command of `argvs` one after another (a CI loop), `runs` times."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for argv in argvs:
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


# --- a raw JSON-RPC client over stdio --------------------------------------------------------------------


def file_uri(path: str) -> str:
    from urllib.parse import quote

    return "file://" + quote(os.path.abspath(path))


class RpcClient:
    """Just enough LSP client: Content-Length framing, requests, notifications, answers to the server's
    requests (configuration, registration, progress), and receive timestamps taken as soon as a message
    has been read."""

    def __init__(self, proc: asyncio.subprocess.Process, started: float) -> None:
        self.proc = proc
        self.started = started
        self.next_id = 0
        self.pending: dict[int, asyncio.Future] = {}
        self.notes: list[tuple[float, dict]] = []
        self.waiters: list[tuple[Callable[[dict], bool], asyncio.Future]] = []
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def spawn(cls, argv: list[str], cwd: str, env: dict[str, str]) -> "RpcClient":
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, cwd=cwd, env=env,
        )
        return cls(proc, started)

    def _write(self, message: dict) -> None:
        body = json.dumps(message, separators=(",", ":")).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params: Any) -> tuple[float, Any]:
        """(receive time, result) of one request; the send is timed by the caller."""
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        self._write({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.proc.stdin is not None
        await self.proc.stdin.drain()
        return await asyncio.wait_for(future, 60)

    def notify(self, method: str, params: Any) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def expect(self, predicate: Callable[[dict], bool]) -> asyncio.Future:
        """A future for the next notification matching `predicate` (register before sending)."""
        future = asyncio.get_running_loop().create_future()
        self.waiters.append((predicate, future))
        return future

    async def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        try:
            while True:
                length = None
                while True:
                    line = await stream.readline()
                    if not line:
                        return
                    if line in (b"\r\n", b"\n"):
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                assert length is not None
                body = await stream.readexactly(length)
                received = time.perf_counter()
                message = json.loads(body)
                if "method" in message and "id" in message:
                    self._answer(message)
                elif "id" in message:
                    future = self.pending.pop(message["id"], None)
                    if future and not future.done():
                        if "error" in message:
                            future.set_exception(RuntimeError(f"{message['error']}"))
                        else:
                            future.set_result((received, message.get("result")))
                else:
                    self.notes.append((received, message))
                    for waiter in list(self.waiters):
                        predicate, future = waiter
                        if not future.done() and predicate(message):
                            future.set_result((received, message))
                            self.waiters.remove(waiter)
        except (asyncio.IncompleteReadError, ConnectionError):
            return

    def _answer(self, message: dict) -> None:
        result: Any = None
        if message["method"] == "workspace/configuration":
            result = [{} for _ in message.get("params", {}).get("items", [])]
        self._write({"jsonrpc": "2.0", "id": message["id"], "result": result})

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.request("shutdown", None), 10)
            self.notify("exit", None)
            assert self.proc.stdin is not None
            await self.proc.stdin.drain()
            await asyncio.wait_for(self.proc.wait(), 10)
        except Exception:
            if self.proc.returncode is None:
                self.proc.kill()
                await self.proc.wait()
        self.reader.cancel()


CLIENT_CAPABILITIES = {
    "workspace": {
        "configuration": True,
        "workspaceFolders": True,
        "didChangeWatchedFiles": {"dynamicRegistration": True, "relativePatternSupport": True},
        "executeCommand": {"dynamicRegistration": False},
    },
    "window": {"workDoneProgress": True},
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "synchronization": {"didSave": True, "dynamicRegistration": False},
        "completion": {
            "completionItem": {"snippetSupport": True, "documentationFormat": ["markdown", "plaintext"]},
            "completionList": {"itemDefaults": ["editRange"]},  # as VS Code and Neovim 0.10+ declare
        },
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
    },
}
# The same client without `completionList.itemDefaults` (as Neovim 0.7 and eglot 1.9): each completion item
# then carries its own textEdit, built at every request.
PER_ITEM_EDIT_CAPABILITIES = {
    **CLIENT_CAPABILITIES,
    "textDocument": {
        **CLIENT_CAPABILITIES["textDocument"],
        "completion": {"completionItem": CLIENT_CAPABILITIES["textDocument"]["completion"]["completionItem"]},
    },
}


def initialize_params(workspace: str, home: str) -> dict:
    return {
        "processId": os.getpid(),
        "clientInfo": {"name": "albedo-bench", "version": "0"},
        "rootUri": file_uri(workspace),
        "workspaceFolders": [{"uri": file_uri(workspace), "name": os.path.basename(workspace)}],
        "initializationOptions": {"albedoSkills": {"home": home}},
        "capabilities": CLIENT_CAPABILITIES,
    }


def server_env(home: str) -> dict[str, str]:
    return child_env(home)


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_ms(pid: int) -> float | None:
    """User + system CPU time a running process has used so far (all its threads), from /proc/PID/stat, in
    ms; the kernel counts it in clock ticks (10 ms at 100 Hz), fine enough for medians over many starts."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rpartition(")")[2].split()  # the command name may hold spaces
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) * 1000 / CLOCK_TICKS  # utime, stime: fields 14 and 15


def vm_rss_mib(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


OURS = [PYTHON, "-m", "albedo_skills_ls"]
MINIMAL = [PYTHON, os.path.join(HERE, "minimal_server.py")]


@dataclass
class ServerResults:
    init_ours: list[float] = field(default_factory=list)
    init_minimal: list[float] = field(default_factory=list)
    init_cpu_ours: list[float] = field(default_factory=list)  # CPU the process used up to its `initialize` result
    init_cpu_minimal: list[float] = field(default_factory=list)
    to_last_diagnostics: list[float] = field(default_factory=list)
    to_catalog_changed: list[float] = field(default_factory=list)
    published: int = 0
    catalog_note: dict = field(default_factory=dict)
    rss: list[float] = field(default_factory=list)
    did_change: list[float] = field(default_factory=list)
    completion: list[float] | None = None
    completion_note: str = ""
    capabilities: dict = field(default_factory=dict)


async def one_start(argv: list[str], tree: generate.Tree, results: ServerResults, ours: bool) -> None:
    client = await RpcClient.spawn(argv, tree.workspace, server_env(tree.home))
    try:
        received, result = await client.request("initialize", initialize_params(tree.workspace, tree.home))
        elapsed = (received - client.started) * 1000
        used = cpu_ms(client.proc.pid)
        if used is not None:
            (results.init_cpu_ours if ours else results.init_cpu_minimal).append(used)
        if not ours:
            results.init_minimal.append(elapsed)
            client.notify("initialized", {})
            return
        results.init_ours.append(elapsed)
        results.capabilities = result.get("capabilities", {}) if isinstance(result, dict) else {}
        changed = client.expect(lambda m: m.get("method") == "albedoSkills/catalogChanged")
        sent = time.perf_counter()
        client.notify("initialized", {})
        done_at, note = await asyncio.wait_for(changed, 60)
        diagnostics = [t for t, m in client.notes if m.get("method") == "textDocument/publishDiagnostics" and t <= done_at]
        results.to_catalog_changed.append((done_at - sent) * 1000)
        results.to_last_diagnostics.append(((max(diagnostics) if diagnostics else done_at) - sent) * 1000)
        results.published = len(diagnostics)
        results.catalog_note = note.get("params", {})
        rss = vm_rss_mib(client.proc.pid)
        if rss is not None:
            results.rss.append(rss)
    finally:
        await client.close()


def completion_provider(capabilities: dict) -> bool:
    return bool(capabilities.get("completionProvider"))


async def live_session(tree: generate.Tree, results: ServerResults, changes: int, completions: int) -> None:
    """One long-lived server: didChange -> publishDiagnostics, then the chat-buffer completion round trip."""
    client = await RpcClient.spawn(OURS, tree.workspace, server_env(tree.home))
    try:
        _, init = await client.request("initialize", initialize_params(tree.workspace, tree.home))
        capabilities = init.get("capabilities", {}) if isinstance(init, dict) else {}
        ready = client.expect(lambda m: m.get("method") == "albedoSkills/catalogChanged")
        client.notify("initialized", {})
        await asyncio.wait_for(ready, 60)

        path = tree.workspace_skills[0]
        uri = file_uri(path)
        with open(path, encoding="utf-8") as handle:
            original = handle.read()
        variant = original.replace("\n", '\nversion: "1.2.0"\n', 1)  # adds an information diagnostic
        opened = client.expect(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "skill", "version": 1, "text": original}})
        await asyncio.wait_for(opened, 30)
        version = 1
        for index in range(changes + 2):
            version += 1
            expected = version
            published = client.expect(
                lambda m, v=expected: m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri
                and m["params"].get("version") == v
            )
            sent = time.perf_counter()
            client.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version},
                 "contentChanges": [{"text": variant if index % 2 == 0 else original}]},
            )
            assert client.proc.stdin is not None
            await client.proc.stdin.drain()
            received, _ = await asyncio.wait_for(published, 30)
            if index >= 2:  # two warm-ups
                results.did_change.append((received - sent) * 1000)

        if not completion_provider(capabilities):
            results.completion_note = "n/a (no completion yet)"
            return
        chat = os.path.join(tree.workspace, "x.chat.md")
        chat_uri = file_uri(chat)
        client.notify("textDocument/didOpen", {"textDocument": {"uri": chat_uri, "languageId": "markdown", "version": 1, "text": "/"}})
        params = {"textDocument": {"uri": chat_uri}, "position": {"line": 0, "character": 1},
                  "context": {"triggerKind": 2, "triggerCharacter": "/"}}
        samples, items = [], 0
        for index in range(completions + 10):
            sent = time.perf_counter()
            received, result = await client.request("textDocument/completion", params)
            if index >= 10:
                samples.append((received - sent) * 1000)
            found = result.get("items", []) if isinstance(result, dict) else (result or [])
            items = len(found)
        results.completion = samples
        results.completion_note = f"{items} items"
    finally:
        await client.close()


async def server_benchmarks(tree: generate.Tree, starts: int, changes: int, completions: int) -> ServerResults:
    results = ServerResults()
    for index in range(starts + 1):  # the first pair warms the page cache and .pyc files
        target = ServerResults() if index == 0 else results
        # alternate which goes first so drift on the machine hits both alike
        order = [(OURS, True), (MINIMAL, False)] if index % 2 else [(MINIMAL, False), (OURS, True)]
        for argv, ours in order:
            await one_start(argv, tree, target, ours)
    await live_session(tree, results, changes, completions)
    return results


# --- the engine, in this process -------------------------------------------------------------------------


def completion_items_of(result: Any) -> list:
    """The items of a completion answer: a bare list or a `CompletionList`."""
    return list(result.items if hasattr(result, "items") else result or [])


def completion_builder(tree: generate.Tree, capabilities: dict = CLIENT_CAPABILITIES) -> tuple[list[tuple[str, Callable[[], Any]]], str]:
    """The server's completion path for a chat buffer holding `/`, in process, if lsp/completion.py exists.

    Builds a real server with `create_server()`, runs pygls's own `initialize` handling (which calls ours)
    with `capabilities`, discovers the 128-skill tree and opens `x.chat.md`; returns timed callables for the
    item-building function (`chat.completion_items`) and for the whole registered `textDocument/completion`
    handler.
    """
    if not os.path.exists(os.path.join(REPO, "albedo_skills_ls", "lsp", "completion.py")):
        return [], "n/a (no completion yet)"
    try:
        from lsprotocol import types

        from albedo_skills_ls.lsp.app import create_server

        server = create_server()
        server.protocol.writer = None  # nothing is sent: no client here
        params = types.InitializeParams(
            capabilities=server.protocol._converter.structure(capabilities, types.ClientCapabilities),
            root_uri=file_uri(tree.workspace),
            workspace_folders=[types.WorkspaceFolder(uri=file_uri(tree.workspace), name="ws")],
            initialization_options={"albedoSkills": {"home": tree.home}},
        )
        steps = server.protocol.lsp_initialize(params)
        handler, args, _ = next(steps)
        handler(*args)
        try:
            steps.send(None)
        except StopIteration:
            pass
        server.rebuild_sessions()
        for session in server.sessions:
            session.reload()
        server.ready.set()
        uri = file_uri(os.path.join(tree.workspace, "x.chat.md"))
        # `/` on two lines: completing at the second gives another edit range, so the item list is rebuilt
        server.workspace.put_text_document(types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text="/\n/"))
        position = types.Position(line=0, character=1)
        complete = server.protocol.fm.features[types.TEXT_DOCUMENT_COMPLETION]
        request = types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
        items = completion_items_of(complete(request))
        if len(items) < 128:
            return [], f"n/a (the handler returned {len(items or [])} items)"
        timed: list[tuple[str, Callable[[], Any]]] = []
        try:
            from albedo_skills_ls.lsp import chat
            from albedo_skills_ls.lsp.documents import open_document

            document = open_document(server, uri)
            if len(completion_items_of(chat.completion_items(server, document, position))) == len(items):
                timed.append(("`lsp.chat.completion_items` (the item list)", lambda: chat.completion_items(server, document, position)))
                places = [position, types.Position(line=1, character=1)]

                def elsewhere_each_time() -> Any:
                    places.reverse()
                    return chat.completion_items(server, document, places[0])

                timed.append(("`lsp.chat.completion_items`, each time at another place (new edit range)", elsewhere_each_time))
        except Exception as exc:  # the module moved: the handler row still stands
            log(f"chat.completion_items not timed: {exc!r}")
        timed.append(("the registered `textDocument/completion` handler", lambda: complete(request)))
        return timed, f"{len(items)} items"
    except Exception as exc:
        return [], f"n/a ({exc.__class__.__name__}: {exc})"[:160]


def engine_benchmarks(trees: dict[int, generate.Tree], big: generate.BigTree, scale: float) -> list[Row]:
    from albedo_skills_ls.skills.activation import command_catalog
    from albedo_skills_ls.skills.catalog import SkillsSession, check_buffer
    from albedo_skills_ls.skills.resources import EncodingVerdicts, list_resources, read_resource

    def n(count: int) -> int:
        return max(5, int(count * scale))

    rows: list[Row] = []
    group = "engine"
    for size, tree in sorted(trees.items()):
        log(f"engine: cold discovery of {size}")
        samples = bench(lambda: SkillsSession(tree.workspace, tree.home).reload(), n(120 if size < 128 else 80), 5)
        row = Row(group, f"cold discovery, {size} skills (new session + `reload()`)", samples)
        rows.append(goal_ms(row, 20) if size == 128 else row)

    tree = trees[128]
    session = SkillsSession(tree.workspace, tree.home)
    session.reload()
    log("engine: reload")
    rows.append(goal_ms(Row(group, "`SkillsSession.reload()`, nothing changed (128)", bench(session.reload, n(400), 20)), 2))

    target = tree.workspace_skills[len(tree.workspace_skills) // 2]
    with open(target, "rb") as handle:
        original = handle.read()
    changed = original.replace(b"\nlicense:", b"\nlicense: MIT OR", 1) if b"\nlicense:" in original else original + b"\n"
    counter = [0]
    base_ns = time.time_ns()

    def touch_one() -> None:
        counter[0] += 1
        with open(target, "wb") as handle:
            handle.write(changed if counter[0] % 2 else original)
        stamp = base_ns + counter[0] * 1_000_000
        os.utime(target, ns=(stamp, stamp))

    try:
        samples = bench(session.reload, n(300), 10, setup=touch_one)
    finally:
        with open(target, "wb") as handle:
            handle.write(original)
    rows.append(goal_ms(Row(group, "`SkillsSession.reload()`, one file changed (128)", samples), 5))

    catalog = session.snapshot
    typical = tree.workspace_skills[0]
    with open(typical, encoding="utf-8") as handle:
        text = handle.read()
    fm_bytes = len(text.split("\n---\n", 1)[0].encode()) - 4
    log("engine: check_buffer")
    rows.append(goal_ms(Row(group, f"`check_buffer`, typical SKILL.md ({fm_bytes:,} B frontmatter, {text.count(chr(10))} lines)",
                            bench(lambda: check_buffer(catalog, typical, text), n(1000), 50)), 2))

    big_session = SkillsSession(big.workspace, big.home)
    big_catalog = big_session.snapshot
    with open(big.wide_frontmatter, encoding="utf-8") as handle:
        wide = handle.read()
    wide_bytes = len(wide.split("\n---\n", 1)[0].encode()) - 4
    rows.append(goal_ms(Row(group, f"`check_buffer`, {wide_bytes:,} B frontmatter (64 KiB bound)",
                            bench(lambda: check_buffer(big_catalog, big.wide_frontmatter, wide), n(60), 3)), 50))

    log("engine: completion")
    entries = command_catalog(catalog)
    rows.append(goal_ms(Row(group, f"`activation.command_catalog`, 128 skills ({len(entries)} entries)",
                            bench(lambda: command_catalog(catalog), n(2000), 100)), 1))
    # a client that takes `itemDefaults.editRange` (VS Code, Neovim 0.10+), then one that needs a textEdit
    # on each item (Neovim 0.7, eglot 1.9): docs/performance.md explains the two
    for client, capabilities in (("", CLIENT_CAPABILITIES), (", no itemDefaults", PER_ITEM_EDIT_CAPABILITIES)):
        timed, note = completion_builder(tree, capabilities)
        if not timed:
            rows.append(Row(group, f"completion item list{client} (lsp/completion.py)", value=note, goal="≤ 1 ms"))
        for label, fn in timed:
            rows.append(goal_ms(Row(group, f"completion in a chat buffer, 128 skills{client}: {label}",
                                    bench(fn, n(1000), 50), note=note), 0.5, 1))

    log("engine: resources")
    deep_name = "deep-resources"
    big_root = os.path.dirname(big.deep_resources)  # the skills root both big skills were discovered in
    page = read_resource(deep_name, big.deep_resources, "references/page-64k.md", 0, 65536, discovery_root=big_root)
    rows.append(Row(group, f"`read_resource`, one 64 KiB page of a {page['size']:,} B file",
                    bench(lambda: read_resource(deep_name, big.deep_resources, "references/page-64k.md", 0, 65536, discovery_root=big_root), n(500), 20)))
    manual = read_resource(deep_name, big.deep_resources, "references/manual-4m.md", 0, 65536, discovery_root=big_root)
    rows.append(Row(group, f"`read_resource`, one 64 KiB page of a {manual['size'] / 2**20:.0f} MiB file",
                    bench(lambda: read_resource(deep_name, big.deep_resources, "references/manual-4m.md", 0, 65536, discovery_root=big_root), n(100), 5),
                    note="no session (the command line's case): the encoding is decided anew, reading the whole file"))
    verdicts = EncodingVerdicts()  # the server's session keeps one: later pages of the same file cost the page
    rows.append(Row(group, f"`read_resource`, a later 64 KiB page of the {manual['size'] / 2**20:.0f} MiB file, in a session",
                    bench(lambda: read_resource(deep_name, big.deep_resources, "references/manual-4m.md", 65536, 65536,
                                                discovery_root=big_root, verdicts=verdicts), n(500), 20),
                    note="encoding verdict remembered per file identity"))
    listed = list_resources(deep_name, big.deep_resources, discovery_root=big_root)
    entries_count, files_count = generate.count_entries(big.deep_resources)
    rows.append(Row(group, f"`list_resources`, {entries_count:,} entries ({files_count} files, "
                           f"{len(listed['resources'])} listed, truncated={listed['truncated']})",
                    bench(lambda: list_resources(deep_name, big.deep_resources, discovery_root=big_root), n(100), 5)))
    many = list_resources("many-files", big.many_files, discovery_root=big_root)
    rows.append(Row(group, f"`list_resources`, 2,048 files (stops at {len(many['resources'])}, truncated={many['truncated']})",
                    bench(lambda: list_resources("many-files", big.many_files, discovery_root=big_root), n(100), 5)))
    return rows


# --- start-up imports ------------------------------------------------------------------------------------


def import_profile(argv: list[str], top: int = 10) -> tuple[list[tuple[int, str]], set[str]]:
    """`python -X importtime` of a command: the costliest imports (cumulative µs, once per name) and all
    modules imported."""
    done = subprocess.run([PYTHON, "-X", "importtime", *argv], capture_output=True, text=True, env=child_env())
    best: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _self, cumulative, name = (part for part in line[len("import time:"):].split("|"))
        name = name.strip()
        best[name] = max(best.get(name, 0), int(cumulative))
    costs = sorted(((micros, name) for name, micros in best.items()), reverse=True)
    return costs[:top], set(best)


# --- the report ------------------------------------------------------------------------------------------


def ratio_row(group: str, name: str, ours: Row, theirs: Row, limit: float | None, note: str = "") -> Row:
    """The ratio of the medians, judged against `limit` (None: context, no goal)."""
    goal = "—" if limit is None else f"≤ {limit:g}×"
    if ours.median is None or theirs.median is None:
        return Row(group, name, value="n/a", goal=goal, note=note)
    ratio = ours.median / theirs.median
    return Row(group, name, value=f"{ratio:.2f}×", goal=goal, met=None if limit is None else ratio <= limit, note=note)


def minima_ratio(ours: Row, theirs: Row) -> str:
    """The ratio of the minima, as a note: on a shared machine the minimum is the steadiest figure."""
    if not ours.samples or not theirs.samples:
        return ""
    return f"ratio of the minima {min(ours.samples) / min(theirs.samples):.2f}×"


def paired_ratios(ours: Row, theirs: Row) -> str:
    """The ratio of the medians, the median of the round-by-round ratios and the ratio of the minima, as a
    note: the samples must come in rounds (the i-th of each taken in the same round), so each round's ratio
    compares two runs made moments apart, under the same load."""
    if not ours.samples or not theirs.samples or len(ours.samples) != len(theirs.samples):
        return minima_ratio(ours, theirs)
    per_round = statistics.median(a / b for a, b in zip(ours.samples, theirs.samples))
    return f"median of the per-round ratios {per_round:.2f}×; {minima_ratio(ours, theirs)}"


def table(rows: list[Row]) -> str:
    head = ["group", "measurement", "median", "p95", "min", "runs", "goal", "met?", "note"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row.cells()) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmarks against the limits and against other tools.")
    parser.add_argument("--quick", action="store_true", help="a smoke check with few runs")
    parser.add_argument("--no-tools", action="store_true", help="skip skills-ref and agnix")
    args = parser.parse_args(argv)
    quick = args.quick
    scale = 0.1 if quick else 1.0
    wall = time.perf_counter()

    try:
        from albedo_skills_ls.lsp.server import LIVE_DEBOUNCE_SECONDS
    except Exception:  # pragma: no cover - the constant moved: fall back to the documented 0.1 s
        LIVE_DEBOUNCE_SECONDS = 0.1
    debounce_ms = LIVE_DEBOUNCE_SECONDS * 1000

    log("generating trees")
    os.makedirs(TREES, exist_ok=True)
    trees = {size: generate.generate_tree(os.path.join(TREES, f"t{size}"), size) for size in (8, 32, 128)}
    big = generate.generate_big(os.path.join(TREES, "big"))
    tree = trees[128]

    rows = engine_benchmarks(trees, big, scale)

    log("server over stdio")
    starts = 4 if quick else 30
    server = asyncio.run(server_benchmarks(tree, starts, 8 if quick else 40, 20 if quick else 300))
    group = "server"
    ours_init = Row(group, "process start → `initialize` result: `python -m albedo_skills_ls`", server.init_ours)
    minimal_init = Row(group, "process start → `initialize` result: benchmarks/minimal_server.py", server.init_minimal)
    ours_cpu = Row(group, "CPU (user + system) up to the `initialize` result: ours", server.init_cpu_ours,
                   note=f"/proc/PID/stat, {1000 / CLOCK_TICKS:g} ms ticks")
    minimal_cpu = Row(group, "CPU (user + system) up to the `initialize` result: minimal pygls", server.init_cpu_minimal)
    rows += [ours_init, minimal_init,
             ratio_row(group, "start → `initialize`, ours / minimal pygls", ours_init, minimal_init, 1.05,
                       note=paired_ratios(ours_init, minimal_init)),
             ours_cpu, minimal_cpu,
             ratio_row(group, "start → `initialize` CPU, ours / minimal pygls", ours_cpu, minimal_cpu, None,
                       note=paired_ratios(ours_cpu, minimal_cpu))]
    rows.append(Row(group, f"`initialized` → last `publishDiagnostics` (128 skills, {server.published} files published)",
                    server.to_last_diagnostics))
    rows.append(Row(group, "`initialized` → `albedoSkills/catalogChanged` (128 skills)", server.to_catalog_changed,
                    note=f"{server.catalog_note.get('skills')} skills, {server.catalog_note.get('diagnostics')} diagnostics"))
    rows.append(Row(group, f"`didChange` → `publishDiagnostics` (typical SKILL.md, incl. {debounce_ms:g} ms debounce)",
                    server.did_change))
    if server.did_change:
        net = [value - debounce_ms for value in server.did_change]
        rows.append(Row(group, f"`didChange` → `publishDiagnostics` minus the {debounce_ms:g} ms debounce "
                               "(`LIVE_DEBOUNCE_SECONDS`)", net))
    if server.completion is None:
        rows.append(Row(group, "completion round trip (`x.chat.md`, text `/`)", value=server.completion_note or "n/a (no completion yet)",
                        goal="≤ 5 ms"))
    else:
        rows.append(goal_ms(Row(group, "completion round trip (`x.chat.md`, text `/`)", server.completion,
                                note=server.completion_note), 5))
    rss_row = Row(group, "resident memory (VmRSS) after `initialized`, 128 skills",
                  value=f"{statistics.median(server.rss):.1f} MiB" if server.rss else "n/a", goal="≤ 60 MiB")
    if server.rss:
        rss_row.met = statistics.median(server.rss) <= 60
        rss_row.note = f"{statistics.median(server.rss) * 1.048576:.1f} MB; max {max(server.rss):.1f} MiB over {len(server.rss)} starts"
    rows.append(rss_row)

    # whole processes
    log("whole processes")
    group = "process"
    proc_runs, proc_warmup, rounds = (6, 1, 2) if quick else (30, 3, 5)
    skill_dirs = [os.path.dirname(path) for path in tree.workspace_skills + tree.home_skills]
    env = child_env()
    ours_argv = [ALBEDO_CHECK, "check", tree.workspace, "--home", tree.home]
    commands: list[str] = [f"ours: `{shlex.join(ours_argv)}`"]
    measured: dict[str, tuple[list[str], dict[str, str]]] = {
        "pass": ([PYTHON, "-c", "pass"], env),
        "ours": (ours_argv, env),
        "ours-nopyc": (ours_argv, child_env(bytecode=False)),
    }
    installed_problem = ensure_installed_ours()
    if installed_problem is None:
        installed_argv = [os.path.join(OURS_VENV, "bin", "albedo-skills"), *ours_argv[1:]]
        measured["installed"] = (installed_argv, env)
        commands.append(f"ours, installed: `{shlex.join(installed_argv)}`")
    else:
        log(installed_problem)
    tools_problem = None if not args.no_tools else "skipped (--no-tools)"
    if tools_problem is None:
        tools_problem = ensure_tools()
    code = ("import sys\nfrom pathlib import Path\nfrom skills_ref import validate\n"
            "problems = [validate(Path(d)) for d in sys.argv[1:]]\nsys.exit(1 if any(problems) else 0)")
    if tools_problem is None:
        agnix_argv = [tools_bin("agnix"), tree.workspace, tree.home]
        measured["agnix"] = (agnix_argv, env)
        measured["api"] = ([tools_bin("python"), "-c", code, *skill_dirs], env)
        commands += [
            f"agnix: `{shlex.join(agnix_argv)}`",
            f"skills-ref API: `{shlex.join([tools_bin('python'), '-c', code.replace(chr(10), '; ')])} DIR1 … DIR128`",
            f"skills-ref CLI: `for d in DIR1 … DIR128; do {tools_bin('agentskills')} validate \"$d\"; done`",
        ]
    timings, cpu_times = measure_processes(measured, proc_runs, proc_warmup, rounds)
    editable = Row(group, "`albedo-skills check WS --home HOME` (128 skills), editable install", timings["ours"])
    ours = editable
    rows += [
        Row(group, "`python -c pass` (same interpreter; context)", timings["pass"]),
        editable,
        Row(group, "`albedo-skills check`, no bytecode cache (PYTHONDONTWRITEBYTECODE=1; context)", timings["ours-nopyc"],
            note="editable install: the project's modules compile at every start"),
    ]
    if "installed" in timings:
        # the ratios compare what users run: a regular install, with no editable import hook
        ours = Row(group, "`albedo-skills check WS --home HOME` (128 skills), regular install (`pip install .`)",
                   timings["installed"])
        rows.append(ours)
    if tools_problem is None:
        agnix = Row(group, "`agnix WS HOME` (128 skills)", timings["agnix"])
        api = Row(group, "skills-ref API: `python -c` import + `validate()` × 128", timings["api"])
        loop_runs = 1 if quick else 3
        cli_argvs = [[tools_bin("agentskills"), "validate", folder] for folder in skill_dirs]
        log(f"skills-ref CLI: 128 processes × {loop_runs}")
        cli = Row(group, "skills-ref CLI: `agentskills validate DIR`, 128 processes in a loop",
                  measure_loop(cli_argvs, loop_runs, env), note="it takes one SKILL_PATH per invocation")
        rows += [agnix, api, cli]
        rows.append(ratio_row(group, "`albedo-skills check` / agnix, wall", ours, agnix, 0.5))
        api_ratio = ratio_row(group, "`albedo-skills check` / skills-ref API, wall", ours, api, 0.25)
        if api.median:
            api_ratio.note = f"goal ≈ {0.25 * api.median:.0f} ms here"
        rows.append(api_ratio)
        ours_key = "installed" if "installed" in cpu_times else "ours"
        cpu_rows = {key: Row(group, f"CPU (user + system) of {label}", cpu_times[key])
                    for key, label in ((ours_key, "`albedo-skills check`"), ("agnix", "agnix"), ("api", "the skills-ref API run"))}
        rows += list(cpu_rows.values())
        rows.append(ratio_row(group, "`albedo-skills check` / agnix, CPU", cpu_rows[ours_key], cpu_rows["agnix"], 0.5))
        rows.append(ratio_row(group, "`albedo-skills check` / skills-ref API, CPU", cpu_rows[ours_key], cpu_rows["api"], 0.25))
        rows.append(ratio_row(group, "`albedo-skills check` / skills-ref CLI loop", ours, cli, None, note="context"))
    else:
        rows.append(Row(group, "agnix / skills-ref", value="n/a", note=tools_problem.splitlines()[-1][:120]))

    # the command line must stay free of LSP imports
    top, modules = import_profile([ALBEDO_CHECK, "check", tree.workspace, "--home", tree.home])
    lsp_leak = sorted(name for name in modules if name.split(".")[0] in ("pygls", "lsprotocol", "cattrs", "attrs"))
    rows.append(Row("process", "`albedo-skills check` imports pygls/lsprotocol?", value="yes" if lsp_leak else "no",
                    goal="no", met=not lsp_leak, note=", ".join(lsp_leak[:5])))

    # --- print
    hyperfine = shutil.which("hyperfine")
    lines = [
        f"## Benchmarks ({'quick' if quick else 'full'} run, {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z})",
        "",
        f"- machine: {cpu_model()}, {os.cpu_count()} logical cores, {platform.system()} {platform.release()}",
        f"- Python {platform.python_version()} ({platform.python_implementation()}), pygls {version_of('pygls')}, "
        f"lsprotocol {version_of('lsprotocol')}, ruamel.yaml {version_of('ruamel.yaml')}, "
        f"ruamel.yaml.clibz {version_of('ruamel.yaml.clibz')}, albedo-skills-ls {version_of('albedo-skills-ls')}",
    ]
    if tools_problem is None:
        tool_versions = tool_output([tools_bin("python"), "-c",
                                     "import importlib.metadata as m; print('skills-ref', m.version('skills-ref'), '/ agnix', m.version('agnix'))"])
        lines.append(f"- other tools: {tool_versions} (`{tool_output([tools_bin('agnix'), '--version'])}`, "
                     f"`agentskills --version`: {tool_output([tools_bin('agentskills'), '--version'])}), in {os.path.relpath(TOOLS_VENV, REPO)}")
    lines += [
        "- timing: engine rows `time.perf_counter` loops after warm-ups; server rows a raw JSON-RPC client "
        "(receive time of the message); process rows "
        + (f"`{tool_output([hyperfine, '--version'])} -N`" if hyperfine else "a `subprocess.run` perf_counter loop")
        + " in interleaved rounds; every measured Python process runs with a warm bytecode cache "
        f"(PYTHONPYCACHEPREFIX={os.path.relpath(PYCACHE, REPO)}, PYTHONDONTWRITEBYTECODE unset) unless a row says not",
        f"- trees from benchmarks/generate.py (seeded) in {os.path.relpath(TREES, REPO)}; "
        f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())} (other work on the machine inflates "
        "process and server rows; engine rows are steadier)",
        "",
        table(rows),
        "",
        "Commands (WS = " + os.path.relpath(tree.workspace, REPO) + ", HOME = " + os.path.relpath(tree.home, REPO) + "):",
        "",
        *[f"- {command}" for command in commands],
        "",
        "Slowest imports of `albedo-skills check` (`python -X importtime`, cumulative):",
        "",
        *[f"- {name}: {micros / 1000:.1f} ms" for micros, name in top],
        "",
        f"_total benchmark time {time.perf_counter() - wall:.0f} s_",
    ]
    report = "\n".join(lines)
    print(report)
    with open(os.path.join(WORK, "last-run.md"), "w", encoding="utf-8") as handle:
        handle.write(report + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
