"""The counts an editor shows agree with `albedo-skills check` on the same tree, after every step.

`albedoSkills/catalogChanged` says how many diagnostics the client was given (the Problems panel's count,
what a status bar shows): it is counted once every reading of the reload has landed, the security reading
included, so it equals the diagnostics published and the diagnostics `check` reports on the same tree.
Two sequences that once disagreed are replayed here: a link leading out of a workspace skill made while
the server runs (its finding was published, but the announcement counted one fewer), and steps around it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lsp.editor_client import EditorClient

from .harness import valid, write_skill


def check_count(workspace: Path, home: Path) -> int:
    """What `albedo-skills check` reports, run in the workspace as a person runs it there (every root, the
    security reading on)."""
    done = subprocess.run(
        [sys.executable, "-m", "albedo_skills_ls.cli", "check", "--home", str(home), "--format", "json"],
        capture_output=True, text=True, cwd=workspace,
    )
    assert done.returncode in (0, 1), done.stderr
    return sum(json.loads(done.stdout)["diagnostic_counts"].values())


def published_count(client: EditorClient) -> int:
    return sum(len(params["diagnostics"]) for params in client.published.values())


def assert_agree(client: EditorClient, workspace: Path, home: Path) -> int:
    announced = client.announcements[-1]["diagnostics"]
    published = published_count(client)
    expected = check_count(workspace, home)
    assert announced == published == expected, (announced, published, expected)
    return announced


async def test_a_link_leading_out_of_a_skill_made_while_the_server_runs_is_counted_as_check_counts(tmp_path):
    workspace, home, outside = tmp_path / "ws", tmp_path / "home", tmp_path / "outside"
    for folder in (workspace, home, outside):
        folder.mkdir()
    (outside / "data.txt").write_text("kept outside the skill\n", encoding="utf-8")
    root = workspace / ".agents" / "skills"
    skill = write_skill(root, "demo", valid("demo")).parent
    write_skill(root, "Broken", "name: broken\ndescription: Its folder is not its name.\n")  # an error as well
    client = await EditorClient.start(workspace, home)
    try:
        before = assert_agree(client, workspace, home)
        (skill / "linked").symlink_to(outside)  # the link leads out: the security reading says it was not read
        await client.files_changed(skill / "linked")
        after = assert_agree(client, workspace, home)
        assert after == before + 1
        (skill / "linked").unlink()
        await client.files_changed(skill / "linked")
        assert assert_agree(client, workspace, home) == before
    finally:
        await client.stop()


async def test_the_announcement_counts_the_security_reading_at_start(tmp_path):
    workspace, home, outside = tmp_path / "ws", tmp_path / "home", tmp_path / "outside"
    for folder in (workspace, home, outside):
        folder.mkdir()
    skill = write_skill(workspace / ".agents" / "skills", "demo", valid("demo")).parent
    (skill / "linked").symlink_to(outside)
    client = await EditorClient.start(workspace, home)
    try:
        assert assert_agree(client, workspace, home) == 1
    finally:
        await client.stop()


async def test_a_user_root_skill_with_its_skill_md_open_gets_every_finding_check_reports(tmp_path):
    """Its folder's own findings too (a folder reached twice through links), not only the open buffer's;
    closed again, the user-root skill is no longer read and its findings go."""
    workspace, home = tmp_path / "ws", tmp_path / "home"
    (workspace / ".agents" / "skills").mkdir(parents=True)  # a workspace with no skill of its own
    skill = write_skill(home / ".agents" / "skills", "mine", valid("mine"))
    folder = skill.parent
    (folder / "data").mkdir()
    (folder / "data" / "notes.txt").write_text("notes\n", encoding="utf-8")
    (folder / "references").mkdir()
    (folder / "references" / "a").symlink_to("../data")
    (folder / "references" / "b").symlink_to("../data")  # the same folder reached twice: not walked again
    client = await EditorClient.start(workspace, home)
    try:
        assert published_count(client) == 0  # closed: a user-root skill is not read (docs/security.md)
        await client.open(skill, skill.read_text(encoding="utf-8"))
        await client.catalog()  # a request: answered after what the open published
        assert assert_agree(client, workspace, home) == 2
        assert {Path(u).name for u, p in client.published.items() if p["diagnostics"]} == {"a", "b"}
        await client.close(skill)
        await client.catalog()
        assert published_count(client) == 0 and client.announcements[-1]["diagnostics"] == 0
    finally:
        await client.stop()
