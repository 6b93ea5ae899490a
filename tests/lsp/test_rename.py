"""Rename and references over stdio, from each starting point, with the files on disk afterwards: the
workspace of tests/rename_world.py, renamed `demo` -> `showcase`."""

from __future__ import annotations

import os

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

import rename_world as world

from .editing import open_until, start_of
from .harness import capabilities, uri
from .rename_client import apply_to_disk, finish, rename_caps

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

SKILL_TEXT = "---\nname: demo\ndescription: Shows a demo of the data.\n---\n# Demo\n\nRun [the script](scripts/run.sh).\n"


def _doc(path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri(path))


async def _started(servers, tmp_path, caps=None, settings=None):
    workspace, home = world.build(tmp_path)
    session = await servers([workspace], home, caps=caps or rename_caps(), settings=settings)
    return workspace, home, session


async def _renamed_on_disk(session, workspace, home, edit, before, then=lambda: None) -> None:
    apply_to_disk(edit)
    then()  # what the editor does itself after the edit (renaming the folder it was asked to)
    done = finish(workspace, home, "demo", "showcase")
    assert done.returncode == 0 and done.stdout == b"re-link .claude/skills/demo as .claude/skills/showcase -> ../../.agents/skills/showcase\n"
    assert world.snapshot(workspace) == world.expected_after(before)
    messages = [message.message for message in session.client.messages]
    # each link named, where it is and what the command makes of it
    assert any(
        "still point at the old folder, which an editor cannot change: `.claude/skills/demo` (to become "
        "`.claude/skills/showcase` -> `../../.agents/skills/showcase`); run `albedo-skills rename demo showcase` "
        "to rename and re-point them" in message for message in messages
    )
    assert any("1 mention(s) outside the workspace were left as they are: " in message for message in messages)


async def test_rename_from_the_name_field(servers, tmp_path):
    workspace, home, session = await _started(servers, tmp_path)
    before = world.snapshot(workspace)
    path = workspace / ".agents/skills/demo/SKILL.md"
    await open_until(session, path, SKILL_TEXT)
    where = types.Position(line=1, character=8)
    prepared = await session.client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=_doc(path), position=where))
    assert prepared == types.PrepareRenamePlaceholder(
        range=types.Range(start=types.Position(line=1, character=6), end=types.Position(line=1, character=10)), placeholder="demo"
    )
    edit = await session.client.text_document_rename_async(types.RenameParams(text_document=_doc(path), position=where, new_name="showcase"))
    kinds = [type(change).__name__ for change in edit.document_changes]
    assert kinds == ["RenameFile"] + ["TextDocumentEdit"] * 6  # the folder first, then the text edits
    folder = edit.document_changes[0]
    skill_edit = next(change for change in edit.document_changes[1:] if change.text_document.uri.endswith("/SKILL.md")
                      and "/showcase/" in change.text_document.uri)
    assert skill_edit.text_document.version is None  # the renamed file, addressed by its new name
    assert (folder.old_uri, folder.new_uri) == (uri(workspace / ".agents/skills/demo"), uri(workspace / ".agents/skills/showcase"))
    # VS Code asks the file-operation participants about that RenameFile too: nothing more is offered for it
    participant = await session.client.workspace_will_rename_files_async(
        types.RenameFilesParams(files=[types.FileRename(old_uri=folder.old_uri, new_uri=folder.new_uri)])
    )
    assert participant is None
    # the mirror link is not in the edit: the whole rename asks for confirmation (one annotation on every
    # change, so a preview that starts it unchecked applies all or nothing) and names what finishes it
    assert folder.annotation_id == "albedo-skills.relink"
    assert {edit.annotation_id for change in edit.document_changes[1:] for edit in change.edits} == {"albedo-skills.relink"}
    assert edit.change_annotations["albedo-skills.relink"].needs_confirmation is True
    assert edit.change_annotations["albedo-skills.relink"].description == (
        "Mirror link(s) in other agents' folders that an editor cannot re-point: `.claude/skills/demo` (to become "
        "`.claude/skills/showcase` -> `../../.agents/skills/showcase`); they point at the old folder until "
        "`albedo-skills rename demo showcase` renames and re-points them"
    )
    await _renamed_on_disk(session, workspace, home, edit, before)


async def test_rename_from_a_command_in_a_chat_buffer(servers, tmp_path):
    workspace, home, session = await _started(servers, tmp_path)
    before = world.snapshot(workspace)
    chat = workspace / "notes.chat.md"
    await open_until(session, chat, world.CHAT)
    edit = await session.client.text_document_rename_async(
        types.RenameParams(text_document=_doc(chat), position=types.Position(line=2, character=9), new_name="showcase")
    )
    await _renamed_on_disk(session, workspace, home, edit, before)


async def test_rename_and_references_from_a_sentence_of_agents_md(servers, tmp_path):
    """The editors send AGENTS.md: F2 on its `/demo` in a sentence renames the skill as from anywhere else."""
    workspace, home, session = await _started(servers, tmp_path)
    before = world.snapshot(workspace)
    agents, chat = workspace / "AGENTS.md", workspace / "notes.chat.md"
    await open_until(session, agents, world.AGENTS_MD)
    await open_until(session, chat, world.CHAT)
    line = world.AGENTS_MD.split("\n")[4]  # "Use the skills: /demo merges files ..."
    at = types.Position(line=4, character=line.index("/demo") + 2)

    async def references(document, position):
        found = await session.client.text_document_references_async(types.ReferenceParams(
            text_document=_doc(document), position=position, context=types.ReferenceContext(include_declaration=False)))
        return sorted((location.uri, location.range.start.line, location.range.start.character) for location in found)

    assert await references(agents, at) == await references(chat, types.Position(line=0, character=2))
    prepared = await session.client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=_doc(agents), position=at))
    assert prepared.placeholder == "demo"
    edit = await session.client.text_document_rename_async(types.RenameParams(text_document=_doc(agents), position=at, new_name="showcase"))
    await _renamed_on_disk(session, workspace, home, edit, before)


async def test_renaming_the_folder_in_the_file_tree(servers, tmp_path):
    workspace, home, session = await _started(servers, tmp_path)
    before = world.snapshot(workspace)
    registered = session.result.capabilities.workspace.file_operations.will_rename
    assert registered.filters[0].pattern.glob == "**/{.albedo,.agents}/skills/*"
    old, new = workspace / ".agents/skills/demo", workspace / ".agents/skills/showcase"
    edit = await session.client.workspace_will_rename_files_async(
        types.RenameFilesParams(files=[types.FileRename(old_uri=uri(old), new_uri=uri(new))])
    )
    # the folder is the editor's to rename, the mirror link the finishing command's: only text edits
    assert {type(change) for change in edit.document_changes} == {types.TextDocumentEdit}
    await _renamed_on_disk(session, workspace, home, edit, before, lambda: os.rename(old, new))


async def test_references_are_every_mention_and_nothing_else(servers, tmp_path):
    workspace, home, session = await _started(servers, tmp_path)
    chat = workspace / "notes.chat.md"
    await open_until(session, chat, world.CHAT)
    found = await session.client.text_document_references_async(
        types.ReferenceParams(
            text_document=_doc(chat),
            position=types.Position(line=0, character=2),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    places = sorted((location.uri, location.range.start.line) for location in found)
    expected = [(uri(workspace / path), line) for path, line, kind in world.EDITED if kind != "name"]
    expected += [(uri(workspace / ".claude/skills/demo/SKILL.md"), 0), (uri(home / ".agents/skills/mine/SKILL.md"), 6)]
    assert places == sorted(expected)
    helper = next(location for location in found if location.uri.endswith("helper.md") and "block" not in location.uri)
    assert helper.range == types.Range(start=types.Position(line=3, character=9), end=types.Position(line=3, character=13))
    with_name = await session.client.text_document_references_async(
        types.ReferenceParams(
            text_document=_doc(chat), position=types.Position(line=0, character=2), context=types.ReferenceContext(include_declaration=True)
        )
    )
    assert len(with_name) == len(found) + 1
    # the longer name is another skill with mentions of its own, none of them `demo`'s
    extra = await session.client.text_document_references_async(
        types.ReferenceParams(
            text_document=_doc(chat), position=start_of(world.CHAT, "demo-extra"), context=types.ReferenceContext(include_declaration=True)
        )
    )
    assert sorted((location.uri, location.range.start.line) for location in extra) == sorted(
        (uri(workspace / path), line)
        for path, line in [(".agents/skills/demo-extra/SKILL.md", 1), (".agents/skills/other/SKILL.md", 8),
                           (".agents/skills/other/SKILL.md", 9), ("AGENTS.md", 2), ("notes.chat.md", 1),
                           (".claude/agents/helper.md", 3), (".claude/agents/block-helper.md", 4)]
    )


async def test_a_client_that_cannot_rename_files_is_told_why(servers, tmp_path):
    workspace, _home, session = await _started(servers, tmp_path, rename_caps(files=False))
    before = world.snapshot(workspace)
    path = workspace / ".agents/skills/demo/SKILL.md"
    await open_until(session, path, SKILL_TEXT)
    with pytest.raises(JsonRpcException) as refused:
        await session.client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=_doc(path), position=types.Position(line=1, character=8))
        )
    assert "cannot rename a folder through a language server, and renaming a skill renames its folder: run " \
        "`albedo-skills rename demo NEW` in a terminal instead" in str(refused.value)
    assert world.snapshot(workspace) == before


async def test_a_taken_name_is_refused_with_the_reason(servers, tmp_path):
    workspace, _home, session = await _started(servers, tmp_path)
    path = workspace / ".agents/skills/demo/SKILL.md"
    await open_until(session, path, SKILL_TEXT)
    with pytest.raises(JsonRpcException) as refused:
        await session.client.text_document_rename_async(
            types.RenameParams(text_document=_doc(path), position=types.Position(line=1, character=8), new_name="demo-extra")
        )
    assert "cannot rename `demo` to `demo-extra`: `demo-extra` is already the name of " in str(refused.value)


async def test_offered_only_to_clients_that_declare_them(servers, tmp_path):
    _workspace, _home, bare = await _started(servers, tmp_path / "bare", capabilities())
    assert bare.result.capabilities.rename_provider is None
    assert bare.result.capabilities.references_provider is None
    assert bare.result.capabilities.workspace.file_operations.will_rename is None
    _workspace, _home, full = await _started(servers, tmp_path / "full")
    assert full.result.capabilities.rename_provider == types.RenameOptions(prepare_provider=True)
    assert full.result.capabilities.references_provider is not None


async def test_the_setting_turns_rename_and_references_off(servers, tmp_path):
    workspace, _home, session = await _started(servers, tmp_path, settings={"rename": False, "references": False})
    chat = workspace / "notes.chat.md"
    await open_until(session, chat, world.CHAT)
    at = types.Position(line=0, character=2)
    assert await session.client.text_document_rename_async(types.RenameParams(text_document=_doc(chat), position=at, new_name="x")) is None
    assert await session.client.text_document_references_async(
        types.ReferenceParams(text_document=_doc(chat), position=at, context=types.ReferenceContext(include_declaration=True))
    ) is None


async def test_a_command_in_a_sentence_of_a_skill_starts_references_and_rename(servers, tmp_path):
    workspace, _home, session = await _started(servers, tmp_path)
    chat = workspace / "notes.chat.md"
    other = workspace / ".agents/skills/other/SKILL.md"
    await open_until(session, chat, world.CHAT)
    await open_until(session, other, other.read_text())
    line = other.read_text().split("\n")[10]  # "Before anything else, run /demo first. If the merge fails, run (/demo)..."
    at = types.Position(line=10, character=line.index("(/demo)") + 3)

    async def references(document, position):
        found = await session.client.text_document_references_async(types.ReferenceParams(
            text_document=_doc(document), position=position, context=types.ReferenceContext(include_declaration=False)))
        return sorted((location.uri, location.range.start.line, location.range.start.character) for location in found or [])

    from_sentence = await references(other, at)
    assert from_sentence == await references(chat, types.Position(line=0, character=2))
    # every in-sentence mention, each at its name
    assert [place[2] for place in from_sentence if place[:2] == (uri(other), 10)] == [
        index + 1 for index in range(len(line)) if line.startswith("/demo", index) and line[index - 1] in ' ("\'*_'
    ]
    prepared = await session.client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=_doc(other), position=at))
    assert prepared.placeholder == "demo" and prepared.range.start == types.Position(line=10, character=at.character - 1)
    # a `/word` no skill has, a path and a command in the middle of a code span start nothing
    traps = other.read_text().split("\n")[11]  # "Traps: /demo.md, /demo-, ... `ls /demo -la`, [x](/demo), /tmp/demo."
    for word in ("/demo.md", "/demo-,", "/demo:x", "ls /demo", "(/demo)", "/tmp/demo"):
        position = types.Position(line=11, character=traps.index(word) + word.index("/demo") + 2)
        assert await references(other, position) == [], word
