"""Logs hold sizes and names, never contents, at any level (docs/design.md#8-trust-boundaries): a real server at -vv writes
its log file while documents are opened and edited, resources read, and a malformed message fails."""

from __future__ import annotations

import pytest

from lsp.harness import valid, write_skill

from .rpc import RawServer

MARKER = "SECRET-CONTENT-7f3a"  # appears only inside file and buffer contents


@pytest.mark.parametrize("verbosity", [[], ["-v"], ["-vv"]])
async def test_the_log_file_never_holds_file_contents(tmp_path, verbosity):
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    skill = write_skill(ws / ".agents/skills", "demo", valid("demo"), f"# Demo\n\n{MARKER} in the body\n")
    (skill.parent / "notes.md").write_text(f"{MARKER} in a resource\n" * 50, encoding="utf-8")
    log_file = tmp_path / "server.log"
    server = await RawServer.start(str(home), "--log-file", str(log_file), *verbosity)
    try:
        await server.initialize(str(ws))
        uri = "file://" + str(skill)
        text = skill.read_text(encoding="utf-8")
        await server.send("textDocument/didOpen",
                          {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}},
                          request=False)
        await server.send("textDocument/didChange",
                          {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text + MARKER}]},
                          request=False)
        page = await server.request("workspace/executeCommand",
                                    {"command": "skills.read", "arguments": ["demo", "notes.md"]})
        assert MARKER in page["result"]["content"]
        invoked = await server.request("workspace/executeCommand",
                                       {"command": "commands.invoke", "arguments": ["/demo", MARKER, "user"]})
        assert MARKER in invoked["result"]["input"]
        # a notification whose parameters cannot be read: pygls logs the failure with its parameters
        await server.send("textDocument/didOpen", {"textDocument": {"uri": 42, "text": MARKER * 10}}, request=False)
        await server.request("shutdown")
        await server.send("exit", request=False)
        assert await server.exit_code() == 0
    finally:
        await server.kill()
    logged = log_file.read_text(encoding="utf-8", errors="replace")
    if verbosity == ["-vv"]:
        assert "sending a message of" in logged  # the log is written, with sizes
    assert MARKER not in logged
