"""Workspace symbols, code lens, inlay hints and folding over stdio: exactly the skills present, the lens
count equal to Find References, the hint's figures equal to `albedo-skills hosts --format json`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from lsprotocol import types

import rename_world as world
from hostile.rpc import RawServer, frame

from .editing import open_until
from .harness import capabilities, uri
from .rename_client import rename_caps

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")



def inline_caps() -> types.ClientCapabilities:
    caps = rename_caps()
    assert caps.text_document is not None and caps.workspace is not None
    caps.workspace.symbol = types.WorkspaceSymbolClientCapabilities()
    caps.text_document.code_lens = types.CodeLensClientCapabilities()
    caps.text_document.inlay_hint = types.InlayHintClientCapabilities()
    caps.text_document.folding_range = types.FoldingRangeClientCapabilities(line_folding_only=True)
    return caps


def _doc(path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri(path))


async def test_workspace_symbols_by_subsequence_winners_before_hidden_copies(servers, tmp_path):
    workspace, home = world.build(tmp_path)
    hidden = world.skill(home / ".agents/skills", "demo", "demo", "My own copy of the demo.")
    session = await servers([workspace], home, caps=inline_caps())
    found = await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="dmo"))
    assert [(s.name, s.location.uri, s.container_name, s.tags) for s in found] == [
        ("demo", uri(workspace / ".agents/skills/demo/SKILL.md"), "workspace skill", None),
        ("demo-extra", uri(workspace / ".agents/skills/demo-extra/SKILL.md"), "workspace skill", None),
        ("demo", uri(hidden), f"user skill, hidden by {workspace / '.agents/skills/demo/SKILL.md'}", (types.SymbolTag.Deprecated,)),
        # then the skills matched by their description alone ("Uses the demo skill.")
        ("other", uri(workspace / ".agents/skills/other/SKILL.md"), "workspace skill", None),
    ]
    assert found[0].location.range == types.Range(start=types.Position(line=1, character=6), end=types.Position(line=1, character=10))
    by_description = await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="the data"))
    assert [s.location.uri for s in by_description] == [uri(workspace / ".agents/skills/demo/SKILL.md")]  # "...of the data."
    assert await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="zq")) == []
    everything = await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    assert sorted(s.name for s in everything) == ["demo", "demo", "demo-extra", "mine", "other"]


async def test_a_query_sent_before_the_first_discovery_waits_for_the_catalog(tmp_path):
    """VS Code asks as soon as Go to Symbol in Workspace opens, maybe while the server still discovers: the
    answer waits for the catalog instead of an empty list the user reads as "No matching workspace symbols".
    Discovery cannot finish before the client answers `workspace/configuration`, so the query is in first."""
    workspace, home = world.build(tmp_path)
    raw = await RawServer.start(str(home))
    try:
        caps = {"workspace": {"configuration": True, "symbol": {"dynamicRegistration": True}}}
        folder = {"uri": uri(workspace), "name": workspace.name}
        await raw.request("initialize", {"processId": None, "rootUri": uri(workspace), "workspaceFolders": [folder], "capabilities": caps})
        await raw.send("initialized", {}, request=False)
        asked = await raw.send("workspace/symbol", {"query": "dmx"})
        while True:
            message = await raw.read()
            assert message.get("id") != asked or "method" in message, f"answered before the discovery: {message}"
            if message.get("method") == "workspace/configuration":
                settings = {"home": str(home)}
                await raw.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": [settings]}))
                break
        answer = await raw.response(asked)
        assert [(s["name"], s["location"]["uri"]) for s in answer["result"]] == [
            ("demo-extra", uri(workspace / ".agents/skills/demo-extra/SKILL.md"))
        ]
    finally:
        await raw.kill()


async def test_the_lens_counts_what_references_find(servers, tmp_path):
    workspace, home = world.build(tmp_path)
    session = await servers([workspace], home, caps=inline_caps())
    path = workspace / ".agents/skills/demo/SKILL.md"
    await open_until(session, path, path.read_text())
    lenses = await session.client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(path)))
    name = types.Range(start=types.Position(line=1, character=6), end=types.Position(line=1, character=10))
    references = await session.client.text_document_references_async(
        types.ReferenceParams(text_document=_doc(path), position=name.start, context=types.ReferenceContext(include_declaration=False))
    )
    assert len(references) == len(world.EDITED) + 1  # the uses, the mirror and the user root's, not the name
    assert [(lens.range, lens.command.title, lens.command.command, list(lens.command.arguments)) for lens in lenses] == [
        (name, f"used in {len(references)} places", "albedoSkills.showReferences", [uri(path), {"line": 1, "character": 6}])
    ]


def _long_skills(tmp_path):
    """Sixty skills of 900-character descriptions: 54,000 characters, more than Codex's budget of 10,000
    estimated tokens (about 40,000 bytes of listing), so it cuts them."""
    workspace, home = tmp_path / "ws", tmp_path / "home"
    (workspace / ".git").mkdir(parents=True)
    for index in range(60):
        world.skill(workspace / ".agents/skills", f"s{index:02d}", f"s{index:02d}", "word " * 179 + "last.")
    return workspace, home


async def test_the_hint_and_the_agents_lens_say_what_hosts_says(servers, tmp_path):
    workspace, home = _long_skills(tmp_path)
    session = await servers([workspace], home, caps=inline_caps(), settings={"hosts": ["codex", "claude-code"]})
    path = workspace / ".agents/skills/s00/SKILL.md"
    text = path.read_text()
    await open_until(session, path, text)
    env = dict(os.environ, HOME=str(home))
    report = subprocess.run([sys.executable, "-m", "albedo_skills_ls.cli", "hosts", "--format", "json", "--host", "codex"],
                            cwd=workspace, env=env, capture_output=True, check=True)
    seen = json.loads(report.stdout)["hosts"]["codex"]["skills"][str(path)]["description_seen"]
    assert 0 < len(seen) < 900
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=10, character=0))
    hints = await session.client.text_document_inlay_hint_async(types.InlayHintParams(text_document=_doc(path), range=whole))
    description_line = text.splitlines()[2]
    assert [(hint.position, hint.label) for hint in hints] == [
        (types.Position(line=2, character=len(description_line)), f"900 / 1,024 · cut to {len(seen)} in Codex CLI")
    ]
    lenses = await session.client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(path)))
    assert [lens.command.title for lens in lenses] == ["used in 0 places", "loads in 1 of 2 agents · not in Claude Code"]


async def test_the_hint_without_agents_is_the_length_alone(servers, tmp_path):
    workspace, home = world.build(tmp_path)
    session = await servers([workspace], home, caps=inline_caps())
    path = workspace / ".agents/skills/demo/SKILL.md"
    await open_until(session, path, path.read_text())
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=9, character=0))
    hints = await session.client.text_document_inlay_hint_async(types.InlayHintParams(text_document=_doc(path), range=whole))
    assert [hint.label for hint in hints] == [f"{len('Shows a demo of the data.')} / 1,024"]


async def test_folding_the_frontmatter_and_each_section(servers, tmp_path):
    workspace, home = world.build(tmp_path)
    session = await servers([workspace], home, caps=inline_caps())
    path = workspace / ".agents/skills/other/SKILL.md"
    text = "---\nname: other\ndescription: d.\n---\n# One\n\ntext\n## Two\nmore\n\n# Three\nlast\n"
    await open_until(session, path, text)
    folds = await session.client.text_document_folding_range_async(types.FoldingRangeParams(text_document=_doc(path)))
    assert [(fold.start_line, fold.end_line) for fold in folds] == [(0, 3), (4, 8), (7, 8), (10, 11)]


async def test_offered_only_to_clients_that_declare_them(servers, tmp_path):
    workspace, home = world.build(tmp_path)
    bare = await servers([workspace], home, caps=capabilities())
    offered = bare.result.capabilities
    assert (offered.workspace_symbol_provider, offered.code_lens_provider, offered.inlay_hint_provider,
            offered.folding_range_provider) == (None, None, None, None)
    full = (await servers([workspace], home, caps=inline_caps())).result.capabilities
    assert full.workspace_symbol_provider is not None and full.code_lens_provider is not None
    assert full.inlay_hint_provider is not None and full.folding_range_provider is not None


async def test_each_is_turned_off_by_its_setting(servers, tmp_path):
    workspace, home = world.build(tmp_path)
    off = {"workspaceSymbols": False, "codeLens": False, "inlayHints": False, "folding": False}
    session = await servers([workspace], home, caps=inline_caps(), settings=off)
    path = workspace / ".agents/skills/demo/SKILL.md"
    await open_until(session, path, path.read_text())
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=9, character=0))
    assert await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="")) is None
    assert await session.client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(path))) is None
    assert await session.client.text_document_inlay_hint_async(types.InlayHintParams(text_document=_doc(path), range=whole)) is None
    assert await session.client.text_document_folding_range_async(types.FoldingRangeParams(text_document=_doc(path))) is None
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"albedoSkills": {"codeLens": True}}))
    lenses = await session.client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(path)))
    assert [lens.command.title for lens in lenses] == [f"used in {len(world.EDITED) + 1} places"]  # uses, mirror, user root
