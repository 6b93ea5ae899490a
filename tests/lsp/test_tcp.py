"""`--tcp HOST:PORT` serves the same protocol on a loopback socket (for debugging with a client that connects)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


async def read_message(reader: asyncio.StreamReader) -> dict:
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(await reader.readexactly(length))


async def test_tcp_serves_initialize_and_shuts_down(tmp_path):
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "albedo_skills_ls", "--tcp", "127.0.0.1:0", "-v",
        stderr=asyncio.subprocess.PIPE, env=dict(os.environ, HOME=str(tmp_path)),
    )
    port = None
    while port is None:
        line = (await server.stderr.readline()).decode()
        assert line, "the server exited before listening"
        if found := re.search(r"Serving on \('127\.0\.0\.1', (\d+)\)", line):
            port = int(found.group(1))
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
    response = await read_message(reader)
    assert response["id"] == 1 and response["result"]["serverInfo"]["name"] == "albedo-skills-ls"
    assert "skills.read" in response["result"]["capabilities"]["executeCommandProvider"]["commands"]
    writer.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    assert (await read_message(reader))["id"] == 2
    writer.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    await writer.drain()
    writer.close()
    assert await server.wait() == 0


async def test_a_malformed_tcp_address_is_a_usage_error():
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "albedo_skills_ls", "--tcp", "no-port", stderr=asyncio.subprocess.PIPE
    )
    _, err = await process.communicate()
    assert process.returncode == 2 and b"HOST:PORT" in err
