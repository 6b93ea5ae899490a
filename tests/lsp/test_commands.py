"""The `workspace/executeCommand` routes over stdio with the real server (docs/design.md#5-commands).

commands.catalog [folder?], commands.invoke [command, arguments?, mode?, folder?], skills.resources [name],
skills.read [name, resource?, offset?, limit?], skills.reload and skills.prompt [folder?] (the catalog as the
model's prompt block, for an editor's "what the model sees"): results, and refusals as JSON-RPC errors
(InvalidParams -32602 for bad arguments, RequestFailed -32803 for refused or stale requests) after which
the server keeps answering.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from albedo_skills_ls.skills.activation.commands import ACTIVATION_CLOSE, ACTIVATION_OPEN
from activation_text import parse_activation_input

from .harness import valid, write_skill

INVALID_PARAMS = -32602
REQUEST_FAILED = -32803
COMMANDS = {"commands.catalog", "commands.invoke", "skills.resources", "skills.read", "skills.reload", "skills.prompt", "skills.refused"}
DEMO_BODY = "# Demo\n\nMerge the files the user names.\n\u00e9t\u00e9 \U0001F600\n"


def make_tree(tmp_path: Path) -> tuple[Path, Path, dict[str, Path]]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    demo = write_skill(ws / ".albedo/skills", "demo", valid("demo", "Merge files."), DEMO_BODY)
    (demo.parent / "references").mkdir()
    (demo.parent / "references/formats.md").write_text("# Formats\n\nCSV and JSON.\n", encoding="utf-8")
    (demo.parent / "assets").mkdir()
    (demo.parent / "assets/blob.bin").write_bytes(bytes(range(256)))
    model = write_skill(ws / ".agents/skills", "model", valid("model", "Shares a built-in's name."), "M\n")
    zeta = write_skill(home / ".albedo/skills", "zeta", valid("zeta", "A user skill."), "Z\n")
    return ws, home, {"demo": demo, "model": model, "zeta": zeta}


async def refused(session, code: int, name: str, *arguments: Any) -> str:
    """Run a command that must fail with `code`; return its message, after checking the server still answers."""
    with pytest.raises(JsonRpcException) as caught:
        await session.command(name, *arguments)
    assert caught.value.code == code, (caught.value.code, caught.value.message)
    message = caught.value.message
    assert message
    catalog = await session.command("commands.catalog")
    assert catalog[0]["command"] == "/help"
    return message


async def test_initialize_advertises_the_commands(servers, tmp_path):
    ws, home, _ = make_tree(tmp_path)
    session = await servers([ws], home)
    provider = session.result.capabilities.execute_command_provider
    assert provider is not None
    assert set(provider.commands) == COMMANDS
    assert len(provider.commands) == len(COMMANDS)


async def test_catalog(servers, tmp_path):
    ws, home, paths = make_tree(tmp_path)
    session = await servers([ws], home)
    catalog = await session.command("commands.catalog")
    assert [e["command"] for e in catalog] == ["/help", "/model", "/reload", "/demo", "/skill:model", "/zeta"]
    assert [e["kind"] for e in catalog] == ["builtin"] * 3 + ["skill"] * 3
    for entry in catalog[:3]:
        assert set(entry) == {"command", "name", "kind", "description", "arguments"}
    for entry, name in zip(catalog[3:], ["demo", "model", "zeta"]):
        assert set(entry) == {"command", "name", "kind", "description", "arguments", "path", "scope"}
        assert entry["name"] == name and entry["path"] == str(paths[name])
        assert [a["name"] for a in entry["arguments"]] == ["arguments"]
        assert entry["arguments"][0]["type"] == "string" and entry["arguments"][0]["required"] is False
    assert catalog[3]["description"] == "Merge files."
    assert catalog[5]["scope"] == "user"


async def test_refused_lists_the_skill_folders_an_error_keeps_out_of_the_catalog(servers, tmp_path):
    """What a `/` menu warns about, from the snapshot `commands.catalog` reads (not from the diagnostics the
    editor has been sent so far): a folder whose SKILL.md has an error, by its folder's name, with the first
    error. A hidden copy without an error, a valid skill, and a folder without SKILL.md are not in it."""
    ws, home, paths = make_tree(tmp_path)
    both = write_skill(ws / ".agents/skills", "both", valid("bar", "Its name is not its folder."))
    broken = write_skill(ws / ".agents/skills", "broken", "name: broken")  # no description
    write_skill(ws / ".agents/skills", "demo", valid("demo", "A hidden copy, .albedo/skills wins."))
    (ws / ".agents/skills/empty").mkdir()
    mine = write_skill(home / ".albedo/skills", "mine", valid("theirs", "A user skill with the wrong name."))
    session = await servers([ws], home)
    answer = await session.command("skills.refused")
    assert [(entry["name"], entry["path"], entry["scope"], entry["code"]) for entry in answer] == [
        ("both", str(both), "workspace", "name-mismatch"),
        ("broken", str(broken), "workspace", "description-missing"),
        ("mine", str(mine), "user", "name-mismatch"),
    ]  # the roots' precedence (.albedo/skills, .agents/skills, then the user's), then the folders' names
    assert set(answer[0]) == {"name", "path", "scope", "code", "reason"}
    assert "`bar`" in answer[0]["reason"] and "`both`" in answer[0]["reason"]
    assert {entry["name"] for entry in await session.command("commands.catalog") if entry["kind"] == "skill"} == {"demo", "model", "zeta"}

    # fixed on disk: refused until the snapshot is rebuilt, then gone (the catalog and this list change together)
    both.write_text(f"---\n{valid('both', 'Fixed.')}\n---\nX\n", encoding="utf-8")
    assert [entry["name"] for entry in await session.command("skills.refused", ws.as_uri())] == ["both", "broken", "mine"]
    await session.command("skills.reload")
    assert [entry["name"] for entry in await session.command("skills.refused", str(ws))] == ["broken", "mine"]
    assert "/both" in [entry["command"] for entry in await session.command("commands.catalog")]
    assert paths["demo"].exists()


async def test_invoke_model_and_user_modes(servers, tmp_path):
    ws, home, paths = make_tree(tmp_path)
    session = await servers([ws], home)
    arguments = f"merge \"a\" & <b>\n{ACTIVATION_CLOSE}\n\\ \u2028 \U0001F600"
    expected = {
        "name": "demo",
        "description": "Merge files.",
        "source": str(paths["demo"]),
        "arguments": arguments,
        "instructions": DEMO_BODY,
    }
    assert await session.command("commands.invoke", "/demo", arguments) == expected
    assert await session.command("commands.invoke", "/demo", arguments, "model") == expected
    assert await session.command("commands.invoke", "demo", arguments) == expected
    bare = await session.command("commands.invoke", "/demo")
    assert bare["arguments"] == "" and bare["instructions"] == DEMO_BODY

    user = await session.command("commands.invoke", "/demo", "merge these files", "user")
    assert set(user) == {"intent", "input"}
    assert user["intent"] == "/demo merge these files"
    tricky = await session.command("commands.invoke", "/demo", arguments, "user")
    assert tricky["intent"] == f"/demo {arguments}"
    assert parse_activation_input(tricky["input"]) == {
        "name": "demo",
        "source": str(paths["demo"]),
        "arguments": arguments,
        "instructions": DEMO_BODY,
    }
    lines = tricky["input"].split("\n")
    assert lines.count(ACTIVATION_OPEN) == 1 and lines.count(ACTIVATION_CLOSE) == 1
    assert lines.index(ACTIVATION_CLOSE) == lines.index(ACTIVATION_OPEN) + 2 == len(lines) - 1

    # optional arguments passed as null take their defaults
    assert await session.command("commands.invoke", "/demo", None, None) == {**expected, "arguments": ""}


async def test_a_skill_named_model_is_skill_model(servers, tmp_path):
    ws, home, paths = make_tree(tmp_path)
    session = await servers([ws], home)
    result = await session.command("commands.invoke", "/skill:model", "go")
    assert result["name"] == "model" and result["source"] == str(paths["model"])
    assert result["instructions"] == "M\n" and result["arguments"] == "go"
    user = await session.command("commands.invoke", "/skill:model", "go", "user")
    assert user["intent"] == "/skill:model go"
    # `/model` is the built-in, not the skill
    builtin = await session.command("commands.invoke", "/model", "go")
    assert builtin["kind"] == "builtin" and builtin["command"] == "/model"
    assert "instructions" not in builtin


async def test_builtin_help_and_reload(servers, tmp_path):
    ws, home, _ = make_tree(tmp_path)
    session = await servers([ws], home)
    help_result = await session.command("commands.invoke", "/help")
    assert [r["command"] for r in help_result["result"]] == [
        "/help", "/model", "/reload", "/demo", "/skill:model", "/zeta"
    ]
    write_skill(ws / ".albedo/skills", "added", valid("added", "Added later."))
    announced = session.expect("albedoSkills/catalogChanged")
    reloaded = await session.command("commands.invoke", "/reload", "session")
    assert reloaded["command"] == "/reload"
    assert reloaded["result"]["added"] == ["added"]
    assert (await announced).skills == 4
    assert (await session.command("commands.invoke", "/added"))["description"] == "Added later."
    again = await session.command("commands.invoke", "/reload")
    assert again["result"]["added"] == [] and again["result"]["skills"] == 4
    message = await refused(session, INVALID_PARAMS, "commands.invoke", "/reload", "everything")
    assert "session" in message


async def test_resources_and_read(servers, tmp_path):
    ws, home, paths = make_tree(tmp_path)
    session = await servers([ws], home)
    listed = await session.command("skills.resources", "demo")
    assert listed == {
        "name": "demo",
        "resources": ["SKILL.md", "assets/blob.bin", "references/formats.md"],
        "diagnostics": [],
        "truncated": False,
    }
    assert (await session.command("skills.resources", "zeta"))["resources"] == ["SKILL.md"]

    keys = {"name", "resource", "offset", "size", "next_offset", "truncated", "encoding", "content"}
    whole = paths["demo"].read_bytes()
    page = await session.command("skills.read", "demo")
    assert set(page) == keys
    assert page["resource"] == "SKILL.md" and page["offset"] == 0
    assert page["size"] == len(whole) and page["next_offset"] == len(whole)
    assert page["truncated"] is False and page["encoding"] == "utf-8"
    assert page["content"].encode("utf-8") == whole

    # paging with offset/limit joins back to the file's bytes exactly, each page on a character boundary
    pieces, offset = [], 0
    while True:
        page = await session.command("skills.read", "demo", "SKILL.md", offset, 7)
        assert page["offset"] == offset and page["encoding"] == "utf-8"
        assert len(page["content"].encode("utf-8")) <= 7
        pieces.append(page["content"].encode("utf-8"))
        if not page["truncated"]:
            break
        offset = page["next_offset"]
    assert b"".join(pieces) == whole

    formats = await session.command("skills.read", "demo", "references/formats.md", 2, 7)
    assert formats["content"] == "Formats" and formats["next_offset"] == 9 and formats["truncated"] is True
    blob = await session.command("skills.read", "demo", "assets/blob.bin", 16, 100000)
    assert blob["encoding"] == "base64" and blob["size"] == 256 and blob["truncated"] is False
    assert base64.b64decode(blob["content"]) == bytes(range(16, 256))
    # a skill's command is accepted as its name
    assert (await session.command("skills.read", "/skill:model"))["content"].endswith("M\n")


async def test_reload_returns_its_summary(servers, tmp_path):
    ws, home, paths = make_tree(tmp_path)
    session = await servers([ws], home)
    unchanged = await session.command("skills.reload")
    assert unchanged == {"skills": 3, "diagnostics": 1, "added": [], "removed": [], "changed": []}
    paths["zeta"].unlink()
    write_skill(ws / ".albedo/skills", "added", valid("added"))
    write_skill(ws / ".albedo/skills", "demo", valid("demo", "Merge files, differently."), DEMO_BODY)
    summary = await session.command("skills.reload")
    assert summary["added"] == ["added"] and summary["removed"] == ["zeta"] and summary["changed"] == ["demo"]
    assert summary["skills"] == 3
    assert isinstance(summary["diagnostics"], int) and summary["diagnostics"] >= 1


async def test_bad_arguments_are_invalid_params(servers, tmp_path):
    ws, home, _ = make_tree(tmp_path)
    session = await servers([ws], home)
    cases = [
        ("skills.read", "demo", "SKILL.md", "x"),
        ("skills.read", "demo", "SKILL.md", 0, "big"),
        ("skills.read", "demo", "SKILL.md", -1),
        ("skills.read", "demo", "SKILL.md", 0, -5),
        ("skills.read", "demo", "SKILL.md", True),
        ("skills.read", "demo", 3),
        ("skills.read", 42),
        ("skills.read",),
        ("skills.read", "demo", "SKILL.md", 0, 10, "extra"),
        ("skills.resources",),
        ("skills.resources", "demo", "extra"),
        ("skills.resources", ["demo"]),
        ("skills.resources", ""),
        ("commands.invoke",),
        ("commands.invoke", 7),
        ("commands.invoke", None),
        ("commands.invoke", ""),
        ("commands.invoke", "/demo", 7),
        ("commands.invoke", "/demo", "", "robot"),
        ("commands.invoke", "/demo", "", "model", "extra"),
        ("commands.invoke", "/demo", "", "model", None, "extra"),
        ("commands.catalog", "extra"),
        ("commands.catalog", 7),
        ("commands.catalog", None, "extra"),
        ("skills.prompt", "file:///not/a/folder"),
        ("skills.refused", "file:///not/a/folder"),
        ("skills.refused", None, "extra"),
        ("skills.reload", "extra"),
    ]
    for name, *arguments in cases:
        message = await refused(session, INVALID_PARAMS, name, *arguments)
        assert "must" in message or "expected" in message or "offset" in message, (name, arguments, message)
    message = await refused(session, INVALID_PARAMS, "skills.read", "demo", "SKILL.md", "x")
    assert "offset" in message


async def test_unknown_command_name_is_an_error(servers, tmp_path):
    ws, home, _ = make_tree(tmp_path)
    session = await servers([ws], home)
    with pytest.raises(JsonRpcException) as caught:
        await session.command("skills.nothing", "demo")
    assert "skills.nothing" in caught.value.message
    assert (await session.command("commands.catalog"))[0]["command"] == "/help"


async def test_refusals_are_request_failed(servers, tmp_path):
    ws, home, _ = make_tree(tmp_path)
    session = await servers([ws], home)
    for name, *arguments in [("skills.resources", "nope"), ("skills.read", "nope"), ("commands.invoke", "/nope")]:
        message = await refused(session, REQUEST_FAILED, name, *arguments)
        assert "nope" in message and "commands.catalog" in message and "reload" in message
    for resource in ["../x", "../../ws/.agents/skills/model/SKILL.md", "references/../../x", "/etc/passwd", "a\0b", "missing.md", "references"]:
        message = await refused(session, REQUEST_FAILED, "skills.read", "demo", resource)
        assert message
    traversal = await refused(session, REQUEST_FAILED, "skills.read", "demo", "../x")
    assert ".." in traversal


async def test_stale_invoke_fails_until_reload(servers, tmp_path):
    ws, home, paths = make_tree(tmp_path)
    session = await servers([ws], home)
    paths["demo"].write_text(f"---\n{valid('demo', 'Merge files, a new identity.')}\n---\n{DEMO_BODY}", encoding="utf-8")
    for mode in ("model", "user"):
        message = await refused(session, REQUEST_FAILED, "commands.invoke", "/demo", "x", mode)
        assert "skills.reload" in message and "description" in message
    summary = await session.command("skills.reload")
    assert summary["changed"] == ["demo"]
    result = await session.command("commands.invoke", "/demo", "x")
    assert result["description"] == "Merge files, a new identity."
    assert result["instructions"] == DEMO_BODY
    # deleted: refused, then gone from the catalog after a reload
    paths["zeta"].unlink()
    message = await refused(session, REQUEST_FAILED, "commands.invoke", "/zeta")
    assert "reload" in message
    assert (await session.command("skills.reload"))["removed"] == ["zeta"]
    assert "/zeta" not in [e["command"] for e in await session.command("commands.catalog")]


async def test_disabled_extension_refuses_every_command(servers, tmp_path):
    ws, home, _ = make_tree(tmp_path)
    session = await servers([ws], home, settings={"enable": False})
    for name, *arguments in [
        ("commands.catalog",),
        ("commands.invoke", "/demo"),
        ("skills.resources", "demo"),
        ("skills.read", "demo"),
        ("skills.reload",),
        ("skills.prompt",),
        ("skills.refused",),
    ]:
        with pytest.raises(JsonRpcException) as caught:
            await session.command(name, *arguments)
        assert caught.value.code == REQUEST_FAILED
        assert "enable" in caught.value.message

    # enabling brings the commands back without a restart
    settings = {"albedoSkills": {"home": str(home), "enable": True}}
    session.client.set_configuration(settings)
    announced = session.expect("albedoSkills/catalogChanged")
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))
    assert (await announced).enabled is True
    assert [e["command"] for e in await session.command("commands.catalog")][3:] == ["/demo", "/skill:model", "/zeta"]
    assert (await session.command("commands.invoke", "/demo"))["instructions"] == DEMO_BODY
    assert (await session.command("skills.resources", "demo"))["resources"][0] == "SKILL.md"

    # and disabling again takes them away again
    settings = {"albedoSkills": {"home": str(home), "enable": False}}
    session.client.set_configuration(settings)
    announced = session.expect("albedoSkills/catalogChanged")
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))
    assert (await announced).enabled is False
    with pytest.raises(JsonRpcException) as caught:
        await session.command("commands.invoke", "/demo")
    assert caught.value.code == REQUEST_FAILED


async def test_builtin_commands_setting_shapes_the_catalog(servers, tmp_path):
    ws, home, paths = make_tree(tmp_path)
    session = await servers([ws], home, settings={"builtinCommands": ["/demo", "help"]})
    catalog = await session.command("commands.catalog")
    assert [(e["command"], e["kind"]) for e in catalog] == [
        ("/demo", "builtin"),
        ("/help", "builtin"),
        ("/skill:demo", "skill"),
        ("/model", "skill"),
        ("/zeta", "skill"),
    ]
    assert (await session.command("commands.invoke", "/model"))["source"] == str(paths["model"])
    assert (await session.command("commands.invoke", "/skill:demo"))["instructions"] == DEMO_BODY
    builtin = await session.command("commands.invoke", "/demo")
    assert builtin["kind"] == "builtin" and "instructions" not in builtin


async def test_routes_answer_for_the_folder_asked_about(servers, tmp_path):
    """An editor asks about the workspace folder of the active file; without a folder, the first one answers."""
    first, second, home = tmp_path / "first", tmp_path / "second", tmp_path / "home"
    write_skill(first / ".agents/skills", "alpha", valid("alpha", "First folder's skill."))
    write_skill(second / ".agents/skills", "beta", valid("beta", "Second folder's <skill> & more."))
    session = await servers([first, second], home)

    def skills(catalog: list[dict[str, Any]]) -> list[str]:
        return [entry["command"] for entry in catalog if entry["kind"] == "skill"]

    assert skills(await session.command("commands.catalog")) == ["/alpha"]
    assert skills(await session.command("commands.catalog", None)) == ["/alpha"]
    assert skills(await session.command("commands.catalog", second.as_uri())) == ["/beta"]
    assert skills(await session.command("commands.catalog", str(second))) == ["/beta"]

    activation = await session.command("commands.invoke", "/beta", "now", "user", second.as_uri())
    assert activation["intent"] == "/beta now"
    assert parse_activation_input(activation["input"])["name"] == "beta"
    await refused(session, REQUEST_FAILED, "commands.invoke", "/beta", "", "user", first.as_uri())

    prompt = (await session.command("skills.prompt", second.as_uri()))["text"]
    assert prompt.startswith("<available_skills>\n<skill>\n<name>beta</name>\n")
    assert "<description>Second folder's &lt;skill&gt; &amp; more.</description>" in prompt
    assert f"<location>{second / '.agents/skills/beta/SKILL.md'}</location>" in prompt
    assert (await session.command("skills.prompt"))["text"].count("<skill>") == 1
    assert "<name>alpha</name>" in (await session.command("skills.prompt"))["text"]

    message = await refused(session, INVALID_PARAMS, "commands.catalog", (tmp_path / "elsewhere").as_uri())
    assert "must be one of this server's workspace folders" in message and str(first) in message
