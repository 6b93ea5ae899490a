"""Discovery (docs/design.md#3-discovery) on real trees: roots, candidates, links, FIFOs, permissions,
collisions, bounds, ordering and the snapshot's contents."""

from __future__ import annotations

import errno
import json
import os
import socket
import stat
from pathlib import Path

import pytest

from albedo_skills_ls.skills.catalog import discovery
from albedo_skills_ls.skills.authoring.fixes import folder_fixes
from albedo_skills_ls.skills.core.limits import (
    MAX_CANDIDATES,
    MAX_DIAGNOSTICS,
    MAX_NESTED_NAMED,
    MAX_NESTED_SCAN_ENTRIES,
    MAX_SKILL_FILE_BYTES,
)
from albedo_skills_ls.skills.core.model import ERROR, FILE_START, INFORMATION, WARNING, Related
from albedo_skills_ls.skills.document.skill_file import read_skill_bytes
from conftest import Layout, codes, is_root, only, rng, skill_text, write_skill

NAME_RANGE = rng(1, 6, 1, 10)  # `name: demo` on line 1 as write_skill renders it


def paths_of(catalog, code: str) -> list[str]:
    return [d.path for d in catalog.diagnostics if d.code == code]


# ------------------------------------------------------------------------------------------------ roots


def test_roots_in_precedence_order_and_missing_roots_are_not_errors(layout: Layout):
    catalog = layout.discover()
    assert [r.path for r in catalog.roots] == [str(p) for p in layout.roots]
    assert [r.scope for r in catalog.roots] == ["workspace", "workspace", "user", "user", "user"]
    assert [r.exists for r in catalog.roots] == [False] * 5
    assert catalog.skills == () and catalog.diagnostics == () and catalog.diagnostics_dropped == 0
    assert catalog.workspace == str(layout.workspace)


def test_existing_roots_are_marked(layout: Layout):
    layout.root(1)
    layout.root(4)
    assert [r.exists for r in layout.discover().roots] == [False, True, False, False, True]


def test_home_defaults_to_the_process_home(layout: Layout, monkeypatch):
    monkeypatch.setenv("HOME", str(layout.home))
    write_skill(layout.root(4), "demo")
    catalog = discovery.discover(str(layout.workspace))
    assert [r.path for r in catalog.roots] == [str(p) for p in layout.roots]
    assert [s.path for s in catalog.skills] == [str(layout.roots[4] / "demo" / "SKILL.md")]


def test_without_user_roots_or_without_workspace(layout: Layout):
    write_skill(layout.root(0), "mine")
    write_skill(layout.root(2), "theirs")
    only_ws = layout.discover(user_roots=False)
    assert [r.path for r in only_ws.roots] == [str(p) for p in layout.roots[:2]]
    assert [s.name for s in only_ws.skills] == ["mine"]
    no_ws = discovery.discover(None, str(layout.home))
    assert no_ws.workspace is None
    assert [r.path for r in no_ws.roots] == [str(p) for p in layout.roots[2:]]
    assert [s.name for s in no_ws.skills] == ["theirs"]


# ------------------------------------------------------------------------------------------- candidates


def test_skill_fields_in_the_catalog(layout: Layout):
    path = write_skill(layout.root(1), "demo", {"name": "demo", "description": "Does demo things."})
    catalog = layout.discover()
    [skill] = catalog.skills
    assert skill.to_json() == {
        "name": "demo",
        "description": "Does demo things.",
        "path": str(path),
        "command": "/demo",
        "scope": "workspace",
        "root": str(layout.roots[1]),
    }
    assert os.path.isabs(skill.path)
    assert catalog.diagnostics == ()
    assert catalog.file_diagnostics == {str(path): ()}


def test_hidden_children_are_skipped(layout: Layout):
    root = layout.root(0)
    write_skill(root, ".hidden", {"name": ".hidden"})  # would be invalid if examined
    write_skill(root, ".git")
    (root / ".empty").mkdir()
    write_skill(root, "demo")
    catalog = layout.discover()
    assert [s.name for s in catalog.skills] == ["demo"]
    assert catalog.diagnostics == ()


def test_files_beside_skill_folders_are_ignored(layout: Layout):
    root = layout.root(0)
    write_skill(root, "demo")
    (root / "README.md").write_text("# my skills\n")
    (root / "SKILL.md").write_text("---\nname: root\n---\n")  # a SKILL.md directly in the root
    (root / "notes.txt").write_text("")
    os.symlink(root / "README.md", root / "readme-link")  # a link to a file is not a folder either
    catalog = layout.discover()
    assert [s.name for s in catalog.skills] == ["demo"]
    assert catalog.diagnostics == ()


def test_a_dangling_link_in_a_root_is_reported_not_dropped(layout: Layout):
    root = layout.root(0)
    write_skill(root, "demo")
    os.symlink(root / "missing", root / "dangling")
    catalog = layout.discover()
    assert [s.name for s in catalog.skills] == ["demo"]
    diag = only(catalog.diagnostics, "unreadable")
    assert diag.path == str(root / "dangling") and diag.severity == ERROR
    assert os.strerror(errno.ENOENT) in diag.message and "remove it" in diag.message


def test_skill_file_missing(layout: Layout):
    folder = layout.root(0) / "empty-skill"
    (folder / "references").mkdir(parents=True)
    (folder / "skill.md").write_text("---\nname: empty-skill\ndescription: d\n---\n")  # wrong case
    catalog = layout.discover()
    diag = only(catalog.diagnostics, "skill-file-missing")
    assert diag.path == str(folder)
    assert diag.severity == ERROR and diag.range == FILE_START
    assert "`empty-skill`" in diag.message and "SKILL.md" in diag.message
    assert catalog.skills == ()


@pytest.mark.parametrize("written", ["skill.md", "Skill.md", "SKILL.MD"])
def test_skill_file_missing_beside_a_wrongly_cased_file_says_to_rename_it(layout: Layout, written):
    folder = layout.root(1) / "demo"
    folder.mkdir()
    (folder / written).write_text("---\nname: demo\ndescription: d\n---\n")
    diag = only(layout.discover().diagnostics, "skill-file-missing")
    assert diag.path == str(folder)
    assert f"`{written}`" in diag.message and "rename it to `SKILL.md`" in diag.message
    (fix,) = folder_fixes(diag)
    assert fix.safe and fix.edits == ()
    (rename,) = fix.renames
    assert (rename.old, rename.new) == (str(folder / written), str(folder / "SKILL.md"))
    os.rename(rename.old, rename.new)
    assert [skill.name for skill in layout.discover().skills] == ["demo"]


def test_only_a_wrongly_cased_skill_file_gets_the_rename_fix(layout: Layout):
    (layout.root(1) / "plugin" / "nested").mkdir(parents=True)
    write_skill(layout.root(1) / "plugin", "nested")
    (layout.root(1) / "plugin" / "skill.md").mkdir()  # a folder so named is no file to rename
    diag = only(layout.discover().diagnostics, "skill-file-missing")
    assert folder_fixes(diag) == []


@pytest.mark.parametrize("depth", [1, 2])
def test_skill_file_missing_on_a_folder_of_nested_skills_names_up_to_three(layout: Layout, depth):
    # a collection copied whole: `plugin/x/SKILL.md`, or `plugin/skills/x/SKILL.md` as plugins bundle them
    plugin = layout.root(1) / "plugin"
    inner = plugin / "skills" if depth == 2 else plugin
    for name in ("e-five", "a-one", "d-four", "b-two", "c-three"):
        write_skill(inner, name)
    (plugin / "README.md").write_text("a plugin\n")
    diag = only(layout.discover().diagnostics, "skill-file-missing")
    assert diag.path == str(plugin)
    assert "immediate children" in diag.message
    prefix = "skills/" if depth == 2 else ""
    named = [f"`{prefix}{name}`" for name in ("a-one", "b-two", "c-three")]
    assert all(name in diag.message for name in named)
    assert f"`{prefix}d-four`" not in diag.message and "2 more" in diag.message


def test_skill_file_missing_names_exactly_the_nested_skills_when_there_are_at_most_three(layout: Layout):
    plugin = layout.root(1) / "plugin"
    write_skill(plugin / "skills", "only-one")
    (plugin / "skills" / "not-a-skill").mkdir()
    diag = only(layout.discover().diagnostics, "skill-file-missing")
    assert "`skills/only-one`" in diag.message and "more" not in diag.message
    assert "not-a-skill" not in diag.message


@pytest.mark.parametrize("count, more", [(MAX_NESTED_NAMED, ""), (MAX_NESTED_NAMED + 1, "and 1 more")])
def test_nested_skills_are_named_up_to_the_bound(layout: Layout, count, more):
    plugin = layout.root(1) / "plugin"
    for index in range(count):
        write_skill(plugin, f"s-{index}")
    diag = only(layout.discover().diagnostics, "skill-file-missing")
    assert all(f"`s-{index}`" in diag.message for index in range(MAX_NESTED_NAMED))
    assert f"`s-{MAX_NESTED_NAMED}`" not in diag.message
    assert (more in diag.message) if more else ("more" not in diag.message)


@pytest.mark.parametrize("past", [0, 1])
def test_the_search_for_nested_skills_reads_a_bounded_number_of_entries(layout: Layout, past):
    # entries read: 2 in the plugin, 1 in a-skills, the fillers in z-filler (listed last: sorted order)
    plugin = layout.root(1) / "plugin"
    write_skill(plugin / "a-skills", "x")
    filler = plugin / "z-filler"
    filler.mkdir()
    for index in range(MAX_NESTED_SCAN_ENTRIES - 3 + past):
        (filler / f"f{index}").write_bytes(b"")
    diag = only(layout.discover().diagnostics, "skill-file-missing")
    assert "`a-skills/x`" in diag.message
    assert ("perhaps others" in diag.message) == bool(past)


def test_skill_file_missing_on_an_empty_folder_keeps_the_plain_advice(layout: Layout):
    (layout.root(1) / "empty" / "assets").mkdir(parents=True)
    diag = only(layout.discover().diagnostics, "skill-file-missing")
    assert "immediate children" not in diag.message and "rename" not in diag.message


def test_skill_md_that_is_a_folder_is_not_regular(layout: Layout):
    path = layout.root(0) / "demo" / "SKILL.md"
    path.mkdir(parents=True)
    diag = only(layout.discover().diagnostics, "skill-file-not-regular")
    assert diag.path == str(path) and diag.severity == ERROR
    assert "a folder" in diag.message


def test_skill_md_that_is_a_fifo_is_never_opened(layout: Layout):
    folder = layout.root(0) / "demo"
    folder.mkdir()
    os.mkfifo(folder / "SKILL.md")
    # Opening a FIFO for reading blocks until a writer appears: this test finishing proves it is not opened.
    catalog = layout.discover()
    diag = only(catalog.diagnostics, "skill-file-not-regular")
    assert diag.path == str(folder / "SKILL.md")
    assert "a FIFO" in diag.message
    assert catalog.skills == ()


def test_skill_md_link_to_a_fifo_inside_the_folder_is_never_opened(layout: Layout):
    folder = layout.root(0) / "demo"
    folder.mkdir()
    os.mkfifo(folder / "pipe")
    os.symlink("pipe", folder / "SKILL.md")
    assert "a FIFO" in only(layout.discover().diagnostics, "skill-file-not-regular").message


def test_skill_md_that_is_a_socket_is_not_regular(layout: Layout, monkeypatch):
    folder = layout.root(0) / "demo"
    folder.mkdir()
    monkeypatch.chdir(folder)  # a relative name keeps the socket path under the AF_UNIX length limit
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind("SKILL.md")
        assert stat.S_ISSOCK(os.lstat(folder / "SKILL.md").st_mode)
        diag = only(layout.discover().diagnostics, "skill-file-not-regular")
    assert "a device or socket" in diag.message


def test_skill_md_link_resolving_outside_its_folder_is_not_regular(layout: Layout, tmp_path: Path):
    elsewhere = write_skill(tmp_path / "elsewhere", "demo")  # a perfectly valid file, but outside
    folder = layout.root(0) / "demo"
    folder.mkdir()
    os.symlink(elsewhere, folder / "SKILL.md")
    catalog = layout.discover()
    diag = only(catalog.diagnostics, "skill-file-not-regular")
    assert diag.path == str(folder / "SKILL.md")
    assert "outside its skill folder" in diag.message
    assert catalog.skills == ()


def test_skill_md_link_to_a_sibling_skill_is_outside_its_folder(layout: Layout):
    root = layout.root(0)
    write_skill(root, "real")
    (root / "copy").mkdir()
    os.symlink("../real/SKILL.md", root / "copy" / "SKILL.md")
    catalog = layout.discover()
    assert [s.name for s in catalog.skills] == ["real"]
    assert paths_of(catalog, "skill-file-not-regular") == [str(root / "copy" / "SKILL.md")]


def test_skill_md_link_inside_its_folder_is_read(layout: Layout):
    folder = layout.root(0) / "demo"
    folder.mkdir()
    (folder / "docs").mkdir()
    (folder / "docs" / "skill.md").write_text(skill_text({"name": "demo", "description": "linked"}))
    os.symlink("docs/skill.md", folder / "SKILL.md")
    catalog = layout.discover()
    assert catalog.diagnostics == ()
    [skill] = catalog.skills
    assert skill.description == "linked" and skill.path == str(folder / "SKILL.md")


def test_broken_skill_md_link_is_not_regular(layout: Layout):
    folder = layout.root(0) / "demo"
    folder.mkdir()
    os.symlink("nowhere.md", folder / "SKILL.md")
    diag = only(layout.discover().diagnostics, "skill-file-not-regular")
    assert "broken link" in diag.message


# ---------------------------------------------------------------------------------------- folder links


def test_skill_folder_link_inside_its_root_is_a_skill(layout: Layout):
    root = layout.root(0)
    write_skill(root / ".store", "demo")  # hidden: not a candidate by itself
    os.symlink(".store/demo", root / "demo")
    catalog = layout.discover()
    assert catalog.diagnostics == ()
    [skill] = catalog.skills
    assert skill.path == str(root / "demo" / "SKILL.md")  # spelled as found under the root, not resolved


def test_skill_folder_link_to_outside_its_root_is_a_symlink_escape(layout: Layout, tmp_path: Path):
    write_skill(tmp_path / "outside", "demo")
    root = layout.root(0)
    os.symlink(tmp_path / "outside" / "demo", root / "demo")
    catalog = layout.discover()
    diag = only(catalog.diagnostics, "symlink-escape")
    assert diag.path == str(root / "demo")
    assert diag.severity == ERROR and diag.range == FILE_START
    assert str(tmp_path / "outside" / "demo") in diag.message
    assert catalog.skills == ()


def test_skill_folder_link_into_another_discovery_root_escapes(layout: Layout):
    write_skill(layout.root(1), "demo")
    os.symlink(layout.roots[1] / "demo", layout.root(0) / "demo")
    catalog = layout.discover()
    assert paths_of(catalog, "symlink-escape") == [str(layout.roots[0] / "demo")]
    [skill] = catalog.skills
    assert skill.path == str(layout.roots[1] / "demo" / "SKILL.md")


def test_skill_folder_link_to_the_root_parent_escapes_and_does_not_recurse(layout: Layout):
    root = layout.root(0)
    os.symlink("..", root / "up")
    assert paths_of(layout.discover(), "symlink-escape") == [str(root / "up")]


def test_linked_root_is_resolved_before_checking_folder_links(layout: Layout, tmp_path: Path):
    real_root = tmp_path / "dotfiles" / "skills"
    write_skill(real_root / ".store", "demo")
    layout.roots[2].parent.mkdir(parents=True)
    os.symlink(real_root, layout.roots[2])  # ~/.albedo/skills -> ~/dotfiles/skills
    os.symlink(real_root / ".store" / "demo", real_root / "demo")  # absolute, into the resolved root
    catalog = layout.discover()
    assert catalog.diagnostics == ()
    [skill] = catalog.skills
    assert skill.path == str(layout.roots[2] / "demo" / "SKILL.md")
    assert skill.root == str(layout.roots[2])


def test_link_loops_as_child_folders_do_not_hang(layout: Layout):
    root = layout.root(0)
    os.symlink("self", root / "self")
    os.symlink("b", root / "a")
    os.symlink("a", root / "b")
    write_skill(root, "demo")
    catalog = layout.discover()
    assert [s.name for s in catalog.skills] == ["demo"]
    assert {"self", "a", "b"}.isdisjoint(s.name for s in catalog.skills)
    loops = [d for d in catalog.diagnostics if d.code == "unreadable"]
    assert [os.path.basename(d.path) for d in loops] == ["a", "b", "self"]
    assert all(os.strerror(errno.ELOOP) in d.message for d in loops)


# ----------------------------------------------------------------------------------------- unreadable


def test_permission_error_is_unreadable_with_the_os_reason(layout: Layout):
    path = write_skill(layout.root(0), "demo")
    if not is_root():
        os.chmod(path, 0)
        reason = os.strerror(errno.EACCES)
    else:
        # chmod 000 does not stop root from reading, so produce a real OSError another way: a link chain
        # SKILL.md -> a -> SKILL.md fails with ELOOP when it is resolved.
        path.unlink()
        os.symlink("a", path)
        os.symlink("SKILL.md", path.parent / "a")
        reason = os.strerror(errno.ELOOP)
    try:
        catalog = layout.discover()
    finally:
        if not is_root():
            os.chmod(path, 0o644)
    diag = only(catalog.diagnostics, "unreadable")
    assert diag.path == str(path) and diag.severity == ERROR
    assert reason in diag.message
    assert catalog.skills == ()


def test_link_chain_loop_as_skill_md_is_unreadable(layout: Layout):
    folder = layout.root(0) / "demo"
    folder.mkdir()
    os.symlink("a", folder / "SKILL.md")
    os.symlink("SKILL.md", folder / "a")
    diag = only(layout.discover().diagnostics, "unreadable")
    assert diag.path == str(folder / "SKILL.md")
    assert os.strerror(errno.ELOOP) in diag.message


def test_unlistable_root_is_unreadable_and_other_roots_still_work(layout: Layout):
    write_skill(layout.root(2), "demo")
    bad = layout.roots[0]
    bad.parent.mkdir(parents=True)
    if not is_root():
        bad.mkdir()
        os.chmod(bad, 0)
        reason = os.strerror(errno.EACCES)
    else:
        os.symlink("skills", bad)  # a root that is a link to itself: listing it fails with ELOOP
        reason = os.strerror(errno.ELOOP)
    try:
        catalog = layout.discover()
    finally:
        if not is_root():
            os.chmod(bad, 0o755)
    diag = only(catalog.diagnostics, "unreadable")
    assert diag.path == str(bad) and reason in diag.message
    assert catalog.roots[0].exists is True
    assert [s.name for s in catalog.skills] == ["demo"]


# --------------------------------------------------------------------------------------- size bounds


def _skill_of_size(size: int) -> bytes:
    head = skill_text({"name": "demo", "description": "d"}).encode()
    return head + b"x" * (size - len(head))


def test_skill_file_of_exactly_the_byte_bound_is_read(layout: Layout):
    write_skill(layout.root(0), "demo", raw=_skill_of_size(MAX_SKILL_FILE_BYTES))
    catalog = layout.discover()
    assert [s.name for s in catalog.skills] == ["demo"]
    assert "skill-file-too-large" not in codes(catalog.diagnostics)
    assert codes(catalog.diagnostics) == ["body-too-long"]  # information only


def test_skill_file_one_byte_over_the_bound_is_too_large(layout: Layout):
    path = write_skill(layout.root(0), "demo", raw=_skill_of_size(MAX_SKILL_FILE_BYTES + 1))
    catalog = layout.discover()
    diag = only(catalog.diagnostics, "skill-file-too-large")
    assert diag.path == str(path) and diag.severity == ERROR
    assert f"{MAX_SKILL_FILE_BYTES + 1:,}" in diag.message
    assert catalog.skills == ()


def test_huge_sparse_skill_file_is_refused_without_reading_it(layout: Layout):
    path = write_skill(layout.root(0), "demo")
    with open(path, "r+b") as handle:
        handle.truncate(1 << 40)  # a terabyte, sparse: reading it would never finish
    diag = only(layout.discover().diagnostics, "skill-file-too-large")
    assert f"{1 << 40:,}" in diag.message


def test_a_file_larger_than_its_stat_says_is_read_whole():
    # The read asks for the size fstat gave; a file that holds more (it grew, or it is one of /proc's
    # files, which all say 0 bytes) is read on to its end, in further chunks.
    path = "/proc/self/cmdline"
    assert os.stat(path).st_size == 0
    data, _info, problem = read_skill_bytes(path, "/proc/self")
    assert problem is None
    with open(path, "rb") as handle:
        assert data == handle.read() and len(data) > 1


# ----------------------------------------------------------------------------------------- precedence


def test_same_name_in_all_five_roots_the_workspace_albedo_root_wins(layout: Layout):
    for index in range(5):
        write_skill(layout.root(index), "demo", {"name": "demo", "description": f"from root {index}"})
    catalog = layout.discover()
    winner_path = str(layout.roots[0] / "demo" / "SKILL.md")
    [skill] = catalog.skills
    assert (skill.path, skill.scope, skill.root, skill.description) == (
        winner_path,
        "workspace",
        str(layout.roots[0]),
        "from root 0",
    )
    collisions = [d for d in catalog.diagnostics if d.code == "collision"]
    assert sorted(d.path for d in collisions) == sorted(str(r / "demo" / "SKILL.md") for r in layout.roots[1:])
    for diag in collisions:
        assert diag.severity == WARNING
        assert diag.range == NAME_RANGE
        assert winner_path in diag.message
        [related] = diag.related
        assert related.path == winner_path
        assert related.range == NAME_RANGE
        assert "demo" in related.message
    by_path = {d.path: d for d in collisions}
    assert "an earlier root wins" in by_path[str(layout.roots[1] / "demo" / "SKILL.md")].message
    for root in layout.roots[2:]:
        assert "workspace skills win over user skills" in by_path[str(root / "demo" / "SKILL.md")].message
    assert len(catalog.diagnostics) == 4


def test_workspace_beats_user_even_from_the_later_workspace_root(layout: Layout):
    write_skill(layout.root(2), "demo")
    write_skill(layout.root(1), "demo")
    catalog = layout.discover()
    assert catalog.skills[0].path == str(layout.roots[1] / "demo" / "SKILL.md")
    diag = only(catalog.diagnostics, "collision")
    assert diag.path == str(layout.roots[2] / "demo" / "SKILL.md")
    assert diag.related == (Related(catalog.skills[0].path, "`demo` is defined here and wins", NAME_RANGE),)


@pytest.mark.parametrize("winner, loser", [(0, 1), (2, 3), (2, 4), (3, 4)])
def test_within_a_scope_the_earlier_root_wins(layout: Layout, winner: int, loser: int):
    write_skill(layout.root(loser), "demo")
    write_skill(layout.root(winner), "demo")
    catalog = layout.discover()
    assert catalog.skills[0].root == str(layout.roots[winner])
    diag = only(catalog.diagnostics, "collision")
    assert diag.path == str(layout.roots[loser] / "demo" / "SKILL.md")
    assert "an earlier root wins" in diag.message


def test_an_invalid_skill_does_not_hide_a_valid_one(layout: Layout):
    write_skill(layout.root(0), "demo", {"name": "demo"})  # no description: invalid
    write_skill(layout.root(3), "demo")
    catalog = layout.discover()
    assert [s.root for s in catalog.skills] == [str(layout.roots[3])]
    assert codes(catalog.diagnostics) == ["description-missing"]


def test_the_name_decides_a_collision_not_the_folder(layout: Layout):
    # Two valid skills can only share a name from different roots; each matches its own folder.
    write_skill(layout.root(0), "alpha")
    write_skill(layout.root(2), "beta")
    write_skill(layout.root(3), "alpha")
    catalog = layout.discover()
    assert [(s.name, s.scope) for s in catalog.skills] == [("alpha", "workspace"), ("beta", "user")]
    assert paths_of(catalog, "collision") == [str(layout.roots[3] / "alpha" / "SKILL.md")]


def test_warnings_keep_a_skill_and_appear_in_the_catalog_diagnostics(layout: Layout):
    write_skill(layout.root(0), "demo", "name: demo\ndescription: d\ndesciption: typo\nversion: 2\n")
    catalog = layout.discover()
    assert [s.name for s in catalog.skills] == ["demo"]
    assert codes(catalog.diagnostics) == ["field-unknown", "field-host-specific"]


# ---------------------------------------------------------------------------------- command-collision


def test_skill_named_like_a_builtin_gets_a_skill_prefixed_command(layout: Layout):
    path = write_skill(layout.root(0), "model")
    catalog = layout.discover()
    [skill] = catalog.skills
    assert skill.command == "/skill:model"
    diag = only(catalog.diagnostics, "command-collision")
    assert diag.path == str(path) and diag.severity == INFORMATION
    assert diag.range == rng(1, 6, 1, 11)
    assert "/skill:model" in diag.message
    assert catalog.builtins == discovery.DEFAULT_BUILTINS
    assert {"help", "model", "reload"} <= set(catalog.builtins)


def test_builtins_are_a_setting(layout: Layout):
    write_skill(layout.root(0), "model")
    write_skill(layout.root(0), "demo")
    catalog = layout.discover(builtins=("demo", "demo"))
    assert {s.name: s.command for s in catalog.skills} == {"demo": "/skill:demo", "model": "/model"}
    assert catalog.builtins == ("demo",)
    assert paths_of(catalog, "command-collision") == [str(layout.roots[0] / "demo" / "SKILL.md")]


def test_a_losing_builtin_named_skill_gets_only_the_collision(layout: Layout):
    write_skill(layout.root(0), "help")
    write_skill(layout.root(2), "help")
    catalog = layout.discover()
    assert paths_of(catalog, "command-collision") == [str(layout.roots[0] / "help" / "SKILL.md")]
    assert paths_of(catalog, "collision") == [str(layout.roots[2] / "help" / "SKILL.md")]


# ------------------------------------------------------------------------------------------ ordering


def test_catalog_is_sorted_by_name_across_roots(layout: Layout):
    write_skill(layout.root(0), "zeta")
    write_skill(layout.root(1), "mid")
    write_skill(layout.root(4), "alpha")
    write_skill(layout.root(2), "beta-2")
    write_skill(layout.root(2), "beta-10")
    assert [s.name for s in layout.discover().skills] == ["alpha", "beta-10", "beta-2", "mid", "zeta"]


def test_diagnostics_are_sorted_by_path_then_line_then_code(layout: Layout):
    root = layout.root(0)
    write_skill(root, "b-skill", "name: b-skill\ndescription: d\nlicence: x\nname: b-skill\n")
    write_skill(root, "a-skill", "licence: x\n")  # no name, no description: both on line 0
    (root / "c-empty").mkdir()
    write_skill(layout.root(2), "a-skill", "name: A\ndescription: ''\n")
    catalog = layout.discover()
    keys = [(d.path, d.range.start.line, d.code) for d in catalog.diagnostics]
    assert keys == sorted(keys)
    a_skill = str(root / "a-skill" / "SKILL.md")
    assert [(d.range.start.line, d.code) for d in catalog.diagnostics if d.path == a_skill] == [
        (0, "description-missing"),
        (0, "name-missing"),
        (1, "field-unknown"),
    ]
    b_skill = str(root / "b-skill" / "SKILL.md")
    assert [(d.range.start.line, d.code) for d in catalog.diagnostics if d.path == b_skill] == [
        (3, "field-unknown"),
        (4, "yaml-duplicate-key"),
    ]


def test_discovery_is_deterministic(layout: Layout):
    for index in range(5):
        write_skill(layout.root(index), "shared")
        write_skill(layout.root(index), f"own-{index}")
        (layout.root(index) / f"broken-{index}").mkdir()
    write_skill(layout.root(3), "bad", "name: Bad\n")
    first, second = layout.discover(), layout.discover()
    assert first.to_json() == second.to_json()
    assert first == second
    assert json.dumps(first.to_json(), sort_keys=True) == json.dumps(second.to_json(), sort_keys=True)


def test_result_does_not_depend_on_creation_order(tmp_path: Path):
    names = [f"skill-{i:02d}" for i in range(12)]

    def build(base: Path, order: list[str]) -> dict:
        tree = Layout(base / "ws", base / "home")
        for name in order:
            write_skill(tree.root(0), name)
            write_skill(tree.root(3), name)
        text = json.dumps(tree.discover().to_json())
        return json.loads(text.replace(str(base), "BASE"))

    assert build(tmp_path / "one", names) == build(tmp_path / "two", names[::-1])


# ------------------------------------------------------------------------------------- catalog content


def test_catalog_never_holds_the_body_or_optional_fields(layout: Layout):
    write_skill(
        layout.root(0),
        "demo",
        "name: demo\ndescription: >\n  Folded\n  description.\nlicense: SECRET-LICENSE\n"
        "compatibility: SECRET-COMPAT\nmetadata:\n  key: SECRET-META\nallowed-tools: SECRET-TOOLS\n",
        body="# SECRET-BODY\n",
    )
    catalog = layout.discover()
    [skill] = catalog.skills
    assert set(skill.to_json()) == {"name", "description", "path", "command", "scope", "root"}
    assert skill.description == "Folded description."  # without the folded block's final line break
    dumped = json.dumps(catalog.to_json())
    assert "SECRET" not in dumped
    assert "SECRET" not in repr(catalog)


def test_catalog_is_frozen(layout: Layout):
    write_skill(layout.root(0), "demo")
    catalog = layout.discover()
    with pytest.raises(AttributeError):
        catalog.skills = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        catalog.skills[0].name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        catalog.file_diagnostics["x"] = ()  # type: ignore[index]


def test_file_diagnostics_lists_every_examined_file(layout: Layout):
    root = layout.root(0)
    clean = write_skill(root, "clean")
    bad = write_skill(root, "bad", "name: bad\n")
    (root / "empty").mkdir()
    catalog = layout.discover()
    assert catalog.file_diagnostics[str(clean)] == ()
    assert codes(catalog.file_diagnostics[str(bad)]) == ["description-missing"]
    assert codes(catalog.file_diagnostics[str(root / "empty")]) == ["skill-file-missing"]


# ---------------------------------------------------------------------------------- candidate bound


def _fill(layout: Layout, counts: dict[int, list[str]]) -> None:
    for index, names in counts.items():
        for name in names:
            write_skill(layout.root(index), name)


def test_exactly_the_candidate_bound_is_examined_in_full(layout: Layout):
    first = MAX_CANDIDATES // 2
    _fill(
        layout,
        {
            0: [f"w-{i:03d}" for i in range(first)],
            1: [f"x-{i:03d}" for i in range(MAX_CANDIDATES - first - 1)],
            2: ["aaa"],
        },
    )
    catalog = layout.discover()
    assert len(catalog.skills) == MAX_CANDIDATES
    assert catalog.diagnostics == ()


def test_one_candidate_over_the_bound_skips_the_last_in_precedence_order_across_roots(layout: Layout):
    first = MAX_CANDIDATES // 2
    # "aaa" sorts first by name but its root comes last: it is the (MAX_CANDIDATES + 1)th candidate
    _fill(
        layout,
        {
            0: [f"w-{i:03d}" for i in range(first)],
            1: [f"x-{i:03d}" for i in range(MAX_CANDIDATES - first)],
            2: ["aaa"],
        },
    )
    catalog = layout.discover()
    assert len(catalog.skills) == MAX_CANDIDATES
    assert catalog.skill("aaa") is None
    diag = only(catalog.diagnostics, "candidate-limit")
    assert len(catalog.diagnostics) == 1
    assert diag.severity == WARNING
    # on the first skill left out, where a reader sees which skill the bound cut
    assert diag.path == str(layout.roots[2] / "aaa" / "SKILL.md")
    assert diag.message.startswith("1 skill folder(s) are left out of the catalog, from this one on")
    assert f"the first {MAX_CANDIDATES} skill folders" in diag.message


def test_candidates_within_a_root_are_taken_in_sorted_order(layout: Layout):
    _fill(layout, {0: [f"w-{i:03d}" for i in range(MAX_CANDIDATES - 1)], 4: ["b-late", "a-early", "c-later"]})
    catalog = layout.discover()
    assert catalog.skill("a-early") is not None
    assert catalog.skill("b-late") is None and catalog.skill("c-later") is None
    diag = only(catalog.diagnostics, "candidate-limit")
    assert diag.path == str(layout.roots[4] / "b-late" / "SKILL.md")
    assert diag.message.startswith("2 skill folder")


def test_skipped_candidates_are_not_read_at_all(layout: Layout):
    _fill(layout, {0: [f"w-{i:03d}" for i in range(MAX_CANDIDATES)]})
    write_skill(layout.root(1), "broken", "name: Broken\n")  # would give diagnostics if it were examined
    catalog = layout.discover()
    assert codes(catalog.diagnostics) == ["candidate-limit"]
    # the broken skill's own findings are absent: only the note that it was left out sits on it
    assert codes(catalog.file_diagnostics[str(layout.roots[1] / "broken" / "SKILL.md")]) == ["candidate-limit"]
    assert catalog.folders_examined == MAX_CANDIDATES


def test_examine_all_checks_the_folders_past_the_bound_but_keeps_them_out_of_the_catalog(layout: Layout):
    _fill(layout, {0: [f"w-{i:03d}" for i in range(MAX_CANDIDATES)]})
    write_skill(layout.root(1), "broken", "name: Broken\n")
    write_skill(layout.root(1), "fine", "name: fine\ndescription: Fine. Use when asked.\n")
    catalog = discovery.discover(str(layout.workspace), str(layout.home), examine_all=True)
    assert catalog.folders_examined == MAX_CANDIDATES + 2
    assert len(catalog.skills) == MAX_CANDIDATES and catalog.skill("fine") is None  # the bound still holds
    broken = str(layout.roots[1] / "broken" / "SKILL.md")
    assert sorted(codes(catalog.file_diagnostics[broken])) == ["candidate-limit", "description-missing", "name-invalid"]
    assert only(catalog.file_diagnostics[broken], "candidate-limit").message.startswith("2 skill folder(s)")
    assert codes(catalog.file_diagnostics[str(layout.roots[1] / "fine" / "SKILL.md")]) == []


# --------------------------------------------------------------------------------- diagnostic bound


def test_exactly_the_diagnostic_bound_is_kept_in_full(layout: Layout):
    for i in range(MAX_DIAGNOSTICS):
        (layout.root(0) / f"f-{i:03d}").mkdir()
    catalog = layout.discover()
    assert len(catalog.diagnostics) == MAX_DIAGNOSTICS
    assert set(codes(catalog.diagnostics)) == {"skill-file-missing"}
    assert catalog.diagnostics_dropped == 0


def test_one_diagnostic_over_the_bound_keeps_the_first_in_order_and_says_one_was_dropped(layout: Layout):
    root = layout.root(0)
    for i in range(MAX_DIAGNOSTICS + 1):
        (root / f"f-{i:03d}").mkdir()
    catalog = layout.discover()
    assert catalog.diagnostics_dropped == 1
    assert len(catalog.diagnostics) == MAX_DIAGNOSTICS + 1
    limit = only(catalog.diagnostics, "diagnostic-limit")
    assert limit.severity == INFORMATION
    assert limit.message.startswith("1 more diagnostic")
    kept = [d.path for d in catalog.diagnostics if d.code == "skill-file-missing"]
    assert kept == [str(root / f"f-{i:03d}") for i in range(MAX_DIAGNOSTICS)]  # the last in order is dropped
    # the per-file view still has the dropped one
    assert codes(catalog.file_diagnostics[str(root / f"f-{MAX_DIAGNOSTICS:03d}")]) == ["skill-file-missing"]
    keys = [d.sort_key for d in catalog.diagnostics]
    assert keys == sorted(keys)


def test_limit_diagnostics_are_not_counted_and_never_dropped(layout: Layout):
    assert MAX_CANDIDATES > MAX_DIAGNOSTICS
    for i in range(MAX_CANDIDATES + 1):
        (layout.root(0) / f"f-{i:03d}").mkdir()
    catalog = layout.discover()
    found = codes(catalog.diagnostics)
    assert found.count("skill-file-missing") == MAX_DIAGNOSTICS
    assert found.count("candidate-limit") == 1
    assert found.count("diagnostic-limit") == 1
    assert len(found) == MAX_DIAGNOSTICS + 2
    assert catalog.diagnostics_dropped == MAX_CANDIDATES - MAX_DIAGNOSTICS
    assert only(catalog.diagnostics, "diagnostic-limit").message.startswith(
        f"{MAX_CANDIDATES - MAX_DIAGNOSTICS} more diagnostic"
    )


def test_the_diagnostics_kept_are_the_first_in_sorted_order_not_in_discovery_order(layout: Layout):
    # Discovery examines the workspace first, but the home's paths sort first here ("home" < "ws"):
    # the one dropped must be the last workspace diagnostic, not the user root's.
    assert str(layout.home) < str(layout.workspace)
    for i in range(MAX_DIAGNOSTICS):
        (layout.root(0) / f"f-{i:03d}").mkdir()
    (layout.root(4) / "user-empty").mkdir()
    catalog = layout.discover()
    assert catalog.diagnostics_dropped == 1
    missing = paths_of(catalog, "skill-file-missing")
    assert missing[0] == str(layout.roots[4] / "user-empty")
    assert str(layout.roots[0] / f"f-{MAX_DIAGNOSTICS - 1:03d}") not in missing
    assert missing == sorted(missing) and len(missing) == MAX_DIAGNOSTICS


def test_folder_name_that_is_not_utf8_is_examined_and_reported(layout: Layout):
    root = layout.root(0)
    folder = os.path.join(os.fsencode(root), b"caf\xe9")
    os.mkdir(folder)
    with open(os.path.join(folder, b"SKILL.md"), "wb") as handle:
        handle.write(skill_text({"name": "cafe", "description": "d"}).encode())
    write_skill(root, "demo")
    catalog = layout.discover()
    assert [s.name for s in catalog.skills] == ["demo"]
    diag = only(catalog.diagnostics, "name-mismatch")
    assert diag.path == os.fsdecode(os.path.join(folder, b"SKILL.md"))


# --------------------------------------------------- which 64 are kept, and the counts (section 7)


def test_an_error_after_the_bound_of_notes_is_kept_and_a_note_is_dropped(layout: Layout):
    root = layout.root(1)
    for i in range(MAX_DIAGNOSTICS):  # each sorts before the error and carries one information note
        write_skill(root, f"a-{i:03d}", {"name": f"a-{i:03d}", "description": "d", "argument-hint": "x"})
    write_skill(root, "zz-broken", {"name": "wrong", "description": "d"})
    catalog = layout.discover()
    kept = [d for d in catalog.diagnostics if d.code != "diagnostic-limit"]
    assert len(kept) == MAX_DIAGNOSTICS
    assert [d.code for d in kept].count("name-mismatch") == 1
    assert catalog.diagnostics_dropped == 1
    # within a severity, section 3's order: the last note in path order is the one dropped
    dropped_path = str(root / f"a-{MAX_DIAGNOSTICS - 1:03d}" / "SKILL.md")
    assert dropped_path not in [d.path for d in kept]
    assert [d.sort_key for d in catalog.diagnostics] == sorted(d.sort_key for d in catalog.diagnostics)
    assert dict(catalog.diagnostic_counts) == {"error": 1, "warning": 0, "information": MAX_DIAGNOSTICS + 1}
    assert dict(catalog.not_shown) == {"error": 0, "warning": 0, "information": 1}


def test_warnings_are_kept_before_information(layout: Layout):
    root = layout.root(1)
    for i in range(MAX_DIAGNOSTICS):
        write_skill(root, f"a-{i:03d}", {"name": f"a-{i:03d}", "description": "d", "argument-hint": "x"})
    write_skill(root, "zz-typo", {"name": "zz-typo", "description": "d", "desciption": "x"})
    catalog = layout.discover()
    assert "field-unknown" in codes(catalog.diagnostics)
    assert dict(catalog.not_shown) == {"error": 0, "warning": 0, "information": 1}


def test_counts_at_the_bound_show_everything(layout: Layout):
    for i in range(MAX_DIAGNOSTICS):
        (layout.root(0) / f"f-{i:03d}").mkdir()
    catalog = layout.discover()
    assert dict(catalog.diagnostic_counts) == {"error": MAX_DIAGNOSTICS, "warning": 0, "information": 0}
    assert dict(catalog.not_shown) == {"error": 0, "warning": 0, "information": 0}


def test_the_diagnostic_limit_note_sits_on_the_workspace_not_on_a_missing_root(layout: Layout):
    root = layout.root(1)  # .agents/skills exists; .albedo/skills (the first root) does not
    for i in range(MAX_DIAGNOSTICS + 1):
        (root / f"f-{i:03d}").mkdir()
    catalog = layout.discover()
    assert not catalog.roots[0].exists
    assert only(catalog.diagnostics, "diagnostic-limit").path == str(layout.workspace)


def test_without_a_workspace_limit_notes_sit_on_an_existing_root(layout: Layout):
    root = layout.root(3)
    for i in range(MAX_CANDIDATES + 1):
        (root / f"f-{i:03d}").mkdir()
    catalog = discovery.discover(None, str(layout.home))
    assert only(catalog.diagnostics, "diagnostic-limit").path == str(root)
    # a folder left out without a SKILL.md: the note sits on the folder itself
    assert only(catalog.diagnostics, "candidate-limit").path == str(root / f"f-{MAX_CANDIDATES:03d}")
