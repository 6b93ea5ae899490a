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
