"""Quick fixes over stdio: every fix, applied to the text (UTF-16 positions), removes the finding it fixes."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from albedo_skills_ls.skills.document.rules import check_document

from .editing import apply_edits, change_until, codes, edits_for, feature_caps, open_until
from .harness import uri

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

CASES = [
    # (folder, text, code, number of fixes offered)
    ("pdf-tools", '---\n{description: "😀 Reads PDFs", name: wrong}\n---\n', "name-mismatch", 1),
    ("pdf-tools", "---\nname: >-\n  wrong\ndescription: Reads PDFs.\n---\nBody\n", "name-mismatch", 1),
    ("helper", '---\nname: "😀 My Tool"\ndescription: Helps.\n---\n', "name-invalid", 2),
    ("pdf-tools", '---\nname: "PDF Tools"\ndescription: x\n---\n', "name-invalid", 1),
    ("pdf-tools", '---\n{name: pdf-tools, description: "😀 x", licence: MIT}\n---\n', "field-unknown", 1),
    ("pdf-tools", "---\nname: pdf-tools\ndesciption: Reads PDFs.\n---\n", "field-unknown", 1),
    ("pdf-tools", "# 😀 Title\nNo frontmatter here.\n", "frontmatter-missing", 1),
    ("pdf-tools", "--- \nname: pdf-tools\n", "frontmatter-missing", 1),
    ("pdf-tools", "# 😀 Title\n\n---\nname: pdf-tools\ndescription: Reads PDFs.\n---\nBody\n", "frontmatter-missing", 1),
    ("pdf-tools", "---\nname: pdf-tools\ndescription: 😀 x\nallowed-tools:\n  - Read\n  - Grep\n---\n", "allowed-tools-list", 1),
    ("pdf-tools", "---\nname: pdf-tools\ndescription: x\nallowed-tools: [😀Read, Grep]\n---\n", "allowed-tools-list", 1),
    ("pdf-tools", "---\nname: pdf-tools\ndescription: 😀 Use this: when asked\n---\nBody\n", "yaml-unquoted-colon", 1),
    ("pdf-tools", '---\nname: pdf-tools\ndescription: Say "hi": to 😀\n---\n', "yaml-unquoted-colon", 1),
]


def skill_path(tmp_path: Path, folder: str, text: str) -> tuple[Path, Path, Path]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    path = ws / ".agents/skills" / folder / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    return ws, home, path


async def request_actions(session, path, where: types.Range, sent: list[types.Diagnostic], only=None):
    result = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            range=where,
            context=types.CodeActionContext(diagnostics=sent, only=only),
        )
    )
    return list(result or [])


@pytest.mark.parametrize("folder, text, code, offered", CASES, ids=[f"{c[2]}-{i}" for i, c in enumerate(CASES)])
async def test_each_fix_removes_its_finding(servers, tmp_path, folder, text, code, offered):
    ws, home, path = skill_path(tmp_path, folder, text)
    session = await servers([ws], home, caps=feature_caps())
    await open_until(session, path, text, lambda: code in codes(session, path))
    sent = [d for d in session.diagnostics(path) if d.code == code]
    assert len(sent) == 1

    actions = await request_actions(session, path, sent[0].range, sent)
    assert len(actions) == offered
    assert sum(bool(action.is_preferred) for action in actions) == 1
    version = 1
    for action in actions:
        assert action.kind == types.CodeActionKind.QuickFix
        assert list(action.diagnostics) == sent
        assert action.edit is not None
        fixed = apply_edits(text, edits_for(action.edit, uri(path)))
        assert fixed != text
        parsed = check_document(fixed, str(path), folder)
        assert code not in [d.code for d in parsed.diagnostics], (action.title, fixed)
        if code == "frontmatter-missing":
            assert parsed.valid, fixed  # the template itself validates
        version += 1
        await change_until(
            session, path, fixed, version, lambda: uri(path) in session.client.diagnostics and code not in codes(session, path)
        )
        version += 1  # back to the broken text for the next action
        await change_until(session, path, text, version, lambda: code in codes(session, path))
    assert path.read_text(encoding="utf-8") == text  # the server never writes a file


async def test_a_near_miss_reference_is_fixed_to_the_file_that_exists(servers, tmp_path):
    text = "---\nname: pdf-tools\ndescription: x\n---\n😀 See [forms](reference/forms.md#fill).\n"
    ws, home, path = skill_path(tmp_path, "pdf-tools", text)
    (path.parent / "references").mkdir()
    (path.parent / "references/forms.md").write_text("# Forms\n")
    session = await servers([ws], home, caps=feature_caps())
    await open_until(session, path, text, lambda: "reference-missing" in codes(session, path))
    sent = [d for d in session.diagnostics(path) if d.code == "reference-missing"]
    assert "`references/forms.md`" in sent[0].message
    (action,) = await request_actions(session, path, sent[0].range, sent)
    fixed = apply_edits(text, edits_for(action.edit, uri(path)))
    assert fixed == text.replace("reference/forms.md", "references/forms.md")
    await change_until(
        session, path, fixed, 2, lambda: uri(path) in session.client.diagnostics and not codes(session, path)
    )


async def test_the_server_checks_the_buffer_itself(servers, tmp_path):
    text = "---\nname: pdf-tools\ndescription: Reads PDFs.\ndescripton: dup\n---\n"
    ws, home, path = skill_path(tmp_path, "pdf-tools", text)
    session = await servers([ws], home, caps=feature_caps())
    await open_until(session, path, text, lambda: "field-unknown" in codes(session, path))
    unknown = session.diagnostics(path)[0]
    # the close key is already present: renaming would duplicate it, so nothing is offered
    assert await request_actions(session, path, unknown.range, [unknown]) == []

    # a client diagnostic that invents a problem gets no fix: fixes come from the server's own check
    invented = types.Diagnostic(
        range=types.Range(start=types.Position(line=1, character=6), end=types.Position(line=1, character=15)),
        message="set name to `evil`",
        code="name-mismatch",
        source="albedo-skills",
    )
    assert await request_actions(session, path, invented.range, [invented]) == []


async def test_fixes_without_context_diagnostics_and_kind_filtering(servers, tmp_path):
    text = "---\nname: wrong\ndescription: Reads PDFs.\n---\n"
    ws, home, path = skill_path(tmp_path, "pdf-tools", text)
    session = await servers([ws], home, caps=feature_caps())
    await open_until(session, path, text, lambda: "name-mismatch" in codes(session, path))
    cursor = types.Range(start=types.Position(line=1, character=8), end=types.Position(line=1, character=8))
    actions = await request_actions(session, path, cursor, [])
    assert [action.title for action in actions] == ["Set name to the folder's name `pdf-tools`"]
    assert actions[0].diagnostics[0].code == "name-mismatch"
    assert actions[0].diagnostics[0].range == session.diagnostics(path)[0].range

    elsewhere = types.Range(start=types.Position(line=2, character=0), end=types.Position(line=2, character=1))
    assert await request_actions(session, path, elsewhere, []) == []
    assert await request_actions(session, path, cursor, [], only=[types.CodeActionKind.Refactor]) == []
    assert len(await request_actions(session, path, cursor, [], only=[types.CodeActionKind.QuickFix])) == 1


async def test_versioned_edits_for_clients_that_support_them(servers, tmp_path):
    text = "---\nname: wrong\ndescription: Reads PDFs.\n---\n"
    ws, home, path = skill_path(tmp_path, "pdf-tools", text)
    caps = feature_caps()
    caps.workspace.workspace_edit = types.WorkspaceEditClientCapabilities(document_changes=True)
    session = await servers([ws], home, caps=caps)
    await open_until(session, path, text, lambda: "name-mismatch" in codes(session, path))
    sent = session.diagnostics(path)
    (action,) = await request_actions(session, path, sent[0].range, sent)
    (change,) = action.edit.document_changes
    assert change.text_document == types.OptionalVersionedTextDocumentIdentifier(uri=uri(path), version=1)
    assert apply_edits(text, change.edits) == "---\nname: pdf-tools\ndescription: Reads PDFs.\n---\n"
