"""A raw JSON-RPC client over a real server subprocess's stdio: frames written byte for byte, so tests can
also write what no well-behaved client would (bad headers, garbage between frames, lone surrogates)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from .guard import HANG_GUARD_SECONDS

SERVER = [sys.executable, "-m", "albedo_skills_ls"]


def frame(message: dict[str, Any] | bytes) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RawServer:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 0
        self.notes: list[dict[str, Any]] = []  # the server's notifications read so far, in order

    @classmethod
    async def start(cls, home: str, *extra: str, prefix: tuple[str, ...] = ()) -> RawServer:
        """`prefix` runs the server under another command (`setpriv` to an unprivileged user)."""
        process = await asyncio.create_subprocess_exec(
            *prefix, *SERVER, *extra, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=dict(os.environ, HOME=home), cwd=home,
        )
        return cls(process)

    async def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        await self.process.stdin.drain()

    async def send(self, method: str, params: Any = None, *, request: bool = True) -> int | None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if params is None:
            del message["params"]
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        await self.write(frame(message))
        return self.next_id if request else None

    async def read(self) -> dict[str, Any]:
        stream = self.process.stdout
        assert stream is not None
        length = None
        while True:
            line = await asyncio.wait_for(stream.readline(), HANG_GUARD_SECONDS)
            assert line, "the server closed its output"
            if line == b"\r\n":
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        assert length is not None
        return json.loads(await asyncio.wait_for(stream.readexactly(length), HANG_GUARD_SECONDS))

    async def response(self, msg_id: int) -> dict[str, Any]:
        """The response to `msg_id`; the server's own requests are answered (empty configuration) meanwhile."""
        while True:
            message = await self.read()
            if "method" in message and "id" in message:
                result: Any = None
                if message["method"] == "workspace/configuration":
                    result = [{} for _ in message["params"]["items"]]
                await self.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": result}))
            elif message.get("id") == msg_id and "method" not in message:
                return message
            elif "method" in message:
                self.notes.append(message)

    async def notification(self, method: str, predicate: Any = lambda params: True) -> dict[str, Any]:
        """The first notification `method` whose params satisfy `predicate`, read so far or next."""
        seen = 0
        while True:
            for note in self.notes[seen:]:
                if note["method"] == method and predicate(note["params"]):
                    return note
            seen = len(self.notes)
            message = await self.read()
            if "method" in message and "id" not in message:
                self.notes.append(message)

    async def request(self, method: str, params: Any = None) -> dict[str, Any]:
        msg_id = await self.send(method, params)
        assert msg_id is not None
        return await self.response(msg_id)

    async def initialize(self, workspace: str | None = None) -> None:
        params = {"processId": None, "rootUri": None, "capabilities": {}}
        if workspace:
            params["rootUri"] = "file://" + workspace
        assert "result" in await self.request("initialize", params)
        await self.send("initialized", {}, request=False)

    async def exit_code(self) -> int:
        return await asyncio.wait_for(self.process.wait(), HANG_GUARD_SECONDS)

    async def stderr(self) -> str:
        assert self.process.stderr is not None
        return (await asyncio.wait_for(self.process.stderr.read(), HANG_GUARD_SECONDS)).decode("utf-8", "replace")

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
