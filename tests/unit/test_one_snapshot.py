"""One snapshot per publish: from a `didChange` to the `publishDiagnostics` it leads to, the server reads the
edited buffer's text from pygls's document store once (lsp/buffers.py), and checks, converts and versions
that one text. Run in-process on the real server (`create_server`), its real `didChange` handler and a real
pygls `Workspace`, counting reads of `TextDocument.source`."""

from __future__ import annotations

import asyncio

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from albedo_skills_ls.lsp import server as server_module
from albedo_skills_ls.lsp.app import create_server
from albedo_skills_ls.lsp.buffers import Buffers
from albedo_skills_ls.lsp.settings import Settings
from albedo_skills_ls.lsp.uris import path_to_uri

HANG_GUARD_SECONDS = 60  # the live check's publish awaited as an event: a guard against a hang, not a speed goal


def test_a_did_change_to_publish_cycle_reads_the_buffer_once(tmp_path, monkeypatch):
    folder = tmp_path / "ws" / ".agents" / "skills" / "demo"
    folder.mkdir(parents=True)
    path = folder / "SKILL.md"
    path.write_text("---\nname: demo\ndescription: Does demo.\n---\n# Demo\n", encoding="utf-8")
    uri = path_to_uri(str(path))

    reads: list[str] = []
    source = TextDocument.source

    def counted(document: TextDocument) -> str:
        reads.append(document.uri)
        return source.fget(document)

    monkeypatch.setattr(TextDocument, "source", property(counted))
    monkeypatch.setattr(server_module, "LIVE_DEBOUNCE_SECONDS", 0.01)
    published: list[types.PublishDiagnosticsParams] = []

    async def cycle() -> None:
        sent = asyncio.Event()

        def publish(params: types.PublishDiagnosticsParams) -> None:
            published.append(params)
            sent.set()

        ls = create_server()
        ls.protocol._workspace = Workspace(path_to_uri(str(tmp_path / "ws")))
        ls.settings = Settings(home=str(tmp_path / "home"))
        monkeypatch.setattr(ls, "text_document_publish_diagnostics", publish)
        ls.workspaces.rebuild()
        ls.workspaces.reload_all()
        ls.ready.set()
        ls.workspace.put_text_document(types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=path.read_text(encoding="utf-8")))
        edited = "---\nname: other\ndescription: Does demo.\n---\n# Demo\n"
        change = types.TextDocumentContentChangeWholeDocument(text=edited)
        ls.workspace.update_text_document(types.VersionedTextDocumentIdentifier(version=2, uri=uri), change)
        reads.clear()
        did_change = ls.protocol.fm.features[types.TEXT_DOCUMENT_DID_CHANGE]
        did_change(types.DidChangeTextDocumentParams(text_document=types.VersionedTextDocumentIdentifier(version=2, uri=uri), content_changes=[change]))
        # the live check publishes once typing pauses (the debounce, shortened here)
        await asyncio.wait_for(sent.wait(), HANG_GUARD_SECONDS)

    asyncio.run(cycle())
    assert [params.version for params in published] == [2]
    assert [d.code for d in published[0].diagnostics] == ["name-mismatch"]
    assert reads == [uri]


def test_a_snapshot_reads_each_document_once_however_it_is_asked(tmp_path):
    reads: list[str] = []

    class Document:
        version, language_id = 3, "markdown"

        @property
        def source(self) -> str:
            reads.append("read")
            return "text"

    path = str(tmp_path / "a" / "SKILL.md")
    uri = path_to_uri(path)
    buffers = Buffers({uri: Document()}, Settings())
    assert buffers.kind(path) == "skill" and buffers.is_open(path) and reads == []  # no text read to classify
    assert buffers.text(path) == ("text", 3)
    assert buffers.at(path).text == buffers.at_uri(uri).text == "text"
    assert buffers.at(path).uri == uri and buffers.paths() == [path]
    assert reads == ["read"]
    assert buffers.at(str(tmp_path / "other.md")) is None and buffers.text(str(tmp_path / "other.md")) is None
