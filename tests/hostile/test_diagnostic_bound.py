"""What one file publishes is bounded: MAX_FILE_DIAGNOSTICS, the most severe first, plus
one note saying how many more. Tested at the bound and one past it, in the engine and over stdio."""

from __future__ import annotations

import asyncio

import pytest

from albedo_skills_ls.skills.catalog.session import bounded_file_diagnostics
from albedo_skills_ls.skills.core.limits import MAX_FILE_DIAGNOSTICS
from albedo_skills_ls.skills.core.model import ERROR, INFORMATION, WARNING, Diagnostic, Range
from lsp.editing import feature_caps, open_until
from lsp.harness import valid, write_skill

from .guard import HANG_GUARD_SECONDS


def findings(count: int, severity=WARNING) -> tuple[Diagnostic, ...]:
    return tuple(Diagnostic("/x/SKILL.md", "reference-missing", severity, f"m{n}", Range.of(n, 0)) for n in range(count))


def test_engine_keeps_every_diagnostic_up_to_the_bound():
    assert bounded_file_diagnostics("/x/SKILL.md", findings(MAX_FILE_DIAGNOSTICS)) == findings(MAX_FILE_DIAGNOSTICS)


def test_engine_keeps_the_bound_plus_one_note_past_it():
    kept = bounded_file_diagnostics("/x/SKILL.md", findings(MAX_FILE_DIAGNOSTICS + 1))
    assert len(kept) == MAX_FILE_DIAGNOSTICS + 1
    notes = [d for d in kept if d.code == "diagnostic-limit"]
    assert len(notes) == 1 and notes[0].severity == INFORMATION
    assert "1 more diagnostic is not shown" in notes[0].message
    assert kept[1:] == findings(MAX_FILE_DIAGNOSTICS)  # document order among equals: the last one dropped


def test_the_most_severe_are_the_ones_kept():
    mixed = findings(MAX_FILE_DIAGNOSTICS + 10) + (
        Diagnostic("/x/SKILL.md", "name-mismatch", ERROR, "late error", Range.of(100_000, 0)),
    )
    kept = bounded_file_diagnostics("/x/SKILL.md", mixed)
    assert any(d.severity == ERROR for d in kept)
    assert "11 more diagnostics are not shown" in kept[0].message


@pytest.mark.parametrize("extra", [0, 1])
async def test_a_chat_buffer_publishes_at_most_the_bound_plus_a_note(servers, tmp_path, extra):
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_skill(ws / ".agents/skills", "demo", valid("demo"))
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "talk.chat.md"
    text = "".join(f"/nosuch{n} please\n" for n in range(MAX_FILE_DIAGNOSTICS + extra))
    await open_until(session, chat, text, lambda: bool(session.diagnostics(chat)))
    codes = session.codes(chat)
    assert len(codes) == MAX_FILE_DIAGNOSTICS + extra
    assert codes.count("diagnostic-limit") == extra


async def test_a_huge_skill_file_of_missing_links_publishes_a_bounded_list(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    body = "".join(f"[x](references/missing-{n}.md)\n" for n in range(30_000))  # ~1 MiB
    path = write_skill(ws / ".agents/skills", "demo", valid("demo"), body)
    session = await asyncio.wait_for(servers([ws], home, caps=feature_caps()), HANG_GUARD_SECONDS)
    await asyncio.wait_for(
        open_until(session, path, path.read_text(encoding="utf-8"), lambda: bool(session.diagnostics(path))),
        HANG_GUARD_SECONDS,
    )
    codes = session.codes(path)
    assert len(codes) == MAX_FILE_DIAGNOSTICS + 1 and codes.count("diagnostic-limit") == 1
