"""Two stale-range bugs a review found, as exact reproductions of its steps.

The first (a closed file's UTF-16 ranges after a disk edit that changes character widths) is also what the
sequence test (test_sequences.py) found and shrank to, on main before the fix. The second (a collision's
related location counted on the winner's unsaved buffer) the sequence test did NOT find: with that bug put
back, about 1,900 steps (seed 21) passed; only this test catches it. Both came from one cause: the server
decided whether to send a file again on the engine's values, counted in code points, while the ranges it
sends are UTF-16 and so also depend on the text they are counted on. Each test compares with the oracle too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from .editor_client import EditorClient, uri
from .harness import capabilities, start, write_skill
from .oracle import Expected, differences

WIDE = "---\nname: alpha\ndescription: A test skill.\n---\n😀 See [guide](references/missing.md).\n"


def tree(tmp_path: Path) -> tuple[Path, Path]:
    workspace, home = tmp_path / "ws", tmp_path / "home"
    (workspace / ".agents/skills").mkdir(parents=True)
    (home / ".agents/skills").mkdir(parents=True)
    return workspace, home


async def tell(client: EditorClient, how: str, path: Path) -> None:
    if how == "watcher":
        await client.files_changed(path)
    else:
        await client.reload()


async def agrees_with_the_oracle(client: EditorClient, workspace: Path, home: Path) -> None:
    catalog = await client.catalog()
    problems = differences(Expected(workspace, home, client.buffers), client.published, catalog)
    assert not problems, "\n".join(problems)


def only(client: EditorClient, path: Path, code: str) -> dict:
    found = [d for d in client.published[uri(path)]["diagnostics"] if d["code"] == code]
    assert len(found) == 1, client.published[uri(path)]
    return found[0]


@pytest.mark.parametrize("how", ["watcher", "reload"])
async def test_a_closed_files_ranges_follow_a_disk_edit_that_changes_character_widths(tmp_path, how):
    workspace, home = tree(tmp_path)
    skill = workspace / ".agents/skills/alpha/SKILL.md"
    skill.parent.mkdir()
    skill.write_text(WIDE, encoding="utf-8")
    client = await EditorClient.start(workspace, home)
    try:
        link = only(client, skill, "reference-missing")["range"]
        assert (link["start"], link["end"]) == ({"line": 4, "character": 15}, {"line": 4, "character": 36})

        skill.write_text(WIDE.replace("😀", "x"), encoding="utf-8")  # same code points, one UTF-16 unit less
        await tell(client, how, skill)
        link = only(client, skill, "reference-missing")["range"]
        assert (link["start"], link["end"]) == ({"line": 4, "character": 14}, {"line": 4, "character": 35})
        await agrees_with_the_oracle(client, workspace, home)
    finally:
        await client.stop()


@pytest.mark.parametrize("how", ["watcher", "reload"])
async def test_a_collisions_related_location_is_counted_on_the_winners_disk_text(tmp_path, how):
    workspace, home = tree(tmp_path)
    winner = write_skill(workspace / ".agents/skills", "alpha", "name: alpha\ndescription: A test skill.")
    loser = write_skill(home / ".agents/skills", "alpha", "name: alpha\ndescription: A test skill.")
    client = await EditorClient.start(workspace, home)
    try:
        text = winner.read_text(encoding="utf-8")
        await client.open(winner, text)
        first, rest = text.split("\n", 1)
        await client.edit(winner, f"{first}\n\n{rest}")  # an empty line 1, unsaved: the disk still has `name` there

        with loser.open("a", encoding="utf-8") as handle:
            handle.write("See [guide](references/missing.md).\n")  # the home file changes, and so is sent again
        await tell(client, how, loser)
        related = only(client, loser, "collision")["relatedInformation"][0]["location"]
        assert related["uri"] == uri(winner)
        assert (related["range"]["start"], related["range"]["end"]) == (
            {"line": 1, "character": 6}, {"line": 1, "character": 11})
        await agrees_with_the_oracle(client, workspace, home)

        await client.close(winner)
        await client.reload()
        related = only(client, loser, "collision")["relatedInformation"][0]["location"]
        assert (related["range"]["start"], related["range"]["end"]) == (
            {"line": 1, "character": 6}, {"line": 1, "character": 11})
        await agrees_with_the_oracle(client, workspace, home)
    finally:
        await client.stop()


async def test_a_pull_report_changes_when_only_its_utf16_ranges_do(tmp_path):
    """The same cause in pull mode: a report's result id came from the engine's values alone, so a client
    asking with its previous id was told "unchanged" and kept the emoji's columns."""
    workspace, home = tree(tmp_path)
    skill = workspace / ".agents/skills/alpha/SKILL.md"
    skill.parent.mkdir()
    skill.write_text(WIDE, encoding="utf-8")
    session = await start([workspace], home, caps=capabilities(pull=True))
    try:
        ask = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri(skill)))
        first = await session.client.text_document_diagnostic_async(ask)
        assert [d.range.start.character for d in first.items] == [15]

        skill.write_text(WIDE.replace("😀", "x"), encoding="utf-8")
        await session.command("skills.reload")
        ask.previous_result_id = first.result_id
        second = await session.client.text_document_diagnostic_async(ask)
        assert second.kind == "full" and second.result_id != first.result_id
        assert [(d.range.start.character, d.range.end.character) for d in second.items] == [(14, 35)]
        again = await session.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(
                text_document=types.TextDocumentIdentifier(uri=uri(skill)), previous_result_id=second.result_id
            )
        )
        assert again.kind == "unchanged"
    finally:
        await session.stop()
