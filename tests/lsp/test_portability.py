"""Files as Windows checkouts have them, through the real server: CRLF line ends get the same, exact ranges as
their LF twin, from disk and from an open buffer (docs/design.md#1-reading-a-skillmd), and a workspace
whose path holds spaces and non-ASCII letters round-trips through URIs (docs/design.md#11-portability)."""

from __future__ import annotations

from lsprotocol import types

from .editing import feature_caps, open_until, span
from .harness import uri

LF = (
    "---\n"
    "name: wrong-name\n"
    "description: Reads PDFs.\n"
    "desciption: a typo\n"
    "---\n"
    "# PDF tools\n"
    "\n"
    "😀 See [missing](references/missing.md) and [ok](references/ok.md), then `reference/ok.md`.\n"
)
CRLF = LF.replace("\n", "\r\n")


def key(item: tuple[str, types.Range]) -> tuple:
    code, where = item
    return (code, where.start.line, where.start.character, where.end.line, where.end.character)


def shape(diagnostics: list[types.Diagnostic]) -> list[tuple[str, types.Range]]:
    return sorted(((str(d.code), d.range) for d in diagnostics), key=key)


def make(ws, folder: str, text: str):
    skill = ws / ".agents" / "skills" / folder
    (skill / "references").mkdir(parents=True)
    (skill / "references" / "ok.md").write_text("ok\n")
    path = skill / "SKILL.md"
    path.write_bytes(text.encode("utf-8"))  # bytes: the line ends exactly as given
    return path


EXPECTED = [
    ("field-unknown", span(LF, "desciption")),
    ("name-mismatch", span(LF, "wrong-name")),
    ("reference-missing", span(LF, "references/missing.md")),
    ("reference-missing", span(LF, "reference/ok.md")),
]


async def test_crlf_ranges_are_exact_from_disk_and_from_the_buffer(servers, tmp_path):
    ws, home = tmp_path / "My Work ünï", tmp_path / "home"
    home.mkdir()
    lf_path = make(ws, "pdf-lf", LF)
    crlf_path = make(ws, "pdf-crlf", CRLF)
    session = await servers([ws], home, caps=feature_caps())  # returns once every start-up publish was sent

    # from disk (the snapshot): the same ranges as the LF twin, and the ones the text says
    assert shape(session.diagnostics(crlf_path)) == shape(session.diagnostics(lf_path)) == sorted(EXPECTED, key=key)
    # the emoji is two UTF-16 units: the link starts after it, counted as the client counts
    missing = next(d for d in session.diagnostics(crlf_path) if "references/missing.md" in d.message)
    assert missing.range.start == types.Position(line=7, character=len("😀 See [missing](") + 1)

    # from the open buffer, CRLF as the editor holds it
    await open_until(session, crlf_path, CRLF, lambda: shape(session.diagnostics(crlf_path)) == sorted(EXPECTED, key=key))
    links = await session.client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=uri(crlf_path)))
    )
    assert [(link.range, link.target) for link in links] == [
        (span(LF, "references/ok.md"), uri(crlf_path.parent / "references" / "ok.md"))
    ]
    # hover on a key of a CRLF frontmatter: the key's range, without the `\r`
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri(crlf_path)),
                          position=span(LF, "description").start)
    )
    assert hover is not None and hover.range == span(LF, "description")
