"""Chat buffers over stdio: slash completion, hover, go to definition and `unknown-command` diagnostics."""

from __future__ import annotations

import shutil

import pytest
from lsprotocol import types

from .editing import (
    PUBLISH,
    accepted,
    change_until,
    complete,
    completion,
    edit_of,
    end_of,
    feature_caps,
    hover,
    items_of,
    open_until,
    span,
    until,
    utf16,
)
from .harness import uri, valid, write_skill

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


def two_skills(tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    demo = write_skill(ws / ".agents/skills", "demo", valid("demo", "Merges files into one."))
    model = write_skill(ws / ".agents/skills", "model", valid("model", "Picks a model for you."))
    return ws, home, demo, model


async def test_slash_at_a_message_start_offers_every_catalog_entry(servers, tmp_path):
    ws, home, demo, model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "talk.chat.md"
    text = "hello there\n  /"
    await open_until(session, chat, text)

    items = await complete(session, chat, end_of(text, "/"))

    assert [item.label for item in items] == ["/help", "/model", "/reload", "/demo", "/skill:model"]
    assert [item.label for item in sorted(items, key=lambda i: i.sort_text)] == [item.label for item in items]
    by_label = {item.label: item for item in items}
    demo_item, help_item = by_label["/demo"], by_label["/help"]
    assert demo_item.kind == types.CompletionItemKind.Function
    assert help_item.kind == types.CompletionItemKind.Keyword
    assert demo_item.detail == f"workspace skill · {demo}"
    assert help_item.detail == "builtin"
    assert demo_item.documentation == types.MarkupContent(kind=types.MarkupKind.Markdown, value="Merges files into one.")
    # no filterText: the label filters, and Neovim 0.7's omnifunc then starts at the edit (not after the `/`)
    assert [item.filter_text for item in items] == [None] * len(items)
    assert demo_item.text_edit == types.TextEdit(range=span(text, "/"), new_text="/demo")
    # the colliding skill keeps its deterministic command; the built-in keeps `/model`
    assert by_label["/skill:model"].detail == f"workspace skill · {model}"
    assert by_label["/model"].kind == types.CompletionItemKind.Keyword


async def test_the_server_offers_only_the_commands_that_fit_what_is_typed(servers, tmp_path):
    """Neovim 0.11 shows items that have a textEdit and no filterText as sent: the server filters."""
    ws, home, _demo, _model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "talk.chat.md"
    text = "hello there\n  /De"
    await open_until(session, chat, text)
    items = await complete(session, chat, end_of(text, "/De"))
    assert [(item.label, item.text_edit) for item in items] == [
        ("/demo", types.TextEdit(range=span(text, "/De"), new_text="/demo"))
    ]
    session.change(chat, "/mo", 2)
    assert [item.label for item in await complete(session, chat, end_of("/mo", "/mo"))] == ["/model"]
    session.change(chat, "/skill:", 3)
    assert [item.label for item in await complete(session, chat, end_of("/skill:", "/skill:"))] == ["/skill:model"]
    session.change(chat, "/x", 4)
    assert await complete(session, chat, end_of("/x", "/x")) == []


# The two kinds of client: one that takes `CompletionList.itemDefaults.editRange` (VS Code, Neovim 0.10+)
# gets one range for the whole list; any other (Neovim 0.7, eglot 1.9) a textEdit on each item.
BOTH_CLIENT_KINDS = pytest.mark.parametrize("default_range", [True, False], ids=["itemDefaults", "item-textEdit"])


async def open_chat(servers, tmp_path, text: str, default_range: bool):
    """A server over `two_skills`, for a client of the given kind, with `talk.chat.md` open holding `text`."""
    ws, home, _demo, _model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps(default_range=default_range))
    chat = ws / "talk.chat.md"
    await open_until(session, chat, text)
    return session, chat


@BOTH_CLIENT_KINDS
async def test_each_client_kind_gets_the_answer_it_applies(servers, tmp_path, default_range):
    text = "/\nhello there\n  /De please\n"
    session, chat = await open_chat(servers, tmp_path, text, default_range)

    everything = await completion(session, chat, end_of(text, "/"))
    typed = await completion(session, chat, end_of(text, "/De"))
    for result, replaced in ((everything, span(text, "/")), (typed, span(text, "/De"))):
        if default_range:
            assert isinstance(result, types.CompletionList) and result.is_incomplete is False
            assert result.item_defaults == types.CompletionItemDefaults(edit_range=replaced)
            assert [(item.text_edit, item.filter_text) for item in result.items] == [(None, None)] * len(result.items)
        else:  # a bare list, complete as a list is; each item replaces the typed text itself
            assert isinstance(result, list)
            assert [(item.text_edit.range, item.filter_text) for item in result] == [(replaced, None)] * len(result)
    # what the user ends up with: the command in place of what was typed, nothing doubled, the rest kept
    assert accepted(text, everything, "/help") == "/help\nhello there\n  /De please\n"
    assert [item.label for item in items_of(typed)] == ["/demo"]
    assert accepted(text, typed, "/demo") == "/\nhello there\n  /demo please\n"

    # a command's argument values take the same shape
    session.change(chat, "/reload se", 2)
    argument = await completion(session, chat, types.Position(line=0, character=10))
    assert accepted("/reload se", argument, "session") == "/reload session"
    assert isinstance(argument, types.CompletionList) == default_range
    assert [edit_of(argument, item).range for item in items_of(argument)] == [
        types.Range(start=types.Position(line=0, character=8), end=types.Position(line=0, character=10))
    ]


async def test_a_slash_inside_a_word_a_path_or_code_offers_nothing(servers, tmp_path):
    ws, home, _demo, _model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "talk.chat.md"
    await open_until(session, chat, "")
    cases = [
        ("and/or", "and/"),
        ("look in src/x", "src/"),
        ("日本 /x", "/x"),
        ("a /b", "/b"),
        ("/usr/bin/", "/usr/bin/"),
        ("```\n/de", "/de"),
    ]
    for version, (text, typed) in enumerate(cases, start=2):
        session.change(chat, text, version)
        assert await complete(session, chat, end_of(text, typed)) == [], text
    # a plain Markdown file is no chat buffer
    notes = ws / "notes.md"
    session.open(notes, "/de", language_id="markdown")
    assert await complete(session, notes, types.Position(line=0, character=3)) == []


async def test_edit_ranges_count_utf16_units(servers, tmp_path):
    ws, home, _demo, _model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "talk.chat.md"
    text = "😀 first message 日本\n/de"
    await open_until(session, chat, text)
    items = await complete(session, chat, end_of(text, "/de"))
    assert items and all(
        item.text_edit.range
        == types.Range(start=types.Position(line=1, character=0), end=types.Position(line=1, character=3))
        for item in items
    )

    typed = "\t/de"  # a tab before the `/` is one unit
    session.change(chat, typed, 2)
    items = await complete(session, chat, types.Position(line=0, character=utf16(typed)))
    assert items and all(
        item.text_edit.range
        == types.Range(start=types.Position(line=0, character=1), end=types.Position(line=0, character=4))
        for item in items
    )
    # no command starts with an emoji: nothing fits (frontmatter values measure UTF-16 after one, in
    # tests/lsp/test_completion.py)
    session.change(chat, "\t/😀", 3)
    assert await complete(session, chat, types.Position(line=0, character=utf16("\t/😀"))) == []


async def test_utf8_clients_get_utf8_columns(servers, tmp_path):
    ws, home, demo, _model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps(encodings=[types.PositionEncodingKind.Utf8]))
    assert session.result.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    before = "allowed-tools: Read é "
    text = f"---\nname: demo\ndescription: Merges files into one.\n{before}Gr\n---\n"
    await open_until(session, demo, text)
    items = await complete(session, demo, types.Position(line=3, character=len((before + "Gr").encode())))
    assert [(item.label, item.text_edit.range) for item in items] == [
        (
            "Grep",
            types.Range(
                start=types.Position(line=3, character=len(before.encode())),
                end=types.Position(line=3, character=len((before + "Gr").encode())),
            ),
        )
    ]
    chat = ws / "talk.chat.md"
    typed = "  /é"  # no command fits
    await open_until(session, chat, typed)
    assert await complete(session, chat, types.Position(line=0, character=len(typed.encode()))) == []


async def test_reload_adds_and_removes_skills_from_completion(servers, tmp_path):
    ws, home, _demo, _model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "talk.chat.md"
    text = "/"
    await open_until(session, chat, text)
    where = types.Position(line=0, character=1)
    assert "/fresh" not in [item.label for item in await complete(session, chat, where)]

    write_skill(ws / ".albedo/skills", "fresh", valid("fresh", "Appeared mid-session."))
    result = await session.command("skills.reload")
    assert result["added"] == ["fresh"]
    items = await complete(session, chat, where)
    assert [item.label for item in items] == ["/help", "/model", "/reload", "/demo", "/fresh", "/skill:model"]

    shutil.rmtree(ws / ".albedo/skills/fresh")
    result = await session.command("skills.reload")
    assert result["removed"] == ["fresh"]
    assert "/fresh" not in [item.label for item in await complete(session, chat, where)]


@BOTH_CLIENT_KINDS
async def test_each_completion_place_and_text_gets_its_own_items(servers, tmp_path, default_range):
    # the last answer is reused while snapshot, typed text and range stay the same: never across them
    text = "/\n  /de"
    session, chat = await open_chat(servers, tmp_path, text, default_range)
    first, second = types.Position(line=0, character=1), end_of(text, "/de")
    every = ["/help", "/model", "/reload", "/demo", "/skill:model"]
    at_first, at_second = (first, span(text, "/"), every), (second, span(text, "/de"), ["/demo"])
    for where, replaced, labels in (at_first, at_second, at_first, at_second):
        result = await completion(session, chat, where)
        assert [(item.label, edit_of(result, item).range) for item in items_of(result)] == [
            (label, replaced) for label in labels
        ]

    # other text over the same range, right after a list for that range
    changed = "/\n  /mo"
    await change_until(session, chat, changed, 2, lambda: True)
    result = await completion(session, chat, second)
    assert [(item.label, edit_of(result, item)) for item in items_of(result)] == [
        ("/model", types.TextEdit(range=span(changed, "/mo"), new_text="/model"))
    ]


async def test_reload_offers_its_argument(servers, tmp_path):
    ws, home, _demo, _model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "talk.chat.md"
    text = "/reload "
    await open_until(session, chat, text)
    items = await complete(session, chat, end_of(text, "/reload "))
    assert [(item.label, item.text_edit.range, item.filter_text) for item in items] == [
        ("session", types.Range(start=types.Position(line=0, character=8), end=types.Position(line=0, character=8)), None)
    ]
    session.change(chat, "/reload se", 2)
    items = await complete(session, chat, types.Position(line=0, character=10))
    assert [item.text_edit for item in items] == [
        types.TextEdit(
            range=types.Range(start=types.Position(line=0, character=8), end=types.Position(line=0, character=10)),
            new_text="session",
        )
    ]
    session.change(chat, "/demo ", 3)  # a skill's free-text argument has no values to offer
    assert await complete(session, chat, types.Position(line=0, character=6)) == []


async def test_hover_and_definition_of_commands(servers, tmp_path):
    ws, home, demo, model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "talk.chat.md"
    text = "😀 hi\n  /demo merge a and b\n/help\n/skill:model x\nsee and/or /demo\n"
    await open_until(session, chat, text)

    found = await hover(session, chat, start_of_plus(text, "/demo", 2))
    assert found is not None and found.range == span(text, "/demo")
    assert isinstance(found.contents, types.MarkupContent) and found.contents.kind == types.MarkupKind.Markdown
    assert "Merges files into one." in found.contents.value and str(demo) in found.contents.value
    builtin = await hover(session, chat, start_of_plus(text, "/help", 1))
    assert builtin is not None and "built-in" in builtin.contents.value
    assert await hover(session, chat, start_of_plus(text, "merge", 1)) is None
    assert await hover(session, chat, start_of_plus(text, "/demo", 2, occurrence=1)) is None  # not at a start

    location = await session.client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(chat)), position=start_of_plus(text, "/demo", 3)
        )
    )
    assert location == types.Location(
        uri=uri(demo), range=types.Range(start=types.Position(line=1, character=6), end=types.Position(line=1, character=10))
    )
    location = await session.client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(chat)), position=start_of_plus(text, "/skill:model", 4)
        )
    )
    assert isinstance(location, types.Location) and location.uri == uri(model)
    none = await session.client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(chat)), position=start_of_plus(text, "/help", 2)
        )
    )
    assert none is None


def start_of_plus(text: str, needle: str, units: int, occurrence: int = 0) -> types.Position:
    """A position `units` UTF-16 units into the `occurrence`-th `needle`."""
    begin = span(text, needle, occurrence).start
    return types.Position(line=begin.line, character=begin.character + units)


async def test_unknown_commands_are_reported_and_refresh_after_reload(servers, tmp_path):
    ws, home, _demo, _model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "talk.chat.md"
    text = "\t/😀x go\n/later please\n/demo fine\n/skill:model ok\nand/or /fake\n```\n/incode\n```\n/usr/bin/env\n"
    await open_until(session, chat, text, lambda: len(session.diagnostics(chat)) == 2)

    found = sorted(session.diagnostics(chat), key=lambda d: d.range.start.line)
    assert [(d.code, d.severity, d.range) for d in found] == [
        ("unknown-command", types.DiagnosticSeverity.Information, span(text, "/😀x")),
        ("unknown-command", types.DiagnosticSeverity.Information, span(text, "/later")),
    ]
    assert found[0].range.end.character == 1 + utf16("/😀x")
    assert "commands.catalog" in found[1].message and "reload" in found[1].message

    # a new skill on disk, then a reload: the diagnostic for it goes away
    write_skill(ws / ".agents/skills", "later", valid("later", "Arrives later."))
    first = session.expect(PUBLISH)
    await session.command("skills.reload")
    await until(session, lambda: len(session.diagnostics(chat)) == 1, first)
    assert session.diagnostics(chat)[0].range == span(text, "/😀x")

    # live: typing a new unknown command reports it
    first = session.expect(PUBLISH)
    session.change(chat, text + "/nope\n", 2)
    await until(session, lambda: len(session.diagnostics(chat)) == 2, first)

    first = session.expect(PUBLISH)
    session.close(chat)
    await until(session, lambda: session.diagnostics(chat) == [], first)


async def test_chat_buffers_by_language_id_and_by_settings(servers, tmp_path):
    ws, home, _demo, _model = two_skills(tmp_path)
    settings = {"chat": {"languageIds": ["mychat"], "filePatterns": ["*.talk"]}}
    session = await servers([ws], home, caps=feature_caps(), settings=settings)
    where = types.Position(line=0, character=1)
    by_id, by_name, default_name = ws / "scratch.txt", ws / "x.talk", ws / "y.chat.md"
    session.open(by_id, "/", language_id="mychat")
    session.open(by_name, "/", language_id="plaintext")
    session.open(default_name, "/", language_id="markdown")
    assert len(await complete(session, by_id, where)) == 5
    assert len(await complete(session, by_name, where)) == 5
    assert await complete(session, default_name, where) == []  # the defaults were replaced

    # a chat buffer that is not a file (an editor's untitled buffer) still completes
    session.client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri="untitled:Untitled-1", language_id="mychat", version=1, text="/")
        )
    )
    result = await session.client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri="untitled:Untitled-1"), position=where)
    )
    assert len(result) == 5


async def test_default_chat_language_ids(servers, tmp_path):
    ws, home, _demo, _model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "buffer"
    session.open(chat, "/", language_id="albedo-chat")
    assert len(await complete(session, chat, types.Position(line=0, character=1))) == 5


async def test_disabled_means_no_completion_or_hover(servers, tmp_path):
    ws, home, _demo, _model = two_skills(tmp_path)
    session = await servers([ws], home, caps=feature_caps(), settings={"enable": False})
    chat = ws / "talk.chat.md"
    session.open(chat, "/demo", language_id="markdown")
    assert await complete(session, chat, types.Position(line=0, character=3)) == []
    assert await hover(session, chat, types.Position(line=0, character=2)) is None


async def test_buffers_under_folders_with_spaces_are_checked_live(servers, tmp_path):
    ws, home = tmp_path / "my work space", tmp_path / "home"
    skill = write_skill(ws / ".agents/skills", "demo", valid("demo", "Merges files into one."))
    session = await servers([ws], home, caps=feature_caps())
    chat = ws / "talk.chat.md"
    await open_until(session, chat, "/nope\n", lambda: len(session.diagnostics(chat)) == 1)
    assert session.diagnostics(chat)[0].code == "unknown-command"
    # an open SKILL.md there is checked from its buffer, not from the disk
    await open_until(session, skill, "---\nname: wrong\ndescription: x\n---\n", lambda: bool(session.diagnostics(skill)))
    assert session.codes(skill) == ["name-mismatch"]
