"""`albedo-skills mcp`, driven over stdio by the official MCP Python SDK's own client, as a host drives it.

Each test starts the real program on a workspace of its own and asserts what a host receives: the Skills
extension's entries (digests equal to sha256 of the files on disk, frontmatter as written), the bytes of
`resources/read`, every traversal form refused, invalid skills absent, the activation a prompt submits
(the same as `albedo-skills invoke --user`), the two read-only tools, and a change on disk followed by
`list_changed` and the new listing. Every test runs over stdio and over streamable HTTP, each with the
initialize handshake and with the 2026-07-28 protocol's `server/discover`.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Literal

import anyio
import mcp_types as types
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.client.subscriptions import listen
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import event_to_notification
from pydantic import TypeAdapter

from albedo_skills_ls.mcp.offer import MAX_OFFERED_SKILL_BYTES, PROMPT_ARGUMENTS, PROMPT_WORDS
from albedo_skills_ls.mcp.server import DIRECTORY_PAGE, SKILLS_PAGE, WATCH_SECONDS
from albedo_skills_ls.skills.core.limits import MAX_RESOURCE_FILES

PROGRAM = [sys.executable, "-m", "albedo_skills_ls.cli"]
# A hang guard, not a speed bound: the watcher looks every WATCH_SECONDS; a loaded machine may take several
HANG_GUARD_SECONDS = WATCH_SECONDS * 60
RAW = TypeAdapter(dict)
# On the 2026-07-28 protocol a server sends log messages only on requests asking for them with this level
# (`io.modelcontextprotocol/logLevel` in their `_meta`); on the handshake it sends every level
LOG_LEVEL = "warning"


class SkillsListRequest(types.Request[types.PaginatedRequestParams, Literal["skills/list"]]):
    method: Literal["skills/list"] = "skills/list"
    params: types.PaginatedRequestParams


class SkillsGetParams(types.RequestParams):
    uri: str


class SkillsGetRequest(types.Request[SkillsGetParams, Literal["skills/get"]]):
    method: Literal["skills/get"] = "skills/get"
    params: SkillsGetParams


class DirectoryReadParams(types.PaginatedRequestParams):
    uri: str


class DirectoryReadRequest(types.Request[DirectoryReadParams, Literal["resources/directory/read"]]):
    method: Literal["resources/directory/read"] = "resources/directory/read"
    params: DirectoryReadParams


def write_skill(workspace: Path, name: str, frontmatter: str, body: str = "# Steps\n\nDo the thing.\n") -> Path:
    folder = workspace / ".agents" / "skills" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(f"---\n{frontmatter}---\n{body}", encoding="utf-8")
    return folder


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    demo = write_skill(
        ws, "demo",
        "name: demo\ndescription: Merges files the way this project likes.\nversion: 1\nlicense: MIT\n"
        "metadata:\n  team: docs\n  reviewed: true\ntags: [merge, files]\n",
        "# Merge\n\nMerge the files named in the arguments. See [the guide](references/guide.md).\n",
    )
    (demo / "references").mkdir()
    (demo / "references" / "guide.md").write_text("# Guide\n\nKeep the order.\n", encoding="utf-8")
    (demo / "assets").mkdir()
    (demo / "assets" / "logo.bin").write_bytes(bytes(range(256)))
    (demo / "assets" / "my notes #1.txt").write_text("spaces and a hash\n", encoding="utf-8")
    write_skill(ws, "broken", "description: no name here\n")  # invalid: never served
    (tmp_path / "secret.txt").write_text("outside every skill\n", encoding="utf-8")
    return ws


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@asynccontextmanager
async def http_server(workspace: Path) -> AsyncIterator[str]:
    """`albedo-skills mcp --http` started as a person starts it; its URL once it accepts connections."""
    port = free_port()
    process = subprocess.Popen([*PROGRAM, "mcp", "--http", f"127.0.0.1:{port}", "-w", str(workspace), "--no-user-roots"],
                               cwd=workspace, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with anyio.fail_after(HANG_GUARD_SECONDS):
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    assert process.poll() is None, "the server ended before it listened"
                    await anyio.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=30)


@asynccontextmanager
async def opened(session: ClientSession, protocol: str, notes: list[str] | None) -> AsyncIterator[ClientSession]:
    """`session` opened as a host of `protocol` opens it: the initialize handshake (2025-11-25, as Gemini CLI
    0.61.0 connects), or `server/discover` (2026-07-28, as Claude Code 2.1.332 connects), where change events
    reach only a `subscriptions/listen` stream, which is then kept open and fed into `notes` by method."""
    if protocol == "handshake":
        await session.initialize()
        yield session
        return
    await session.discover()
    if notes is None:
        yield session
        return
    async with listen(session, prompts_list_changed=True, resources_list_changed=True) as events:
        async with anyio.create_task_group() as tasks:
            async def collect() -> None:
                async for event in events:
                    notes.append(event_to_notification(event, {}).method)

            tasks.start_soon(collect)
            yield session
            tasks.cancel_scope.cancel()


@pytest.fixture(params=[("stdio", "handshake"), ("http", "handshake"), ("stdio", "2026-07-28"), ("http", "2026-07-28")],
                ids=lambda param: "-".join(param))
def connected(request):
    """Connects the SDK's client to a new server on `workspace` over the transport and protocol of the test's
    parameter."""
    transport, protocol = request.param

    @asynccontextmanager
    async def connect(workspace: Path, notes: list[str] | None = None, logs: list[str] | None = None,
                      client: str = "mcp") -> AsyncIterator[ClientSession]:
        async def on_message(message: Any) -> None:
            if notes is not None and isinstance(message, types.ServerNotification):
                notes.append(message.method)

        async def on_log(params: types.LoggingMessageNotificationParams) -> None:
            if logs is not None:
                logs.append(str(params.data))

        if transport == "http":
            async with http_server(workspace) as url, streamable_http_client(url) as (read, write):
                async with ClientSession(read, write, message_handler=on_message, logging_callback=on_log,
                                         log_level=LOG_LEVEL, client_info=types.Implementation(name=client, version="0")) as session:
                    async with opened(session, protocol, notes):
                        yield session
            return
        params = StdioServerParameters(
            command=PROGRAM[0], args=[*PROGRAM[1:], "mcp", "-w", str(workspace), "--no-user-roots"], cwd=str(workspace)
        )
        with open(os.devnull, "w") as quiet:
            async with stdio_client(params, errlog=quiet) as (read, write):
                async with ClientSession(read, write, message_handler=on_message, logging_callback=on_log,
                                         log_level=LOG_LEVEL, client_info=types.Implementation(name=client, version="0")) as session:
                    async with opened(session, protocol, notes):
                        yield session

    return connect


async def skills_list(session: ClientSession, cursor: str | None = None) -> dict[str, Any]:
    return await session.send_request(SkillsListRequest(params=types.PaginatedRequestParams(cursor=cursor)), RAW)


def sha256(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


async def test_skills_list_serves_valid_skills_with_their_frontmatter_as_written_and_a_true_manifest(workspace, connected):
    async with connected(workspace) as session:
        listing = await skills_list(session)
    assert [entry["uri"] for entry in listing["skills"]] == ["skill://demo/SKILL.md"]  # `broken` is absent
    assert "nextCursor" not in listing
    assert (listing["ttlMs"], listing["cacheScope"]) == (0, "private")  # never reused: the catalog may change
    entry = listing["skills"][0]
    assert entry["frontmatter"] == {
        "name": "demo", "description": "Merges files the way this project likes.", "version": 1, "license": "MIT",
        "metadata": {"team": "docs", "reviewed": True}, "tags": ["merge", "files"],
    }
    demo = workspace / ".agents" / "skills" / "demo"
    on_disk = {path.relative_to(demo).as_posix(): path for path in demo.rglob("*") if path.is_file()}
    manifest = {item["uri"]: item for item in entry["resources"]}
    expected_uris = {
        "skill://demo/SKILL.md", "skill://demo/references/guide.md", "skill://demo/assets/logo.bin",
        "skill://demo/assets/my%20notes%20%231.txt",
    }
    assert set(manifest) == expected_uris and len(on_disk) == len(expected_uris)
    for relative, path in on_disk.items():
        item = next(i for i in entry["resources"] if i["uri"].endswith(relative.replace(" ", "%20").replace("#", "%23")))
        assert item["digest"] == sha256(path) and item["size"] == path.stat().st_size


async def test_resources_read_serves_the_bytes_the_digest_covers(workspace, connected):
    async with connected(workspace) as session:
        entry = (await skills_list(session))["skills"][0]
        for item in entry["resources"]:
            contents = (await session.read_resource(item["uri"])).contents[0]
            data = contents.text.encode("utf-8") if isinstance(contents, types.TextResourceContents) else base64.b64decode(contents.blob)
            assert "sha256:" + hashlib.sha256(data).hexdigest() == item["digest"] and len(data) == item["size"]
        logo = (await session.read_resource("skill://demo/assets/logo.bin")).contents[0]
        assert isinstance(logo, types.BlobResourceContents) and base64.b64decode(logo.blob) == bytes(range(256))
        guide = (await session.read_resource("skill://demo/references/guide.md")).contents[0]
        assert guide.mime_type == "text/markdown" and guide.text == "# Guide\n\nKeep the order.\n"


@pytest.mark.parametrize("uri", [
    "skill://demo/../../secret.txt",
    "skill://demo/references/../../../secret.txt",
    "skill://demo/%2e%2e/%2e%2e/secret.txt",
    "skill://demo/%2E%2E%2F%2E%2E%2Fsecret.txt",
    "skill://demo//etc/passwd",
    "skill://demo/%2Fetc%2Fpasswd",
    "skill://demo/..%5C..%5Csecret.txt",
    "skill://demo/references%00.md",
    "skill://demo/escape.txt",  # a link inside the folder to a file outside it
    "skill://broken/SKILL.md",  # an invalid skill is not served
    "skill://nosuch/SKILL.md",
    "file:///etc/passwd",
])
async def test_every_traversal_form_and_unknown_uri_is_refused_with_an_error(workspace, connected, uri):
    (workspace / ".agents" / "skills" / "demo" / "escape.txt").symlink_to(workspace.parent / "secret.txt")
    async with connected(workspace) as session:
        with pytest.raises(MCPError) as refused:
            await session.read_resource(uri)
    assert "outside every skill" not in str(refused.value)
    assert refused.value.error.code == types.INVALID_PARAMS  # the extension's and the protocol's code for it
    assert refused.value.error.message  # says why and what to do


async def test_a_listed_file_swapped_for_a_link_out_of_the_skill_is_refused(workspace, connected):
    guide = workspace / ".agents" / "skills" / "demo" / "references" / "guide.md"
    async with connected(workspace) as session:
        await session.read_resource("skill://demo/references/guide.md")  # listed and served
        guide.unlink()
        guide.symlink_to(workspace.parent / "secret.txt")
        with pytest.raises(MCPError) as refused:  # before or after the watcher notices: never the secret
            await session.read_resource("skill://demo/references/guide.md")
    assert "outside every skill" not in str(refused.value)


async def read_directory(session: ClientSession, uri: str, cursor: str | None = None) -> dict[str, Any]:
    return await session.send_request(DirectoryReadRequest(params=DirectoryReadParams(uri=uri, cursor=cursor)), RAW)


async def test_a_directory_read_lists_a_folders_children_as_the_manifest_has_them(workspace, connected):
    demo = workspace / ".agents" / "skills" / "demo"
    async with connected(workspace) as session:
        handshake, discovered = session.initialize_result, session.discover_result
        root = await read_directory(session, "skill://demo")
        assets = await read_directory(session, "skill://demo/assets")
        refused = {}
        for uri in ("skill://demo/", "skill://demo/SKILL.md", "skill://demo/assets/", "skill://demo/..",
                    "skill://demo/%2e%2e", "skill://demo/references/../..", "skill://demo//etc",
                    "skill://broken", "skill://nosuch", "file:///etc"):
            with pytest.raises(MCPError) as error:
                await read_directory(session, uri)
            refused[uri] = error.value.error.code
    if discovered is not None:  # the 2026-07-28 protocol's capabilities say the method is served
        assert discovered.capabilities.extensions["io.modelcontextprotocol/skills"] == {"directoryRead": True}
    else:  # the handshake's revisions define no `extensions`: the SDK leaves it out (docs/mcp.md)
        assert handshake.capabilities.extensions is None
    assert [(c["name"], c.get("mimeType")) for c in root["resources"]] == [
        ("SKILL.md", "text/markdown"), ("assets", "inode/directory"), ("references", "inode/directory")]
    assert root["resources"][0]["size"] == (demo / "SKILL.md").stat().st_size and "nextCursor" not in root
    assert [c["uri"] for c in root["resources"][1:]] == ["skill://demo/assets", "skill://demo/references"]
    assert [(c["uri"], c["size"]) for c in assets["resources"]] == [
        ("skill://demo/assets/logo.bin", 256),
        ("skill://demo/assets/my%20notes%20%231.txt", (demo / "assets" / "my notes #1.txt").stat().st_size)]
    assert set(refused.values()) == {types.INVALID_PARAMS}, refused


async def test_a_directory_read_pages_past_its_bound(workspace, connected):
    for name, count in (("full", DIRECTORY_PAGE), ("over", DIRECTORY_PAGE + 1)):
        folder = write_skill(workspace, name, f"name: {name}\ndescription: Holds many references.\n")
        (folder / "references").mkdir()
        for index in range(count):
            (folder / "references" / f"r{index:03d}.md").write_text("x", encoding="utf-8")
    async with connected(workspace) as session:
        full = await read_directory(session, "skill://full/references")
        over = await read_directory(session, "skill://over/references")
        rest = await read_directory(session, "skill://over/references", over["nextCursor"])
        with pytest.raises(MCPError, match="not one this server gave"):
            await read_directory(session, "skill://over/references", str(DIRECTORY_PAGE + 2))
    assert len(full["resources"]) == DIRECTORY_PAGE and "nextCursor" not in full
    assert len(over["resources"]) == DIRECTORY_PAGE and [c["name"] for c in rest["resources"]] == [f"r{DIRECTORY_PAGE:03d}.md"]
    assert "nextCursor" not in rest


async def test_skills_get_returns_the_entry_and_refuses_an_unknown_uri(workspace, connected):
    async with connected(workspace) as session:
        listing = await skills_list(session)
        got = await session.send_request(SkillsGetRequest(params=SkillsGetParams(uri="skill://demo/SKILL.md")), RAW)
        assert got["skill"] == listing["skills"][0]
        with pytest.raises(MCPError, match="no skill served here"):
            await session.send_request(SkillsGetRequest(params=SkillsGetParams(uri="skill://broken/SKILL.md")), RAW)


async def test_a_prompt_submits_the_activation_albedo_would(workspace, connected):
    typed = 'a.txt "b c.txt" --fast'
    async with connected(workspace) as session:
        listed = (await session.list_prompts()).prompts
        assert [(p.name, p.description) for p in listed] == [("demo", "Merges files the way this project likes.")]
        got = await session.get_prompt("demo", {"arguments": typed})
        with pytest.raises(MCPError, match="no prompt `broken`"):
            await session.get_prompt("broken", {})
    assert len(got.messages) == 1 and got.messages[0].role == "user"
    assert got.messages[0].content.text == expected_input(workspace, typed)


def expected_input(workspace: Path, typed: str) -> str:
    """The turn `albedo-skills invoke /demo TYPED --user` submits."""
    done = subprocess.run([*PROGRAM, "invoke", "/demo", typed, "--user", "-w", str(workspace), "--no-user-roots"],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)["input"]


async def test_a_prompt_takes_the_typed_words_one_argument_each_up_to_its_bound(workspace, connected):
    """Claude Code (its clientInfo name `claude-code`) hands a prompt the typed words one per declared argument:
    to it `arguments` is optional and `word_2` … `word_<PROMPT_WORDS>` follow, joined again with one space; a
    word past the bound is an argument no prompt declares. Any other host sees `arguments` alone, required."""
    words = [f"w{number}" for number in range(1, PROMPT_WORDS + 1)]
    async with connected(workspace, client="claude-code") as session:
        by_word = (await session.list_prompts()).prompts[0].arguments
        at_bound = await session.get_prompt("demo", dict(zip(PROMPT_ARGUMENTS, words)))
        with pytest.raises(MCPError, match=f"not `word_{PROMPT_WORDS + 1}`"):
            await session.get_prompt("demo", dict(zip(PROMPT_ARGUMENTS, words)) | {f"word_{PROMPT_WORDS + 1}": "past"})
        nothing_typed = await session.get_prompt("demo", {})
    async with connected(workspace, client="gemini-cli-mcp-client") as session:
        whole = (await session.list_prompts()).prompts[0].arguments
    assert [(a.name, a.required) for a in by_word] == [(name, None) for name in PROMPT_ARGUMENTS]
    assert len(PROMPT_ARGUMENTS) == PROMPT_WORDS
    assert at_bound.messages[0].content.text == expected_input(workspace, " ".join(words))
    assert nothing_typed.messages[0].content.text == expected_input(workspace, "")
    assert [(a.name, a.required) for a in whole] == [("arguments", True)]


async def test_the_tools_are_read_only_and_mirror_invoke_and_read(workspace, connected):
    async with connected(workspace) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert set(tools) == {"activate_skill", "read_skill_file"}
        assert all(t.annotations.read_only_hint and not t.annotations.destructive_hint for t in tools.values())
        activated = await session.call_tool("activate_skill", {"command": "/demo", "arguments": "x y"})
        page = await session.call_tool("read_skill_file", {"name": "demo", "resource": "references/guide.md", "limit": 7})
        refused = await session.call_tool("read_skill_file", {"name": "demo", "resource": "../../secret.txt"})
        unknown = await session.call_tool("activate_skill", {"command": "/broken"})
    expected = subprocess.run([*PROGRAM, "invoke", "/demo", "x y", "-w", str(workspace), "--no-user-roots"],
                              capture_output=True, text=True, check=True)
    assert activated.structured_content == json.loads(expected.stdout)
    assert page.structured_content["content"] == "# Guide" and page.structured_content["next_offset"] == 7
    assert refused.is_error and "'..'" in refused.content[0].text
    assert unknown.is_error and "unknown command `/broken`" in unknown.content[0].text


async def test_a_change_on_disk_is_announced_and_the_next_listing_is_the_new_catalog(workspace, connected):
    notes: list[str] = []
    async with connected(workspace, notes) as session:
        assert [p.name for p in (await session.list_prompts()).prompts] == ["demo"]
        write_skill(workspace, "review", "name: review\ndescription: Reviews a change. Use when asked.\n")
        # both are announced; they are two messages, and over HTTP the second may arrive a moment after the first
        with anyio.fail_after(HANG_GUARD_SECONDS):
            while not {"notifications/prompts/list_changed", "notifications/resources/list_changed"} <= set(notes):
                await anyio.sleep(0.05)
        assert [p.name for p in (await session.list_prompts()).prompts] == ["demo", "review"]
        listing = await skills_list(session)
        assert [e["uri"] for e in listing["skills"]] == ["skill://demo/SKILL.md", "skill://review/SKILL.md"]
        # a file's bytes change: the manifest follows
        guide = workspace / ".agents" / "skills" / "demo" / "references" / "guide.md"
        guide.write_text("# Guide\n\nA new rule.\n", encoding="utf-8")
        notes.clear()
        with anyio.fail_after(HANG_GUARD_SECONDS):
            while "notifications/resources/list_changed" not in notes:
                await anyio.sleep(0.05)
        entry = (await skills_list(session))["skills"][0]
        assert next(i for i in entry["resources"] if i["uri"].endswith("guide.md"))["digest"] == sha256(guide)


async def test_skills_list_pages_and_refuses_a_cursor_it_never_gave(workspace, connected):
    for index in range(SKILLS_PAGE):  # one page plus demo
        write_skill(workspace, f"s{index:03d}", f"name: s{index:03d}\ndescription: Skill number {index}.\n")
    async with connected(workspace) as session:
        first = await skills_list(session)
        second = await skills_list(session, first["nextCursor"])
        for foreign in ("x", "²", "-1", str(SKILLS_PAGE + 2)):  # ² is a digit to str.isdigit, not to int()
            with pytest.raises(MCPError, match="not one this server gave"):
                await skills_list(session, foreign)
    assert len(first["skills"]) == SKILLS_PAGE and len(second["skills"]) == 1 and "nextCursor" not in second


async def test_a_skill_past_the_file_bound_is_left_out_and_the_host_is_told_why(workspace, connected):
    big = write_skill(workspace, "big", "name: big\ndescription: Holds too many files.\n")
    for index in range(MAX_RESOURCE_FILES):  # with SKILL.md, one file past the bound
        (big / f"f{index:03d}.txt").write_text("x", encoding="utf-8")
    edge = write_skill(workspace, "edge", "name: edge\ndescription: Holds exactly as many files as listed.\n")
    for index in range(MAX_RESOURCE_FILES - 1):  # with SKILL.md, exactly at the bound
        (edge / f"f{index:03d}.txt").write_text("x", encoding="utf-8")
    logs: list[str] = []
    async with connected(workspace, logs=logs) as session:
        listing = await skills_list(session)  # the reasons come with the first page, on its own stream
    uris = [e["uri"] for e in listing["skills"]]
    assert "skill://big/SKILL.md" not in uris and "skill://edge/SKILL.md" in uris
    edge_entry = next(e for e in listing["skills"] if e["uri"] == "skill://edge/SKILL.md")
    assert len(edge_entry["resources"]) == MAX_RESOURCE_FILES
    async with connected(workspace) as session:  # nor can a model activate it through the tool
        refused = await session.call_tool("activate_skill", {"command": "/big"})
    assert refused.is_error and "`big` is not served" in refused.content[0].text
    assert any("`big` is not served" in line and f"{MAX_RESOURCE_FILES} files" in line for line in logs)


async def test_a_skill_past_the_byte_bound_is_left_out(workspace, connected):
    heavy = write_skill(workspace, "heavy", "name: heavy\ndescription: Ships a large file.\n")
    skill_md = (heavy / "SKILL.md").stat().st_size
    (heavy / "data.bin").write_bytes(b"\0" * (MAX_OFFERED_SKILL_BYTES - skill_md + 1))
    at_bound = write_skill(workspace, "full", "name: full\ndescription: Ships a file up to the bound.\n")
    (at_bound / "data.bin").write_bytes(b"\0" * (MAX_OFFERED_SKILL_BYTES - (at_bound / "SKILL.md").stat().st_size))
    async with connected(workspace) as session:
        uris = [e["uri"] for e in (await skills_list(session))["skills"]]
    assert "skill://heavy/SKILL.md" not in uris and "skill://full/SKILL.md" in uris


def test_without_the_mcp_library_the_verb_says_how_to_install_it(workspace):
    code = "import sys; sys.modules['mcp'] = None; from albedo_skills_ls.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "mcp", "-w", str(workspace)], capture_output=True, text=True)
    assert done.returncode == 2
    assert "pip install 'albedo-skills-ls[mcp]'" in done.stderr
