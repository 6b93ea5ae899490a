"""A raw JSON-RPC client over stdio (Content-Length framing over asyncio pipes, no pygls client in the
timing), the client's capabilities, and what /proc says of the server process."""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any, Callable

from common import HERE, PYTHON, child_env

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
