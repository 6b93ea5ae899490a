"""Sessions, settings and robustness of the server, over stdio."""

from __future__ import annotations

import asyncio
import sys

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from .harness import uri, valid, write_skill


async def test_two_workspace_folders_get_two_independent_catalogs(servers, tmp_path):
    one, two, home = tmp_path / "one", tmp_path / "two", tmp_path / "home"
    write_skill(one / ".agents/skills", "alpha", valid("alpha"))
    write_skill(two / ".agents/skills", "demo", valid("demo"))
    bad_two = write_skill(two / ".albedo/skills", "demo", "name: demo\ndescription: wins in two")
    loser_two = two / ".agents/skills/demo/SKILL.md"
    session = await servers([one, two], home)
    assert session.announcements[-1].skills == 2  # alpha in one, demo in two
    assert session.codes(loser_two) == ["collision"]
    assert str(bad_two) in session.diagnostics(loser_two)[0].message
    catalog = await session.command("commands.catalog")
    assert [entry["name"] for entry in catalog if entry["kind"] == "skill"] == ["alpha"]  # the first folder's


async def test_workspace_folders_can_be_added_and_removed(servers, tmp_path):
    one, two, home = tmp_path / "one", tmp_path / "two", tmp_path / "home"
    write_skill(one / ".agents/skills", "alpha", valid("alpha"))
    bad = write_skill(two / ".agents/skills", "beta", "name: gamma\ndescription: x")
    session = await servers([one], home)
    assert session.diagnostics(bad) == []
    changed = session.expect("albedoSkills/catalogChanged")
    folder = types.WorkspaceFolder(uri=uri(two), name="two")
    session.client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(event=types.WorkspaceFoldersChangeEvent(added=[folder], removed=[]))
    )
    await changed
    assert session.codes(bad) == ["name-mismatch"]
    changed = session.expect("albedoSkills/catalogChanged")
    session.client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(event=types.WorkspaceFoldersChangeEvent(added=[], removed=[folder]))
    )
    await changed
    assert session.diagnostics(bad) == []


async def test_no_folder_means_the_user_roots_alone(servers, tmp_path):
    home = tmp_path / "home"
    bad = write_skill(home / ".prime/agent/skills", "tool", "name: tool")
    session = await servers(None, home)
    assert session.codes(bad) == ["description-missing"]


async def test_root_uri_alone_is_a_session(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    bad = write_skill(ws / ".agents/skills", "x", "name: y\ndescription: d")
    session = await servers([ws], home, root_uri_only=True)
    assert session.codes(bad) == ["name-mismatch"]


async def test_disable_then_enable_through_configuration(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    bad = write_skill(ws / ".agents/skills", "x", "name: y\ndescription: d")
    session = await servers([ws], home)
    assert session.codes(bad) == ["name-mismatch"]

    changed = session.expect("albedoSkills/catalogChanged")
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"albedoSkills": {"enable": False}})
    )
    assert (await changed).enabled is False
    assert session.diagnostics(bad) == []
    with pytest.raises(JsonRpcException) as refused:
        await session.command("commands.catalog")
    assert refused.value.code == -32803 and "enable" in refused.value.message

    # the client only says "changed": the server pulls workspace/configuration
    session.client.set_configuration({"albedoSkills": {"enable": True, "home": str(home)}})
    changed = session.expect("albedoSkills/catalogChanged")
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert (await changed).enabled is True
    assert session.codes(bad) == ["name-mismatch"]
    assert [entry["command"] for entry in await session.command("commands.catalog")][:3] == ["/help", "/model", "/reload"]


async def test_user_roots_setting_and_builtin_commands_take_effect(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    user_bad = write_skill(home / ".albedo/skills", "mine", "name: mine")
    write_skill(ws / ".agents/skills", "deploy", valid("deploy"))
    session = await servers([ws], home, settings={"userRoots": False, "builtinCommands": ["help", "deploy"]})
    assert session.diagnostics(user_bad) == []
    commands = [entry["command"] for entry in await session.command("commands.catalog")]
    assert commands == ["/help", "/deploy", "/skill:deploy"]


async def test_invalid_settings_are_reported_and_defaults_used(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    bad = write_skill(ws / ".agents/skills", "x", "name: y\ndescription: d")
    session = await servers([ws], home, settings={"enable": "yes", "logLevel": "loud", "colour": 1})
    text = " ".join(message.message for message in session.client.messages)
    assert "albedoSkills.enable" in text and "albedoSkills.logLevel" in text and "albedoSkills.colour" in text
    assert session.codes(bad) == ["name-mismatch"]  # enable fell back to its default, true


async def test_an_invalid_setting_is_shown_once_while_it_persists(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_skill(ws / ".agents/skills", "x", valid("x"))
    session = await servers([ws], home, settings={"logLevel": "loud"})
    # the same settings again, as a client sends them after any configuration change
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"albedoSkills": {"logLevel": "loud"}})
    )
    await session.command("commands.catalog")  # answered after the notification above was handled
    shown = [message.message for message in session.client.messages if "albedoSkills.logLevel" in message.message]
    assert len(shown) == 1, shown


async def test_malformed_requests_get_errors_and_the_server_keeps_answering(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_skill(ws / ".agents/skills", "demo", valid("demo"))
    session = await servers([ws], home)
    for name, arguments, code in (
        ("no.such.command", [], -32602),
        ("skills.read", [42], -32602),
        ("skills.read", ["demo", "SKILL.md", "x"], -32602),
        ("skills.read", ["demo", "SKILL.md", 0, 10, "extra"], -32602),
        ("skills.read", ["nope"], -32803),
        ("commands.invoke", [], -32602),
    ):
        with pytest.raises(JsonRpcException) as error:
            await session.command(name, *arguments)
        assert error.value.code == code, (name, arguments)
        assert error.value.message
    # a request about a document the server never saw
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri(tmp_path / "nowhere/SKILL.md")))
    )
    assert not symbols
    assert [e["command"] for e in await session.command("commands.catalog")][-1] == "/demo"


async def test_version_and_help_exit_without_starting(tmp_path):
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "albedo_skills_ls", "--version", stdout=asyncio.subprocess.PIPE
    )
    out, _ = await process.communicate()
    assert process.returncode == 0 and out.decode().startswith("albedo-skills-ls ")
