"""Hover on SKILL.md frontmatter keys over stdio: meaning, requirement, bounds, host-specific keys."""

from __future__ import annotations

import pytest
from lsprotocol import types

from albedo_skills_ls.skills.core import limits

from .editing import end_of, feature_caps, hover, open_until, span
from .harness import write_skill

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

TEXT = (
    "---\n"
    "name: pdf-tools\n"
    "description: Reads 😀 PDFs.\n"
    "license: MIT\n"
    "compatibility: Needs poppler.\n"
    "metadata:\n"
    "  author: me\n"
    "allowed-tools: Read Grep\n"
    "user-invocable: true\n"
    "desciption: typo\n"
    "---\n"
    "# Body\n"
)


async def start(servers, tmp_path, **caps):
    ws, home = tmp_path / "ws", tmp_path / "home"
    path = write_skill(ws / ".agents/skills", "pdf-tools", "name: pdf-tools\ndescription: Reads PDFs.")
    session = await servers([ws], home, caps=feature_caps(**caps))
    await open_until(session, path, TEXT)
    return session, path


async def on_key(session, path, key: str) -> types.Hover:
    where = span(TEXT, f"\n{key}:")
    position = types.Position(line=where.start.line + 1, character=1)
    found = await hover(session, path, position)
    assert found is not None, key
    assert found.range == types.Range(
        start=types.Position(line=position.line, character=0), end=types.Position(line=position.line, character=len(key))
    )
    return found


async def test_every_known_field_explains_itself_with_its_bounds(servers, tmp_path):
    session, path = await start(servers, tmp_path)
    expectations = {
        "name": ["Required", str(limits.MAX_NAME_CHARS), "folder"],
        "description": ["Required", f"{limits.MAX_DESCRIPTION_CHARS:,}"],
        "license": ["Optional", "SPDX"],
        "compatibility": ["Optional", str(limits.MAX_COMPATIBILITY_CHARS)],
        "metadata": ["Optional", "string"],
        "allowed-tools": ["Optional", "grants no permission"],
    }
    for key, fragments in expectations.items():
        found = await on_key(session, path, key)
        assert found.contents.kind == types.MarkupKind.Markdown
        for fragment in fragments:
            assert fragment in found.contents.value, (key, fragment)


async def test_host_specific_and_misspelled_keys(servers, tmp_path):
    session, path = await start(servers, tmp_path)
    host = await on_key(session, path, "user-invocable")
    assert "Albedo ignores this field" in host.contents.value
    typo = await on_key(session, path, "desciption")
    assert "did you mean `description`" in typo.contents.value


async def test_no_hover_on_values_metadata_keys_or_the_body(servers, tmp_path):
    session, path = await start(servers, tmp_path)
    assert await hover(session, path, end_of(TEXT, "Reads 😀")) is None
    assert await hover(session, path, end_of(TEXT, "  auth")) is None
    assert await hover(session, path, types.Position(line=11, character=2)) is None


async def test_plain_text_for_clients_without_markdown(servers, tmp_path):
    session, path = await start(servers, tmp_path, markdown=False)
    found = await on_key(session, path, "name")
    assert found.contents.kind == types.MarkupKind.PlainText
