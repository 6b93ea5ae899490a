"""Selection ranges over stdio: what Expand Selection selects at each step in a `SKILL.md` and a chat buffer,
in the negotiated position encoding, with CRLF line ends; offered only to clients that declare it, and
turned off by `albedoSkills.selectionRanges`."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .editing import feature_caps, open_until
from .harness import capabilities, uri, write_skill

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

# `é` and the emoji are one code point, 2 and 4 UTF-8 bytes, 1 and 2 UTF-16 units: a column counted in the
# wrong unit selects the wrong text. Lines end in CRLF: a `\r` in a selection is a wrong end.
SKILL = (
    "---\r\n"
    "name: demo\r\n"
    'description: "Résumé 😀 of the data."\r\n'
    "metadata:\r\n"
    "  author: é 😀 me\r\n"
    "---\r\n"
    "# Use 😀\r\n"
    "\r\n"
    "Run 😀 the demo,\r\n"
    "then stop.\r\n"
)
FRONTMATTER = SKILL[len("---\r\n") : SKILL.index("\r\n---\r\n")]
BLOCK = SKILL[: SKILL.index("\r\n# Use")]
BODY = SKILL[SKILL.index("# Use") :]


def selection_caps(encoding: str | None = None) -> types.ClientCapabilities:
    caps = feature_caps(encodings=[encoding] if encoding else None)
    assert caps.text_document is not None
    caps.text_document.selection_range = types.SelectionRangeClientCapabilities()
    return caps


def client_column(line: str, code_points: int, encoding: str) -> int:
    prefix = line[:code_points]
    return len(prefix.encode("utf-8")) if encoding == types.PositionEncodingKind.Utf8 else len(prefix.encode("utf-16-le")) // 2


def covered(text: str, where: types.Range, encoding: str) -> str:
    """The text a client range selects, its columns counted in the client's units (the test's own count)."""
    lines = text.split("\n")

    def offset(at: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[: at.line])
        line = lines[at.line] if at.line < len(lines) else ""
        if encoding == types.PositionEncodingKind.Utf8:
            return before + len(line.encode("utf-8")[: at.character].decode("utf-8"))
        return before + len(line.encode("utf-16-le")[: 2 * at.character].decode("utf-16-le"))

    return text[offset(where.start) : offset(where.end)]


def steps(text: str, found: types.SelectionRange, encoding: str) -> list[str]:
    texts = []
    current: types.SelectionRange | None = found
    while current is not None:
        texts.append(covered(text, current.range, encoding))
        current = current.parent
    return texts


async def ask(session, path, text: str, cursors: list[tuple[int, str]], encoding: str) -> list[types.SelectionRange] | None:
    """Selection ranges at each (line, text just before the cursor) in the client's units."""
    lines = text.split("\r\n")
    positions = [
        types.Position(line=number, character=client_column(lines[number], len(before), encoding))
        for number, before in cursors
    ]
    params = types.SelectionRangeParams(text_document=types.TextDocumentIdentifier(uri=uri(path)), positions=positions)
    return await session.client.text_document_selection_range_async(params)


@pytest.mark.parametrize("encoding", [types.PositionEncodingKind.Utf16, types.PositionEncodingKind.Utf8])
async def test_each_step_in_a_skill_file_in_the_negotiated_encoding(servers, tmp_path, encoding):
    workspace, home = tmp_path / "ws", tmp_path / "home"
    path = write_skill(workspace / ".agents/skills", "demo", "name: demo\ndescription: d.")
    session = await servers([workspace], home, caps=selection_caps(encoding))
    assert session.result.capabilities.position_encoding == encoding
    await open_until(session, path, SKILL)
    cursors = [(2, 'description: "Résumé 😀 of th'), (4, "  author: é 😀 m"), (8, "Run 😀 the de"), (6, "# Use 😀")]
    found = await ask(session, path, SKILL, cursors, encoding)
    assert found is not None and len(found) == len(cursors)
    assert steps(SKILL, found[0], encoding) == [
        "the",
        "Résumé 😀 of the data.",
        '"Résumé 😀 of the data."',
        'description: "Résumé 😀 of the data."',
        FRONTMATTER,
        BLOCK,
        SKILL,
    ]
    assert steps(SKILL, found[1], encoding) == [
        "me", "é 😀 me", "author: é 😀 me", "metadata:\r\n  author: é 😀 me", FRONTMATTER, BLOCK, SKILL
    ]
    assert steps(SKILL, found[2], encoding) == [
        "demo", "Run 😀 the demo,", "Run 😀 the demo,\r\nthen stop.", BODY.removesuffix("\r\n"), BODY, SKILL
    ]
    # a cursor just after the emoji (no word on either side): the heading line, its section, the body
    assert steps(SKILL, found[3], encoding) == ["# Use 😀", BODY.removesuffix("\r\n"), BODY, SKILL]


async def test_a_chat_buffer_word_line_paragraph_document(servers, tmp_path):
    workspace, home = tmp_path / "ws", tmp_path / "home"
    write_skill(workspace / ".agents/skills", "demo", "name: demo\ndescription: d.")
    session = await servers([workspace], home, caps=selection_caps())
    path = workspace / "notes.chat.md"
    text = "/demo go now\r\nplease\r\n\r\nlater\r\n"
    path.write_text(text, encoding="utf-8", newline="")
    await open_until(session, path, text)
    [found] = await ask(session, path, text, [(0, "/de")], types.PositionEncodingKind.Utf16)
    assert steps(text, found, types.PositionEncodingKind.Utf16) == ["demo", "/demo go now", "/demo go now\r\nplease", text]


async def test_offered_only_to_clients_that_declare_it_and_off_by_its_setting(servers, tmp_path):
    workspace, home = tmp_path / "ws", tmp_path / "home"
    path = write_skill(workspace / ".agents/skills", "demo", "name: demo\ndescription: d.")
    bare = await servers([workspace], home, caps=capabilities())
    assert bare.result.capabilities.selection_range_provider is None
    session = await servers([workspace], home, caps=selection_caps(), settings={"selectionRanges": False})
    assert session.result.capabilities.selection_range_provider is not None
    text = path.read_text(encoding="utf-8")
    await open_until(session, path, text)
    params = types.SelectionRangeParams(
        text_document=types.TextDocumentIdentifier(uri=uri(path)), positions=[types.Position(line=1, character=7)]
    )
    assert await session.client.text_document_selection_range_async(params) is None
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"albedoSkills": {"selectionRanges": True}})
    )
    [found] = await session.client.text_document_selection_range_async(params)
    assert found.range == types.Range(start=types.Position(line=1, character=6), end=types.Position(line=1, character=10))
    # a document that is neither a SKILL.md nor a chat buffer is not answered
    other = workspace / "README.md"
    other.write_text("# Readme\n", encoding="utf-8")
    session.open(other, "# Readme\n")
    params.text_document = types.TextDocumentIdentifier(uri=uri(other))
    assert await session.client.text_document_selection_range_async(params) is None
