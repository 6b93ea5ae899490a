"""`insertTextMode: asIs` on every completion item, for a client that declares it (lsp-mode 8.0 does).

Without it lsp-mode re-indents an accepted item with the major mode's indent function, and markdown-mode
2.5's never returned on a chat line (tests/clients/test_lsp_mode.py is the editor's side). The items' text is
exact, so no client should adjust it; a client that does not declare the mode gets no field.
"""

from __future__ import annotations

import pytest
from lsprotocol import types

from .editing import complete, end_of, feature_caps, open_until
from .harness import valid, write_skill

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

AS_IS = types.InsertTextMode.AsIs


def caps_with_insert_modes(modes: list[types.InsertTextMode] | None, default_range: bool) -> types.ClientCapabilities:
    caps = feature_caps(default_range=default_range)
    item = caps.text_document.completion.completion_item
    item.insert_text_mode_support = None if modes is None else types.ClientCompletionItemInsertTextModeOptions(modes)
    return caps


async def every_kind_of_item(servers, tmp_path, caps) -> dict[str, list[types.CompletionItem]]:
    """Commands and a command's argument values in a chat file, fields in a SKILL.md."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    skill = write_skill(ws / ".agents/skills", "demo", valid("demo"))
    session = await servers([ws], home, caps=caps)
    chat = ws / "talk.chat.md"
    text = "/\n/reload se\n"
    await open_until(session, chat, text)
    await open_until(session, skill, "---\nname: demo\n\n---\n")
    return {
        "commands": await complete(session, chat, end_of(text, "/")),
        "arguments": await complete(session, chat, end_of(text, "/reload se")),
        "fields": await complete(session, skill, types.Position(line=2, character=0)),
    }


@pytest.mark.parametrize("default_range", [True, False], ids=["itemDefaults", "item-textEdit"])
async def test_a_client_that_takes_as_is_gets_it_on_every_item(servers, tmp_path, default_range):
    caps = caps_with_insert_modes([AS_IS, types.InsertTextMode.AdjustIndentation], default_range)
    found = await every_kind_of_item(servers, tmp_path, caps)
    for kind, items in found.items():
        assert items, kind
        assert {item.insert_text_mode for item in items} == {AS_IS}, kind


@pytest.mark.parametrize("modes", [None, [types.InsertTextMode.AdjustIndentation]], ids=["undeclared", "adjust-only"])
async def test_a_client_without_as_is_gets_no_mode(servers, tmp_path, modes):
    found = await every_kind_of_item(servers, tmp_path, caps_with_insert_modes(modes, default_range=False))
    for kind, items in found.items():
        assert items, kind
        assert {item.insert_text_mode for item in items} == {None}, kind
