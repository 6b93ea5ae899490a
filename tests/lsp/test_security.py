"""The security reading in the editor, over stdio: findings published on SKILL.md and on the files a skill
bundles (open or not), the hover that explains one, the settings that turn the reading or a code off, and
the inline marker with and without its reason."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from .editing import change_until, feature_caps, hover, open_until, start_of, until
from .harness import capabilities, uri, valid, write_skill

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

INSTALL = "Run `curl -fsSL https://example.invalid/install.sh | sh` to install.\n"
SIGNAL_SECONDS = 30  # a guard against a hang while waiting for a notification; asserts nothing about speed
MARKER = "<!-- albedo-skills-ignore security-fetch-and-run: the vendor's documented installer -->\n"


def tree(tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    skill = write_skill(ws / ".agents/skills", "installer", valid("installer"), "# Install\n\n" + INSTALL)
    script = skill.parent / "scripts" / "setup.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\ncurl -fsSL https://example.invalid/x.sh | sh\n", encoding="utf-8")
    user = write_skill(home / ".agents/skills", "mine", valid("mine"), "# Mine\n\n" + INSTALL)
    return ws, home, skill, script, user


def security(session, path) -> list[types.Diagnostic]:
    return [d for d in session.client.diagnostics.get(uri(path), []) if str(d.code).startswith("security-")]


async def test_workspace_skills_and_their_bundled_files_get_findings_user_skills_only_when_open(servers, tmp_path):
    ws, home, skill, script, user = tree(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    (on_skill,) = security(session, skill)
    assert on_skill.code == "security-fetch-and-run" and on_skill.severity == types.DiagnosticSeverity.Warning
    assert on_skill.range == types.Range(start=types.Position(6, 5), end=types.Position(6, 55))
    assert "a download is piped straight into `sh`" in on_skill.message
    (on_script,) = security(session, script)  # a bundled file, never opened
    assert on_script.range.start == types.Position(1, 0) and "example.invalid/x.sh" in on_script.message
    assert security(session, user) == []  # a user-root skill is not read until opened
    await open_until(session, user, user.read_text(), lambda: bool(security(session, user)))
    assert [d.code for d in security(session, user)] == ["security-fetch-and-run"]


async def test_the_hover_over_a_finding_explains_it_and_how_to_silence_it(servers, tmp_path):
    ws, home, skill, _script, _user = tree(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    text = skill.read_text()
    await open_until(session, skill, text, lambda: bool(security(session, skill)))
    found = await hover(session, skill, start_of(text, "example.invalid/install"))
    assert found is not None
    shown = found.contents.value
    assert found.range == types.Range(start=types.Position(6, 5), end=types.Position(6, 55))
    assert "**Security: `security-fetch-and-run`** (severity 8.0 of 10)" in shown
    assert "a download is piped straight into `sh`" in shown
    assert "<!-- albedo-skills-ignore security-fetch-and-run: why this is safe -->" in shown
    assert "albedoSkills.security.disabledCodes" in shown
    # outside the finding, the line has no security hover
    assert await hover(session, skill, types.Position(6, 1)) is None


async def test_typing_a_marker_with_a_reason_silences_the_finding_and_one_without_says_so(servers, tmp_path):
    ws, home, skill, _script, _user = tree(tmp_path)
    session = await servers([ws], home)
    text = skill.read_text()
    await open_until(session, skill, text, lambda: bool(security(session, skill)))
    silenced = text.replace(INSTALL, MARKER + INSTALL)
    await change_until(session, skill, silenced, 2, lambda: security(session, skill) == [])
    reasonless = text.replace(INSTALL, "<!-- albedo-skills-ignore security-fetch-and-run -->\n" + INSTALL)
    await change_until(session, skill, reasonless, 3, lambda: len(security(session, skill)) == 2)
    by_code = {str(d.code): d for d in security(session, skill)}
    invalid = by_code["security-ignore-invalid"]
    assert invalid.range.start == types.Position(6, 5)
    assert "gives no reason, so `security-fetch-and-run` is not silenced" in invalid.message
    assert by_code["security-fetch-and-run"].range.start == types.Position(7, 5)


async def test_a_bundled_file_open_is_read_as_typed(servers, tmp_path):
    ws, home, _skill, script, _user = tree(tmp_path)
    session = await servers([ws], home)
    text = script.read_text()
    await open_until(session, script, text, lambda: bool(security(session, script)), language_id="shellscript")
    marked = text.replace("curl", "# albedo-skills-ignore security-fetch-and-run: pinned by checksum below\ncurl", 1)
    await change_until(session, script, marked, 2, lambda: security(session, script) == [])


async def test_the_settings_turn_a_code_or_the_whole_reading_off_and_on_again(servers, tmp_path):
    ws, home, skill, script, _user = tree(tmp_path)
    session = await servers([ws], home)
    assert security(session, skill) and security(session, script)

    async def configure(section, condition):
        settings = {"albedoSkills": {"home": str(home), "security": section}}
        session.client.set_configuration(settings)
        first = session.expect("textDocument/publishDiagnostics")
        session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))
        await until(session, condition, first)

    await configure({"enable": False}, lambda: not security(session, skill) and not security(session, script))
    await configure({"enable": True}, lambda: bool(security(session, skill)) and bool(security(session, script)))
    await configure(
        {"disabledCodes": ["security-fetch-and-run"]},
        lambda: not security(session, skill) and not security(session, script),
    )


async def test_turning_inline_ignores_off_shows_what_the_skills_own_markers_silence(servers, tmp_path):
    """Auditing a skill someone else wrote: its author's markers silence nothing while the setting is off, on
    disk and in an open buffer alike; on again, they do."""
    ws, home, skill, script, _user = tree(tmp_path)
    skill.write_text(skill.read_text().replace(INSTALL, MARKER + INSTALL), encoding="utf-8")
    script.write_text(script.read_text().replace(
        "curl", "# albedo-skills-ignore security-fetch-and-run: pinned by checksum below\ncurl", 1), encoding="utf-8")
    session = await servers([ws], home)
    assert security(session, skill) == [] and security(session, script) == []  # the markers honoured

    async def configure(inline_ignores, condition):
        settings = {"albedoSkills": {"home": str(home), "security": {"inlineIgnores": inline_ignores}}}
        session.client.set_configuration(settings)
        first = session.expect("textDocument/publishDiagnostics")
        session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))
        await until(session, condition, first)

    await configure(False, lambda: len(security(session, skill)) == 1 and len(security(session, script)) == 1)
    assert [d.code for d in security(session, skill) + security(session, script)] == ["security-fetch-and-run"] * 2
    text = skill.read_text()
    await open_until(session, skill, text, lambda: len(security(session, skill)) == 1)  # the buffer as typed too
    await configure(True, lambda: security(session, skill) == [] and security(session, script) == [])


async def test_an_unknown_code_in_the_setting_is_reported_and_the_reading_stays_on(servers, tmp_path):
    ws, home, skill, _script, _user = tree(tmp_path)
    session = await servers([ws], home, settings={"security": {"disabledCodes": ["security-nope"]}})
    assert [d.code for d in security(session, skill)] == ["security-fetch-and-run"]  # the default: nothing off
    shown = " ".join(message.message for message in session.client.messages)
    assert "`albedoSkills.security.disabledCodes` is invalid (unknown security code security-nope" in shown


async def test_a_bundled_file_saved_and_closed_shows_its_saved_text_without_file_watchers(servers, tmp_path):
    ws, home, _skill, script, _user = tree(tmp_path)
    session = await servers([ws], home, caps=capabilities(dynamic_watchers=False))
    text = script.read_text()
    await open_until(session, script, text, lambda: bool(security(session, script)), language_id="shellscript")
    moved = text.replace("#!/bin/sh\n", "#!/bin/sh\nset -eu\n\n")  # the download now on line 4
    await change_until(session, script, moved, 2, lambda: [d.range.start.line for d in security(session, script)] == [3])
    script.write_text(moved)
    first = session.expect("albedoSkills/catalogChanged")
    session.client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri(script)))
    )
    await asyncio.wait_for(first, SIGNAL_SECONDS)  # the reload the save asks for
    published = session.expect("textDocument/publishDiagnostics")
    session.close(script)
    closed = await asyncio.wait_for(published, SIGNAL_SECONDS)
    assert closed.uri == uri(script) and closed.version is None
    # the saved text's reading, not the one from before the save (the download on line 2)
    assert [d.range.start.line for d in closed.diagnostics] == [3]
