"""A refused `workspace/executeCommand` is normal chat traffic: one information line, never a traceback.

A person who types `@albedo /nosuch` in VS Code's chat makes the extension send `commands.invoke` for a
command that names no skill; the server answers RequestFailed (-32803), the chat says what there is. The log
gets one line at information level naming the command and the reason, sent as `window/logMessage` (what the
client's output channel shows) and, at `-v`, on stderr, which VS Code's client also copies into that channel:
nothing at error level there, no Python traceback. The server runs here as a real process over stdio, so the
records go through the logging set up by `main()`.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest
from pygls.exceptions import JsonRpcInvalidParams

from albedo_skills_ls.lsp.commands import InvalidArgumentsError, RequestFailed, RouteRefusalsLogged

from .harness import valid, write_skill

EXIT_TIMEOUT_S = 60
INFO = 3  # lsprotocol MessageType.Info


def frame(message: dict) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def read_frame(stream: IO[bytes]) -> dict[str, Any]:
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise EOFError("the server closed stdout")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    assert length is not None
    return json.loads(stream.read(length))


def session(tmp_path: Path, requests: list[dict], *flags: str) -> tuple[list[dict], str]:
    """initialize (logLevel info, as VS Code's default), each request answered in turn, shutdown, exit: every
    message the server wrote, and its stderr."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_skill(ws / ".agents/skills", "demo", valid("demo"))
    home.mkdir()
    options = {"albedoSkills": {"home": str(home), "logLevel": "info"}}
    process = subprocess.Popen(
        [sys.executable, "-m", "albedo_skills_ls", *flags],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
    )
    assert process.stdin is not None and process.stdout is not None
    seen: list[dict] = []

    def call(message: dict) -> dict:
        process.stdin.write(frame(message))  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]
        while True:
            answer = read_frame(process.stdout)  # type: ignore[arg-type]
            seen.append(answer)
            if answer.get("id") == message["id"] and "method" not in answer:
                return answer

    try:
        call({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": ws.as_uri(), "capabilities": {}, "initializationOptions": options}})
        process.stdin.write(frame({"method": "initialized", "params": {}}))
        for index, request in enumerate(requests):
            call({"id": 10 + index, **request})
        call({"id": 2, "method": "shutdown"})
        process.stdin.write(frame({"method": "exit"}))
        process.stdin.flush()
        _, stderr = process.communicate(timeout=EXIT_TIMEOUT_S)
    finally:
        process.kill()
    return seen, stderr.decode("utf-8", "replace")


def invoke(command: str) -> dict:
    return {"method": "workspace/executeCommand", "params": {"command": "commands.invoke", "arguments": [command, "", "user"]}}


def logged(messages: list[dict], text: str) -> list[dict]:
    return [m["params"] for m in messages if m.get("method") == "window/logMessage" and text in m["params"]["message"]]


@pytest.mark.parametrize("flags", [(), ("-v",)])
def test_an_unknown_command_is_one_information_line(tmp_path, flags):
    messages, stderr = session(tmp_path, [invoke("/nosuch")], *flags)
    answer = next(m for m in messages if m.get("id") == 10 and "method" not in m)
    assert answer["error"]["code"] == -32803
    assert "unknown command `/nosuch`" in answer["error"]["message"]

    lines = logged(messages, "/nosuch")
    assert [line["type"] for line in lines] == [INFO], lines
    assert lines[0]["message"].startswith("commands.invoke refused: unknown command `/nosuch`"), lines

    assert "Traceback" not in stderr and "ERROR" not in stderr, stderr
    on_stderr = [line for line in stderr.splitlines() if "/nosuch" in line]
    if flags:
        assert len(on_stderr) == 1 and " INFO albedo_skills_ls: commands.invoke refused: " in on_stderr[0], stderr
    else:
        assert on_stderr == [], stderr  # stderr keeps its own verbosity: warnings and up without -v


def test_bad_arguments_are_one_information_line_too(tmp_path):
    request = {"method": "workspace/executeCommand", "params": {"command": "commands.invoke", "arguments": [7]}}
    messages, stderr = session(tmp_path, [request], "-v")
    answer = next(m for m in messages if m.get("id") == 10 and "method" not in m)
    assert answer["error"]["code"] == -32602
    lines = [m["params"] for m in messages if m.get("method") == "window/logMessage" and "commands.invoke" in m["params"]["message"]]
    assert [line["type"] for line in lines] == [INFO], lines
    assert "Traceback" not in stderr and "ERROR" not in stderr, stderr


def test_only_the_routes_refusals_are_quiet():
    """pygls's record of any other failed request (a server bug) keeps its traceback at error level."""
    quiet = RouteRefusalsLogged()

    def record(error: BaseException) -> logging.LogRecord:
        try:
            raise error
        except BaseException:
            return logging.LogRecord("pygls.protocol.json_rpc", logging.ERROR, __file__, 1, 'Exception occurred for message "%s"', ("5",), sys.exc_info())

    assert not quiet.filter(record(RequestFailed("no skill named `/x`")))
    assert not quiet.filter(record(InvalidArgumentsError("expected arguments [command]")))
    bug = record(KeyError("a server bug"))
    assert quiet.filter(bug) and bug.levelno == logging.ERROR and bug.exc_info is not None
    assert quiet.filter(record(JsonRpcInvalidParams("pygls's own")))
