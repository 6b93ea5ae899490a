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


async def read_message(reader: asyncio.StreamReader) -> dict | None:
    """The next message, or None when the server closed the connection."""
    length = None
    while (line := await reader.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    if length is None:
        return None
    return json.loads(await reader.readexactly(length))


INITIALIZE = {"processId": None, "rootUri": None, "capabilities": {}}


async def listening(tmp_path) -> tuple[asyncio.subprocess.Process, int]:
    """A server on `--tcp 127.0.0.1:0` and the port it chose (read from its log)."""
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "albedo_skills_ls", "--tcp", "127.0.0.1:0", "-v",
        stderr=asyncio.subprocess.PIPE, env=dict(os.environ, HOME=str(tmp_path)),
    )
    while True:
        line = (await server.stderr.readline()).decode()
        assert line, "the server exited before listening"
        if found := re.search(r"Serving on \('127\.0\.0\.1', (\d+)\)", line):
            return server, int(found.group(1))


async def log_line(server: asyncio.subprocess.Process, words: str) -> str:
    while True:
        line = (await server.stderr.readline()).decode()
        assert line, f"the server's log ended without {words!r}"
        if words in line:
            return line


async def shut_down(server, reader, writer, msg_id: int) -> None:
    writer.write(frame({"jsonrpc": "2.0", "id": msg_id, "method": "shutdown"}))
    # Notifications may come first (the log of a refused second connection is forwarded as
    # window/logMessage); the next answer must be this one's.
    while "method" in (message := await read_message(reader)) and "id" not in message:
        pass
    assert message["id"] == msg_id, message
    writer.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    await writer.drain()
    writer.close()
    assert await server.wait() == 0


async def test_tcp_serves_initialize_and_shuts_down(tmp_path):
    server, port = await listening(tmp_path)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
    response = await read_message(reader)
    assert response["id"] == 1 and response["result"]["serverInfo"]["name"] == "albedo-skills-ls"
    assert "skills.read" in response["result"]["capabilities"]["executeCommandProvider"]["commands"]
    await shut_down(server, reader, writer, 2)


async def test_a_second_tcp_client_is_refused_and_the_first_keeps_its_answers(tmp_path):
    """Two sockets at once: the second is told why and closed; the first is answered, and only it."""
    server, port = await listening(tmp_path)
    first_reader, first_writer = await asyncio.open_connection("127.0.0.1", port)
    first_writer.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INITIALIZE}))
    assert (await read_message(first_reader))["id"] == 1  # being served: the next connection is the second

    second_reader, second_writer = await asyncio.open_connection("127.0.0.1", port)
    second_port = second_writer.get_extra_info("sockname")[1]
    second_writer.write(frame({"jsonrpc": "2.0", "id": 101, "method": "initialize", "params": INITIALIZE}))
    refusal = await read_message(second_reader)
    assert refusal["method"] == "window/showMessage" and "serves one client at a time" in refusal["params"]["message"]
    assert await read_message(second_reader) is None  # then closed: no answer, and never one meant for the first
    logged = await log_line(server, "refused the connection")
    assert f"127.0.0.1:{second_port}" in logged and "serving 127.0.0.1:" in logged

    first_writer.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    first_writer.write(frame({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
                              "params": {"command": "commands.catalog", "arguments": []}}))
    while (message := await read_message(first_reader)) is not None and message.get("id") != 2:
        assert "id" not in message or "method" in message, f"an answer the first client did not ask for: {message}"
    assert message is not None and [entry["command"] for entry in message["result"]] == ["/help", "/model", "/reload"]
    await shut_down(server, first_reader, first_writer, 3)


async def test_two_tcp_clients_connecting_at_once_never_get_each_others_answers(tmp_path):
    """Both connect before either writes: one is served (the first accepted), the other refused."""
    server, port = await listening(tmp_path)
    clients = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
    for offset, (_reader, writer) in zip((0, 100), clients):
        writer.write(frame({"jsonrpc": "2.0", "id": offset + 1, "method": "initialize", "params": INITIALIZE}))
        await writer.drain()
    answers = []
    for offset, (reader, _writer) in zip((0, 100), clients):
        received = []
        while (message := await read_message(reader)) is not None:
            received.append(message)
            if message.get("id") == offset + 1:
                break
        ids = [message["id"] for message in received if "id" in message and "method" not in message]
        assert set(ids) <= {offset + 1}, f"client {offset // 100 + 1} got answers meant for another: {ids}"
        answers.append(ids)
    assert answers == [[1], []]  # connections are accepted in order: the first one is served
    reader, writer = clients[0]
    await shut_down(server, reader, writer, 2)


async def test_a_malformed_tcp_address_is_a_usage_error():
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "albedo_skills_ls", "--tcp", "no-port", stderr=asyncio.subprocess.PIPE
    )
    _, err = await process.communicate()
    assert process.returncode == 2 and b"HOST:PORT" in err
