"""Document links and reference diagnostics over stdio: relative references in a SKILL.md body."""

from __future__ import annotations

import os

import pytest
from lsprotocol import types

from .editing import PUBLISH, change_until, codes, feature_caps, open_until, span, until
from .harness import uri

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

BODY = (
    "# Use 😀\n"
    "😀 See [formats](references/formats.md#top) and `scripts/run.py` or [again](<references/formats.md>).\n"
    "Web: [site](https://example.com/a.md) <https://example.com/b.md> [mail](mailto:a@b.c) [here](#use)\n"
    "日本 Missing [gone](references/gone.md) and `scripts/nope.py`.\n"
    "Outside: [up](../other/SKILL.md) [abs](/etc/passwd) [linked](references/escape.md)\n"
    "The user's project file `src/main.py` and `../common/notes.md` are not the skill's.\n"
    "```sh\n"
    "python scripts/missing-in-fence.py  # [x](references/fenced.md)\n"
    "```\n"
)
TEXT = f"---\nname: pdf-tools\ndescription: Reads PDFs.\n---\n{BODY}"


def layout(tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    folder = ws / ".agents/skills/pdf-tools"
    (folder / "references").mkdir(parents=True)
    (folder / "scripts").mkdir()
    (folder / "references/formats.md").write_text("# Formats\n")
    (folder / "scripts/run.py").write_text("print('hi')\n")
    secret = tmp_path / "secret.md"
    secret.write_text("outside\n")
    os.symlink(secret, folder / "references/escape.md")
    path = folder / "SKILL.md"
    path.write_text(TEXT, encoding="utf-8")
    return ws, home, folder, path


async def test_links_to_existing_files_inside_the_skill(servers, tmp_path):
    ws, home, folder, path = layout(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    await open_until(session, path, TEXT)
    links = await session.client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=uri(path)))
    )
    assert [(link.range, link.target) for link in links] == [
        (span(TEXT, "references/formats.md#top"), uri(folder / "references/formats.md")),
        (span(TEXT, "scripts/run.py"), uri(folder / "scripts/run.py")),
        (span(TEXT, "references/formats.md", 1), uri(folder / "references/formats.md")),
    ]
    assert links[0].tooltip == "Open references/formats.md"
    # the emoji before the first link is two UTF-16 units
    assert links[0].range.start == types.Position(line=5, character=len("😀 See [formats](") + 1)

    definition = await session.client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)), position=span(TEXT, "scripts/run.py").start
        )
    )
    assert definition == types.Location(
        uri=uri(folder / "scripts/run.py"),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
    )


def expected_findings():
    return [
        ("reference-missing", span(TEXT, "references/gone.md")),
        ("reference-missing", span(TEXT, "scripts/nope.py")),
        ("reference-outside", span(TEXT, "../other/SKILL.md")),
        ("reference-outside", span(TEXT, "/etc/passwd")),
        ("reference-outside", span(TEXT, "references/escape.md")),
    ]


def findings(session, path):
    found = [d for d in session.diagnostics(path) if str(d.code).startswith("reference-")]
    return sorted(((str(d.code), d.range) for d in found), key=lambda item: (item[1].start.line, item[1].start.character))


async def test_broken_and_escaping_references_in_an_open_buffer(servers, tmp_path):
    ws, home, folder, path = layout(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    await open_until(session, path, TEXT)
    assert findings(session, path) == sorted(
        expected_findings(), key=lambda item: (item[1].start.line, item[1].start.character)
    )
    # a missing code span is information (docs/design.md#7-what-real-skills-taught); everything else here is a warning
    nope = span(TEXT, "scripts/nope.py")
    assert all(
        d.severity == (types.DiagnosticSeverity.Information if d.range == nope else types.DiagnosticSeverity.Warning)
        for d in session.diagnostics(path)
    )
    outside = next(d for d in session.diagnostics(path) if d.code == "reference-outside")
    assert "outside the skill folder" in outside.message

    # live: creating the file and editing the buffer clears the finding for it
    (folder / "references/gone.md").write_text("# Gone no more\n")
    await change_until(
        session, path, TEXT + "\n", 2, lambda: codes(session, path).count("reference-missing") == 1
    )


async def test_unopened_skills_are_checked_again_at_every_reload(servers, tmp_path):
    ws, home, folder, path = layout(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    assert codes(session, path) == ["reference-missing"] * 2 + ["reference-outside"] * 3
    assert findings(session, path) == sorted(
        expected_findings(), key=lambda item: (item[1].start.line, item[1].start.character)
    )
    # SKILL.md is unchanged (its parse is reused), but the referenced files now exist
    (folder / "references/gone.md").write_text("# Gone no more\n")
    (folder / "scripts/nope.py").write_text("pass\n")
    first = session.expect(PUBLISH)
    await session.command("skills.reload")
    await until(session, lambda: codes(session, path) == ["reference-outside"] * 3, first)


async def test_the_license_file_is_a_link_and_its_misspelling_a_quick_fix(servers, tmp_path):
    ws, home, folder, path = layout(tmp_path)
    (folder / "LICENSE.txt").write_text("terms\n")
    text = TEXT.replace("description: Reads PDFs.\n", "description: Reads PDFs.\nlicense: 😀 Terms in LICENSE.txt\n")
    session = await servers([ws], home, caps=feature_caps())
    await open_until(session, path, text)
    links = await session.client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=uri(path)))
    )
    assert (span(text, "LICENSE.txt"), uri(folder / "LICENSE.txt")) == (links[0].range, links[0].target)

    misspelt = text.replace("in LICENSE.txt", "in license.txt")
    await change_until(session, path, misspelt, 2, lambda: "license-file-missing" in codes(session, path))
    (finding,) = [d for d in session.diagnostics(path) if d.code == "license-file-missing"]
    assert finding.range == span(misspelt, "license.txt")
    actions = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            range=finding.range,
            context=types.CodeActionContext(diagnostics=[finding]),
        )
    )
    (fix,) = [action for action in actions if action.diagnostics and action.diagnostics[0].code == "license-file-missing"]
    (edit,) = fix.edit.changes[uri(path)]
    assert (edit.range, edit.new_text) == (span(misspelt, "license.txt"), "LICENSE.txt")
