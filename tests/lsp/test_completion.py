"""SKILL.md frontmatter completion over stdio: fields as snippets, values with a known shape."""

from __future__ import annotations

import pytest
from lsprotocol import types

from albedo_skills_ls.skills.core.model import ERROR
from albedo_skills_ls.skills.document.rules import check_document

from .editing import apply_edits, complete, end_of, feature_caps, open_until, utf16
from .harness import write_skill

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


def skill_file(tmp_path, folder: str = "pdf-tools"):
    ws, home = tmp_path / "ws", tmp_path / "home"
    path = write_skill(ws / ".agents/skills", folder, f"name: {folder}\ndescription: Reads PDFs.")
    return ws, home, path


async def test_capabilities_name_the_features(servers, tmp_path):
    ws, home, _path = skill_file(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    capabilities = session.result.capabilities
    assert list(capabilities.completion_provider.trigger_characters) == ["/"]
    assert capabilities.hover_provider
    assert capabilities.definition_provider
    assert capabilities.document_symbol_provider
    assert capabilities.document_link_provider is not None
    assert list(capabilities.code_action_provider.code_action_kinds) == [types.CodeActionKind.QuickFix]


async def test_fields_are_offered_as_snippets_except_those_present(servers, tmp_path):
    ws, home, path = skill_file(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    text = "---\nname: pdf-tools\n\nlicense: MIT\n---\n# Body\n"
    await open_until(session, path, text)

    items = await complete(session, path, types.Position(line=2, character=0))
    assert [item.label for item in items] == ["description", "compatibility", "metadata", "allowed-tools"]
    by_label = {item.label: item for item in items}
    assert all(item.insert_text_format == types.InsertTextFormat.Snippet for item in items)
    assert all(item.kind == types.CompletionItemKind.Property for item in items)
    # the label filters (a filterText would make Neovim 0.7's omnifunc ignore the edit's start)
    assert all(item.filter_text is None for item in items)
    assert by_label["description"].text_edit.new_text == "description: ${1}"
    assert by_label["metadata"].text_edit.new_text == "metadata:\n  ${1:key}: ${2:value}"
    assert by_label["description"].detail == "required"
    assert "Required" in by_label["description"].documentation.value

    session.change(path, "---\nname: pdf-tools\ncomp\n---\n", 2)
    items = await complete(session, path, types.Position(line=2, character=4))
    (compatibility,) = items  # only the field that fits `comp`
    assert compatibility.text_edit.range == types.Range(
        start=types.Position(line=2, character=0), end=types.Position(line=2, character=4)
    )
    # a frontmatter still being written (no closing line yet) gets the same help
    session.change(path, "---\ndescription: x\n", 3)
    items = await complete(session, path, types.Position(line=2, character=0))
    assert "name" in [item.label for item in items] and "description" not in [item.label for item in items]
    name = next(item for item in items if item.label == "name")
    assert name.text_edit.new_text == "name: ${1:pdf-tools}"


async def test_plain_text_when_the_client_has_no_snippets(servers, tmp_path):
    ws, home, path = skill_file(tmp_path)
    session = await servers([ws], home, caps=feature_caps(snippets=False, markdown=False))
    text = "---\n\n---\n"
    await open_until(session, path, text)
    items = await complete(session, path, types.Position(line=1, character=0))
    assert [item.label for item in items] == [
        "name", "description", "license", "compatibility", "metadata", "allowed-tools"
    ]
    assert all(item.insert_text_format == types.InsertTextFormat.PlainText for item in items)
    assert not any("$" in item.text_edit.new_text for item in items)
    assert all(item.documentation.kind == types.MarkupKind.PlainText for item in items)
    chosen = [next(item for item in items if item.label == key) for key in ("name", "description")]
    filled = apply_edits(text, [chosen[0].text_edit])
    assert filled == "---\nname: pdf-tools\n---\n"


async def test_values_with_a_known_shape(servers, tmp_path):
    ws, home, path = skill_file(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    text = "---\nname: \ndescription: x\nlicense: Ap\nallowed-tools: Read 😀 Gr\n---\n"
    await open_until(session, path, text)

    names = await complete(session, path, end_of(text, "name: "))
    assert [item.label for item in names] == ["pdf-tools"]
    assert names[0].kind == types.CompletionItemKind.Value
    assert names[0].filter_text is None

    licenses = await complete(session, path, end_of(text, "license: Ap"))
    assert [item.label for item in licenses] == ["Apache-2.0"]  # the server offers what fits the typed `Ap`
    assert licenses[0].text_edit.range == types.Range(
        start=types.Position(line=3, character=9), end=types.Position(line=3, character=11)
    )

    tools = await complete(session, path, end_of(text, " Gr"))
    assert [item.label for item in tools] == ["Grep"]
    session.change(path, text.replace(" Gr\n", " \n"), 2)  # nothing typed yet: every tool not listed
    others = await complete(session, path, end_of(text.replace(" Gr\n", " \n"), "😀 "))
    labels = [item.label for item in others]
    assert {"Grep", "Write", "Bash"} <= set(labels) and "Read" not in labels
    session.change(path, text, 3)
    before = "allowed-tools: Read 😀 "
    assert tools[0].text_edit.range == types.Range(
        start=types.Position(line=4, character=utf16(before)),
        end=types.Position(line=4, character=utf16(before + "Gr")),
    )
    grep = next(item for item in tools if item.label == "Grep")
    assert apply_edits(text, [grep.text_edit]).splitlines()[4] == "allowed-tools: Read 😀 Grep"

    # nothing in the body, nothing in a description
    assert await complete(session, path, end_of(text, "description: x")) == []
    session.change(path, text + "# Body\n", 4)
    assert await complete(session, path, types.Position(line=6, character=3)) == []


async def test_an_empty_skill_file_is_offered_a_valid_frontmatter(servers, tmp_path):
    ws, home, path = skill_file(tmp_path, "pdf-tools")
    session = await servers([ws], home, caps=feature_caps(snippets=False))
    await open_until(session, path, "")
    items = await complete(session, path, types.Position(line=0, character=0))
    assert [item.label for item in items] == ["frontmatter"]
    filled = apply_edits("", [items[0].text_edit])
    parsed = check_document(filled, str(path), "pdf-tools")
    assert not [d for d in parsed.diagnostics if d.severity == ERROR]
    assert parsed.name == "pdf-tools"


async def test_a_file_that_is_not_a_skill_gets_nothing(servers, tmp_path):
    ws, home, _path = skill_file(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    other = ws / "README.md"
    session.open(other, "---\n\n---\n")
    assert await complete(session, other, types.Position(line=1, character=0)) == []
