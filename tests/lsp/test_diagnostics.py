"""Workspace-wide and live diagnostics, over stdio, push and pull."""

from __future__ import annotations

from lsprotocol import types

from .harness import capabilities, uri, valid, write_skill


async def test_unopened_files_in_workspace_and_user_roots_get_diagnostics(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    good = write_skill(ws / ".agents/skills", "good", valid("good"))
    bad = write_skill(ws / ".albedo/skills", "bad", "name: wrong\ndescription: x")
    user_bad = write_skill(home / ".albedo/skills", "mine", "name: mine")
    session = await servers([ws], home)
    assert session.codes(bad) == ["name-mismatch"]
    mismatch = session.diagnostics(bad)[0]
    assert mismatch.range == types.Range(start=types.Position(1, 6), end=types.Position(1, 11))
    assert mismatch.severity == types.DiagnosticSeverity.Error
    assert session.codes(user_bad) == ["description-missing"]
    assert session.diagnostics(good) == []


async def test_typing_an_error_reports_its_range_then_fixing_and_closing(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    path = write_skill(ws / ".agents/skills", "demo", valid("demo"))
    session = await servers([ws], home)
    assert session.diagnostics(path) == []
    published = session.expect("textDocument/publishDiagnostics")
    session.open(path, version=1)
    assert (await published).version == 1

    published = session.expect("textDocument/publishDiagnostics")
    session.change(path, "---\nname: demo\ndescription: ok\ndesciption: typo\n---\n", version=2)
    params = await published
    assert params.version == 2
    (typo,) = params.diagnostics
    assert typo.code == "field-unknown" and "description" in typo.message
    assert typo.range == types.Range(start=types.Position(3, 0), end=types.Position(3, 10))

    published = session.expect("textDocument/publishDiagnostics")
    session.change(path, "---\nname: demo\ndescription: ok\n---\n", version=3)
    assert list((await published).diagnostics) == []

    # an unsaved error in the buffer, then close: back to what the disk says (valid)
    published = session.expect("textDocument/publishDiagnostics")
    session.change(path, "---\nname: Demo\ndescription: ok\n---\n", version=4)
    assert [d.code for d in (await published).diagnostics] == ["name-invalid"]
    published = session.expect("textDocument/publishDiagnostics")
    session.close(path)
    closed = await published
    assert list(closed.diagnostics) == [] and closed.version is None


async def test_positions_are_utf16_with_emoji_and_cjk_before_the_error(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    path = write_skill(ws / ".agents/skills", "demo", valid("demo"))
    session = await servers([ws], home)
    published = session.expect("textDocument/publishDiagnostics")
    session.open(path)
    await published
    published = session.expect("textDocument/publishDiagnostics")
    # "😀" is 2 UTF-16 units, "日本" 2; the duplicate key `name` starts after them in a flow map
    session.change(path, '---\nname: demo\ndescription: ok\nmetadata: {"😀日本": a, name: b, name: c}\n---\n', 2)
    (duplicate,) = (await published).diagnostics
    assert duplicate.code == "yaml-duplicate-key"
    line = 'metadata: {"😀日本": a, name: b, name: c}'
    start_cp = line.rindex("name")
    assert duplicate.range.start == types.Position(3, start_cp + 1)  # one extra unit for the emoji
    assert duplicate.range.end == types.Position(3, start_cp + 1 + 4)


async def test_utf8_and_utf32_position_encodings_are_honoured(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    path = write_skill(ws / ".agents/skills", "demo", 'name: demo\ndescription: ok\nmetadata: {"é😀": a, x: [1]}')
    line = 'metadata: {"é😀": a, x: [1]}'
    start_cp = line.index("[1]")
    for encoding, expected in (("utf-8", start_cp + 1 + 3), ("utf-32", start_cp)):
        session = await servers([ws], home, caps=capabilities(encodings=[encoding]))
        assert session.result.capabilities.position_encoding == encoding
        (field_type,) = session.diagnostics(path)
        assert field_type.code == "field-type"
        assert field_type.range.start == types.Position(3, expected)


async def test_watched_file_events_bring_and_clear_a_collision(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    winner = write_skill(ws / ".albedo/skills", "demo", valid("demo"))
    session = await servers([ws], home)
    assert any(r.method == "workspace/didChangeWatchedFiles" for r in session.registrations)

    loser = write_skill(home / ".agents/skills", "demo", valid("demo", "Another demo."))
    changed = session.expect("albedoSkills/catalogChanged")
    session.files_changed((loser, types.FileChangeType.Created))
    await changed
    (collision,) = session.diagnostics(loser)
    assert collision.code == "collision" and collision.severity == types.DiagnosticSeverity.Warning
    assert str(winner) in collision.message
    (related,) = collision.related_information
    assert related.location.uri == uri(winner)
    assert related.location.range == types.Range(start=types.Position(1, 6), end=types.Position(1, 10))

    loser.unlink()
    loser.parent.rmdir()
    changed = session.expect("albedoSkills/catalogChanged")
    session.files_changed((loser, types.FileChangeType.Deleted))
    await changed
    assert session.diagnostics(loser) == []


async def test_a_storm_of_file_events_costs_one_reload(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_skill(ws / ".albedo/skills", "demo", valid("demo"))
    session = await servers([ws], home)
    before = len(session.announcements)
    paths = [write_skill(ws / ".agents/skills", f"s{i}", valid(f"s{i}")) for i in range(20)]
    changed = session.expect("albedoSkills/catalogChanged")
    for path in paths:
        session.files_changed((path, types.FileChangeType.Created))
    params = await changed
    assert params.skills == 21
    # a request after the storm is answered after the debounced reload: still exactly one announcement
    await session.command("commands.catalog")
    assert len(session.announcements) == before + 1


async def test_pull_clients_get_the_same_diagnostics_as_push_clients(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    bad = write_skill(ws / ".agents/skills", "bad", "name: wrong\ndescription: x")
    write_skill(home / ".albedo/skills", "mine", "name: mine")
    push = await servers([ws], home)
    pull = await servers([ws], home, caps=capabilities(pull=True))
    assert pull.result.capabilities.diagnostic_provider is not None
    assert push.result.capabilities.diagnostic_provider is None
    assert pull.client.diagnostics == {}  # nothing pushed to a pull client

    report = await pull.client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    pulled = {item.uri: list(item.items) for item in report.items if item.items}
    pushed = {u: list(d) for u, d in push.client.diagnostics.items() if d}
    assert pulled == pushed and len(pulled) == 2

    document = await pull.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri(bad)))
    )
    assert [d.code for d in document.items] == ["name-mismatch"]
    again = await pull.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri(bad)), previous_result_id=document.result_id
        )
    )
    assert again.kind == "unchanged" and again.result_id == document.result_id


async def test_a_client_without_progress_watchers_or_configuration_still_works(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    bad = write_skill(ws / ".agents/skills", "bad", "name: wrong\ndescription: x")
    session = await servers(
        [ws], home, caps=capabilities(progress=False, dynamic_watchers=False, configuration=False)
    )
    assert session.registrations == []
    assert session.client.progress_reports == {}
    assert session.codes(bad) == ["name-mismatch"]
    # without watchers, skills.reload is the way to pick up changes
    bad.write_text("---\nname: bad\ndescription: x\n---\n", encoding="utf-8")
    await session.command("skills.reload")
    assert session.codes(bad) == []


async def test_progress_is_reported_when_the_client_supports_it(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_skill(ws / ".agents/skills", "demo", valid("demo"))
    session = await servers([ws], home)
    (reports,) = session.client.progress_reports.values()
    assert [type(r).__name__ for r in (reports[0], reports[-1])] == ["WorkDoneProgressBegin", "WorkDoneProgressEnd"]
    assert "1 skill" in reports[-1].message


async def test_a_skill_file_outside_the_roots_is_checked_alone_when_opened(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_skill(ws / ".agents/skills", "demo", valid("demo"))
    stray = write_skill(tmp_path / "elsewhere", "thing", valid("demo"))
    session = await servers([ws], home)
    published = session.expect("textDocument/publishDiagnostics")
    session.open(stray)
    params = await published
    assert params.uri == uri(stray)
    assert [d.code for d in params.diagnostics] == ["name-mismatch"]  # its folder is `thing`; no collision rule


async def test_pull_clients_see_fixed_files_cleared_after_a_reload(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    bad = write_skill(ws / ".agents/skills", "bad", "name: wrong\ndescription: x")
    session = await servers([ws], home, caps=capabilities(pull=True))
    first = await session.client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    assert [(item.uri, [d.code for d in item.items]) for item in first.items] == [(uri(bad), ["name-mismatch"])]

    bad.write_text("---\nname: bad\ndescription: x\n---\n", encoding="utf-8")
    refreshes = session.client.diagnostic_refresh_count
    await session.command("skills.reload")
    assert session.client.diagnostic_refresh_count == refreshes + 1
    previous = [types.PreviousResultId(uri=item.uri, value=item.result_id) for item in first.items]
    second = await session.client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous))
    assert [(item.uri, item.kind, list(item.items)) for item in second.items] == [(uri(bad), "full", [])]


async def test_typing_a_license_file_name_is_checked_against_the_skill_folder(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    path = write_skill(ws / ".agents/skills", "demo", valid("demo"))
    (path.parent / "LICENSE.txt").write_text("terms\n", encoding="utf-8")
    session = await servers([ws], home)
    published = session.expect("textDocument/publishDiagnostics")
    session.open(path, version=1)
    await published

    published = session.expect("textDocument/publishDiagnostics")
    session.change(path, "---\nname: demo\ndescription: ok\nlicense: Terms 📜 in TÉRMS.md\n---\n", version=2)
    (missing,) = (await published).diagnostics
    assert missing.code == "license-file-missing" and missing.severity == types.DiagnosticSeverity.Warning
    assert missing.message.startswith("`license` names `TÉRMS.md`, which does not exist in the skill folder")
    # UTF-16 columns: the scroll before the name is two code units
    assert missing.range == types.Range(start=types.Position(3, 21), end=types.Position(3, 29))

    published = session.expect("textDocument/publishDiagnostics")
    session.change(path, "---\nname: demo\ndescription: ok\nlicense: Terms in LICENSE.txt\n---\n", version=3)
    assert list((await published).diagnostics) == []
