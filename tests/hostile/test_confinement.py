"""A snapshot is never proof of a path (docs/design.md#8-trust-boundaries).

After discovery, the skill folder is replaced by a link to `/`. No file watcher tells the server (a client
that does not watch files, or `autoReload` off, or the reload debounce), so the snapshot still names the
skill: every request must re-establish confinement when it runs.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from pygls.exceptions import JsonRpcException

from albedo_skills_ls.skills.activation import commands as activation
from albedo_skills_ls.skills.resources import confinement, listing as resource_listing, paging as resource_paging
from albedo_skills_ls.skills.catalog.discovery import discover
from albedo_skills_ls.skills.core.errors import Refused
from lsp.harness import valid, write_skill

REQUEST_FAILED = -32803
SECRET = "root-only secret\n"


def build(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A workspace with one skill `demo`, a home with none, and a file outside every root."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    write_skill(ws / ".agents/skills", "demo", valid("demo"), "# Demo\n")
    (ws / ".agents/skills/demo/notes.md").write_text("inside\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    write_skill(outside, "demo", valid("demo"), "# Demo\n")  # same name and description, outside the root
    return ws, home, outside


def swap_for_link(folder: Path, target: str | Path) -> None:
    """Replace a real folder by a link to `target`, as a hostile or careless install would."""
    shutil.rmtree(folder)
    os.symlink(target, folder)


# ----------------------------------------------------------------------------------------------- engine


@pytest.mark.parametrize("target", ["/", "outside"])
def test_engine_refuses_a_skill_folder_swapped_for_a_link_after_discovery(tmp_path, target):
    ws, home, outside = build(tmp_path)
    skill = discover(str(ws), str(home)).skill("demo")
    assert skill is not None
    swap_for_link(Path(skill.folder), "/" if target == "/" else outside / "demo")

    probe = "etc/passwd" if target == "/" else "secret.txt"  # a file that does exist beneath the link
    if target != "/":
        (outside / "demo" / "secret.txt").write_text(SECRET, encoding="utf-8")
    with pytest.raises(Refused, match="outside its skills root") as read:
        resource_paging.read_resource(skill.name, skill.folder, probe, discovery_root=skill.root)
    assert skill.folder in str(read.value) and "skills.reload" in str(read.value)
    with pytest.raises(Refused, match="outside its skills root"):
        resource_listing.list_resources(skill.name, skill.folder, discovery_root=skill.root)
    # an activation re-reads SKILL.md: the look-alike outside the root is never what it returns
    with pytest.raises(Refused, match="outside its skills root"):
        activation.reread(skill)


def test_engine_still_reads_a_folder_linked_inside_its_root(tmp_path):
    # The rule is confinement, not "no links": a skill folder that is a link within its root is fine.
    ws, home, _ = build(tmp_path)
    skills = ws / ".agents/skills"
    os.rename(skills / "demo", skills / ".real-demo")
    os.symlink(skills / ".real-demo", skills / "demo")
    skill = discover(str(ws), str(home)).skill("demo")
    assert skill is not None
    page = resource_paging.read_resource(skill.name, skill.folder, "notes.md", discovery_root=skill.root)
    assert page["content"] == "inside\n"
    assert "notes.md" in resource_listing.list_resources(skill.name, skill.folder, discovery_root=skill.root)["resources"]
    assert activation.reread(skill) == "# Demo\n"


def test_a_subfolder_swapped_between_the_check_and_the_open_is_not_followed(tmp_path):
    # The race the descriptor walk closes: the path was resolved and checked, then a component became a
    # link. Opening component by component with O_NOFOLLOW refuses instead of following it.
    root = tmp_path / "root"
    (root / "demo/references").mkdir(parents=True)
    (root / "demo/references/x.md").write_text("x", encoding="utf-8")
    checked = os.path.realpath(root / "demo/references/x.md")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/x.md").write_text(SECRET, encoding="utf-8")
    swap_for_link(root / "demo/references", tmp_path / "elsewhere")
    with pytest.raises(Refused, match="changed while it was being opened"):
        confinement.open_beneath(os.path.realpath(root), checked, "references/x.md")
    # and the file itself swapped for a link
    os.unlink(root / "demo/references")
    (root / "demo/references").mkdir()
    os.symlink(tmp_path / "elsewhere/x.md", root / "demo/references/x.md")
    with pytest.raises(Refused, match="changed while it was being opened"):
        confinement.open_beneath(os.path.realpath(root), checked, "references/x.md")


def test_a_listed_subfolder_swapped_for_a_link_out_is_reported_not_walked(tmp_path):
    ws, home, _ = build(tmp_path)
    skill = discover(str(ws), str(home)).skill("demo")
    assert skill is not None
    refs = Path(skill.folder) / "references"
    refs.mkdir()
    os.symlink("/", refs / "up")
    listed = resource_listing.list_resources(skill.name, skill.folder, discovery_root=skill.root)
    assert all(not path.startswith("references/up/") for path in listed["resources"])
    assert [d["code"] for d in listed["diagnostics"]] == ["symlink-escape"]


# ----------------------------------------------------------------------------------------------- server


async def _request_failed(session, *arguments) -> str:
    with pytest.raises(JsonRpcException) as caught:
        await session.command(*arguments)
    assert caught.value.code == REQUEST_FAILED, caught.value.message
    return caught.value.message


@pytest.mark.parametrize("auto_reload", [True, False])
async def test_server_routes_refuse_a_skill_folder_swapped_for_a_link_to_root(servers, tmp_path, auto_reload):
    ws, home, _ = build(tmp_path)
    # The test client sends no file events, like a client that does not watch files.
    session = await servers([ws], home, settings={"autoReload": auto_reload})
    assert (await session.command("skills.read", "demo", "notes.md"))["content"] == "inside\n"

    swap_for_link(ws / ".agents/skills/demo", "/")

    message = await _request_failed(session, "skills.read", "demo", "etc/passwd")
    assert "outside its skills root" in message and "root:" not in message
    assert "outside its skills root" in await _request_failed(session, "skills.resources", "demo")
    assert "outside its skills root" in await _request_failed(session, "commands.invoke", "/demo", "x", "user")
    # a reload drops the escaped folder from the catalog, after which the skill is simply unknown
    await session.command("skills.reload")
    assert "no skill named" in await _request_failed(session, "skills.read", "demo", "etc/passwd")
