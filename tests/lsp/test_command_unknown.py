"""`command-unknown` over stdio: published on a skill's buffer as typed, on the saved `AGENTS.md` and skills,
in a chat buffer instead of `unknown-command` when a command is near; the quick fix writes the command, and
after a rename a `/old` typed later is named for what it became."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .editing import apply_edits, change_until, codes, edits_for, feature_caps, open_until, span
from .harness import uri, valid, write_skill
from .rename_client import apply_to_disk, rename_caps

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

OTHER = "# Other\n\nBefore anything else, run /demoo first.\nWrite to /tmp; `ls /demoo`.\n"


def workspace(tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".git").mkdir(parents=True)
    write_skill(ws / ".agents/skills", "demo", valid("demo"))
    other = write_skill(ws / ".agents/skills", "other", valid("other"), OTHER)
    (ws / "AGENTS.md").write_text("Use the skills: /demoo merges files.\n", encoding="utf-8")
    return ws, home, other


def unknown(session, path):
    return [(d.range, d.message, d.severity) for d in session.diagnostics(path) if d.code == "command-unknown"]


async def actions_for(session, path, diagnostic):
    result = await session.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(path)), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic])))
    return list(result or [])


async def test_saved_files_and_a_typed_buffer_show_it_and_the_fix_removes_it(servers, tmp_path):
    ws, home, other = workspace(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    agents = ws / "AGENTS.md"
    assert unknown(session, agents) == [(
        types.Range(start=types.Position(0, 16), end=types.Position(0, 22)),
        "`/demoo` is no command here; did you mean `/demo`?", types.DiagnosticSeverity.Warning,
    )]
    text = other.read_text()
    assert [r for r, _m, _s in unknown(session, other)] == [span(text, "/demoo")]  # saved, not open
    await open_until(session, other, text)
    (diagnostic,) = [d for d in session.diagnostics(other) if d.code == "command-unknown"]
    (action,) = await actions_for(session, other, diagnostic)
    assert action.title == "Change to `/demo`" and action.is_preferred
    fixed = apply_edits(text, edits_for(action.edit, uri(other)))
    assert fixed == text.replace("run /demoo first", "run /demo first")
    await change_until(session, other, fixed, 2, lambda: "command-unknown" not in codes(session, other))
    typed = fixed.replace("run /demo first", "run /dmeo first")
    await change_until(session, other, typed, 3, lambda: "command-unknown" in codes(session, other))
    assert [m for _r, m, _s in unknown(session, other)] == ["`/dmeo` is no command here; did you mean `/demo`?"]


async def test_an_open_agents_file_is_checked_as_typed_and_offers_the_fix(servers, tmp_path):
    """The editors send AGENTS.md, CLAUDE.md and GEMINI.md: the warning follows the buffer, not the disk,
    and the quick fix edits the buffer."""
    ws, home, _other = workspace(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    agents = ws / "AGENTS.md"
    text = agents.read_text()
    await open_until(session, agents, text, language_id="markdown")
    (diagnostic,) = [d for d in session.diagnostics(agents) if d.code == "command-unknown"]
    (action,) = await actions_for(session, agents, diagnostic)
    assert action.title == "Change to `/demo`"
    fixed = apply_edits(text, edits_for(action.edit, uri(agents)))
    assert fixed == "Use the skills: /demo merges files.\n"
    await change_until(session, agents, fixed, 2, lambda: "command-unknown" not in codes(session, agents))
    assert agents.read_text() == text  # unsaved: the buffer alone is fixed
    typed = fixed + "Then /dmeo again.\n"
    await change_until(session, agents, typed, 3, lambda: "command-unknown" in codes(session, agents))
    assert [r for r, _m, _s in unknown(session, agents)] == [span(typed, "/dmeo")]
    gemini = ws / "docs" / "GEMINI.md"  # by its name, in any folder
    gemini.parent.mkdir()
    await open_until(session, gemini, "Run /deom.\n", lambda: "command-unknown" in codes(session, gemini))


async def test_a_chat_buffer_gets_the_warning_where_a_command_is_near(servers, tmp_path):
    ws, home, _other = workspace(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "notes.chat.md"
    text = "/demoo go\n/nothing-near here\nthen /demoo again\n"
    await open_until(session, chat, text, language_id="markdown")
    found = sorted((d.range.start.line, d.code) for d in session.diagnostics(chat))
    assert found == [(0, "command-unknown"), (1, "unknown-command"), (2, "command-unknown")]
    first = next(d for d in session.diagnostics(chat) if d.range.start.line == 0)
    (action,) = await actions_for(session, chat, first)
    assert apply_edits(text, edits_for(action.edit, uri(chat))).startswith("/demo go\n")


async def test_after_a_rename_the_old_command_is_named_for_the_new_one(servers, tmp_path):
    ws, home, _other = workspace(tmp_path)
    session = await servers([ws], home, caps=rename_caps())
    skill = ws / ".agents/skills/demo/SKILL.md"
    await open_until(session, skill, skill.read_text())
    edit = await session.client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri(skill)), position=types.Position(1, 7), new_name="showcase"))
    apply_to_disk(edit)  # as the editor applies it
    chat = ws / "later.chat.md"
    session.close(skill)
    await session.command("skills.reload")
    await open_until(session, chat, "then run /demo again\n",
                     lambda: any(d.code == "command-unknown" for d in session.diagnostics(chat)))
    assert [d.message for d in session.diagnostics(chat)] == [
        "`/demo` is no command here: `demo` was renamed to `showcase`; did you mean `/showcase`?"
    ]


async def test_the_agent_files_are_watched_and_follow_the_disk(servers, tmp_path):
    ws, home, _other = workspace(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    (registration,) = [r for r in session.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    globs = [watcher["globPattern"] for watcher in registration.register_options["watchers"]]  # as sent
    patterns = [g if isinstance(g, str) else f"{g['baseUri']}/{g['pattern']}" for g in globs]
    assert any(p.endswith("/**/{AGENTS.md,CLAUDE.md,GEMINI.md,*.chat.md}") and str(ws) in p for p in patterns), patterns
    agents = ws / "AGENTS.md"
    assert len(unknown(session, agents)) == 1
    agents.write_text("Use the skills: /demo merges files, then /dmeo and /demoo.\n", encoding="utf-8")
    changed = session.expect("albedoSkills/catalogChanged")
    session.files_changed((agents, types.FileChangeType.Changed))
    await changed
    assert [m for _r, m, _s in unknown(session, agents)] == [
        "`/dmeo` is no command here; did you mean `/demo`?", "`/demoo` is no command here; did you mean `/demo`?"
    ]
    agents.write_text("Use the skills: /demo merges files.\n", encoding="utf-8")
    changed = session.expect("albedoSkills/catalogChanged")
    session.files_changed((agents, types.FileChangeType.Changed))
    await changed
    assert unknown(session, agents) == []
