"""Text that is not valid Unicode (docs/design.md#8-trust-boundaries), on the server's side.

Lone surrogates in arguments are refused as invalid (InvalidParams), never passed on raw; a skill folder
whose name is not UTF-8 is shown with an escape in what the server publishes, and the rest of the tree is
still read. Tests write JSON text with `\\ud800` escapes byte for byte, as a client could.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from albedo_skills_ls.skills.activation import commands as activation
from albedo_skills_ls.skills.resources import paging as resource_paging
from albedo_skills_ls.skills.catalog.discovery import discover
from albedo_skills_ls.skills.core.errors import InvalidArguments
from lsp.harness import valid, write_skill

from .rpc import RawServer

INVALID_PARAMS = -32602


def tree(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_skill(ws / ".agents/skills", "demo", valid("demo"), "# Demo\n")
    return ws


def test_engine_refuses_lone_surrogates_as_invalid_arguments(tmp_path):
    ws = tree(tmp_path)
    (tmp_path / "home").mkdir()
    catalog = discover(str(ws), str(tmp_path / "home"))
    skill = catalog.skill("demo")
    assert skill is not None
    # (a surrogate escape such as \udcff is a command line's undecodable byte and still names its file there;
    # the server refuses it too, below)
    for path in ("\ud800", "references/\ud83d.md", "a\udfff"):
        with pytest.raises(InvalidArguments, match="not valid Unicode"):
            resource_paging.read_resource("demo", skill.folder, path, discovery_root=skill.root)
    with pytest.raises(InvalidArguments, match="not valid Unicode"):
        activation.invoke(catalog, "/demo", "go \ud800 now", "user")
    with pytest.raises(InvalidArguments, match="not valid Unicode"):
        activation.invoke(catalog, "/demo\udcff", "", "model")


@pytest.fixture
async def server(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    started = await RawServer.start(str(home))
    yield started
    await started.kill()


async def _command(server: RawServer, command: str, arguments_json: str) -> dict:
    """A request whose arguments are written as raw JSON text (so `\\ud800` escapes reach the server)."""
    server.next_id += 1
    body = (
        '{"jsonrpc": "2.0", "id": %d, "method": "workspace/executeCommand", '
        '"params": {"command": "%s", "arguments": %s}}' % (server.next_id, command, arguments_json)
    ).encode("ascii")
    await server.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    return await server.response(server.next_id)


@pytest.mark.parametrize(
    "command, arguments",
    [
        ("skills.read", r'["demo", "\ud800"]'),
        ("skills.read", r'["demo", "references/\udcff.md"]'),
        ("skills.resources", r'["de\udc80mo"]'),
        ("commands.invoke", r'["/demo", "go \ud800", "user"]'),
        ("commands.invoke", r'["/demo", "go \ud800", "model"]'),
    ],
)
async def test_server_answers_lone_surrogates_with_invalid_params(server, tmp_path, command, arguments):
    await server.initialize(str(tree(tmp_path)))
    answer = await _command(server, command, arguments)
    assert answer.get("error", {}).get("code") == INVALID_PARAMS, answer
    assert "not valid Unicode" in answer["error"]["message"]
    # and the server still serves
    assert "result" in await _command(server, "commands.catalog", "[]")


async def test_a_skill_folder_named_with_bytes_that_are_not_utf8_is_shown_escaped(server, tmp_path):
    ws = tree(tmp_path)
    bad = os.fsencode(str(ws / ".agents/skills")) + b"/bad\xff"
    os.mkdir(bad)
    with open(bad + b"/SKILL.md", "w", encoding="utf-8") as handle:
        handle.write("---\nname: bad\ndescription: A bad name.\n---\nBody\n")
    await server.initialize(str(ws))
    catalog = await _command(server, "commands.catalog", "[]")
    assert "/demo" in [entry["command"] for entry in catalog["result"]]  # the rest of the tree is read
    bad_note = await server.notification("textDocument/publishDiagnostics", lambda params: "bad" in params["uri"])
    assert bad_note["params"]["uri"].endswith("/bad%FF/SKILL.md")
    assert "`bad\\xff`" in bad_note["params"]["diagnostics"][0]["message"]
    for note in server.notes:
        json.dumps(note, ensure_ascii=False).encode("utf-8")  # strict: no lone surrogate reaches the editor
