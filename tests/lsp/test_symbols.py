"""Document symbols of a SKILL.md over stdio: frontmatter fields and nested headings, UTF-16 ranges."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .editing import feature_caps, open_until, utf16
from .harness import uri, write_skill

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

TEXT = (
    "---\n"  # 0
    "name: pdf-tools\n"  # 1
    "description: >\n"  # 2
    "  Reads 😀 PDFs\n"  # 3
    "  and more\n"  # 4
    "metadata:\n"  # 5
    "  author: 日本\n"  # 6
    '  version: "1.0"\n'  # 7
    "---\n"  # 8
    "# 😀 Guide\n"  # 9
    "intro\n"  # 10
    "## Steps\n"  # 11
    "text\n"  # 12
    "### Détails 😀\n"  # 13
    "more\n"  # 14
    "## Notes\n"  # 15
    "# Appendix\n"  # 16
    "```\n"  # 17
    "# not a heading\n"  # 18
    "```\n"  # 19
)


def r(line: int, start: int, end_line: int, end: int) -> types.Range:
    return types.Range(start=types.Position(line=line, character=start), end=types.Position(line=end_line, character=end))


async def symbols(servers, tmp_path, hierarchical: bool):
    ws, home = tmp_path / "ws", tmp_path / "home"
    path = write_skill(ws / ".agents/skills", "pdf-tools", "name: pdf-tools\ndescription: Reads PDFs.")
    session = await servers([ws], home, caps=feature_caps(hierarchical=hierarchical))
    await open_until(session, path, TEXT)
    return await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri(path)))
    ), path


async def test_fields_and_headings_nest(servers, tmp_path):
    result, _path = await symbols(servers, tmp_path, hierarchical=True)
    assert [s.name for s in result] == ["name", "description", "metadata", "😀 Guide", "Appendix"]
    name, description, metadata, guide, appendix = result
    assert {s.kind for s in (name, description, metadata)} == {types.SymbolKind.Property}
    assert {s.kind for s in (guide, appendix)} == {types.SymbolKind.String}

    assert name.detail == "pdf-tools"
    assert name.range == r(1, 0, 1, len("name: pdf-tools"))
    assert name.selection_range == r(1, 0, 1, 4)
    assert description.range == r(2, 0, 4, len("  and more"))
    assert [child.name for child in metadata.children] == ["author", "version"]
    author = metadata.children[0]
    assert author.range == r(6, 2, 6, 2 + utf16("author: 日本")) and author.detail == "日本"
    assert metadata.range == r(5, 0, 7, len('  version: "1.0"'))

    assert guide.range == r(9, 0, 15, len("## Notes"))
    assert guide.selection_range == r(9, 0, 9, utf16("# 😀 Guide"))
    assert [child.name for child in guide.children] == ["Steps", "Notes"]
    steps = guide.children[0]
    assert [child.name for child in steps.children] == ["Détails 😀"]
    assert steps.children[0].selection_range == r(13, 0, 13, utf16("### Détails 😀"))
    assert steps.range == r(11, 0, 14, len("more"))
    assert appendix.range == r(16, 0, 19, 3) and not appendix.children  # the fenced `#` is no heading


async def test_flat_symbols_for_clients_without_hierarchy(servers, tmp_path):
    result, path = await symbols(servers, tmp_path, hierarchical=False)
    assert all(isinstance(s, types.SymbolInformation) for s in result)
    assert [(s.name, s.container_name) for s in result] == [
        ("name", None),
        ("description", None),
        ("metadata", None),
        ("author", "metadata"),
        ("version", "metadata"),
        ("😀 Guide", None),
        ("Steps", "😀 Guide"),
        ("Détails 😀", "Steps"),
        ("Notes", "😀 Guide"),
        ("Appendix", None),
    ]
    assert result[0].location.uri == uri(path)
