"""The session's snapshot and reload (docs/design.md#4-one-immutable-snapshot), the parse cache, and live buffer checks."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from albedo_skills_ls.skills.catalog.session import SkillsSession, check_buffer, placement, reload_summary
from albedo_skills_ls.skills.core.model import INFORMATION, WARNING
from conftest import Layout, codes, only, rng, skill_text, write_skill

NAME_RANGE = rng(1, 6, 1, 10)


def session_of(layout: Layout, **kwargs) -> SkillsSession:
    return SkillsSession(str(layout.workspace), str(layout.home), **kwargs)


# --------------------------------------------------------------------------------------------- reload


def test_first_reload_adds_everything(layout: Layout):
    write_skill(layout.root(0), "alpha")
    write_skill(layout.root(3), "beta")
    (layout.root(3) / "broken").mkdir()
    session = session_of(layout)
    assert session.reload() == {
        "skills": 2,
        "diagnostics": 1,
        "added": ["alpha", "beta"],
        "removed": [],
        "changed": [],
    }


def test_reload_reports_added_removed_and_changed(layout: Layout):
    write_skill(layout.root(0), "alpha")
    write_skill(layout.root(0), "beta")
    write_skill(layout.root(2), "gamma")
    session = session_of(layout)
    session.reload()

    shutil.rmtree(layout.roots[0] / "beta")
    write_skill(layout.root(1), "delta")
    write_skill(layout.root(0), "alpha", {"name": "alpha", "description": "A new description."})
    write_skill(layout.root(0), "gamma")  # a workspace gamma now wins over the user one: its path changes
    summary = session.reload()
    assert summary["added"] == ["delta"]
    assert summary["removed"] == ["beta"]
    assert summary["changed"] == ["alpha", "gamma"]
    assert summary["skills"] == 3
    assert summary["diagnostics"] == 1  # the user gamma's collision
    assert session.snapshot.skill("alpha").description == "A new description."
    assert session.snapshot.skill("gamma").scope == "workspace"


def test_reload_with_nothing_changed_is_empty_and_equal(layout: Layout):
    write_skill(layout.root(0), "alpha")
    session = session_of(layout)
    session.reload()
    before = session.snapshot
    assert session.reload() == {"skills": 1, "diagnostics": 0, "added": [], "removed": [], "changed": []}
    assert session.snapshot == before


def test_reload_swaps_the_snapshot_and_old_readers_keep_theirs(layout: Layout):
    write_skill(layout.root(0), "alpha")
    session = session_of(layout)
    held = session.snapshot  # the first read discovers
    assert [s.name for s in held.skills] == ["alpha"]
    write_skill(layout.root(0), "beta")
    assert session.snapshot is held  # no discovery behind a reader's back
    session.reload()
    assert [s.name for s in held.skills] == ["alpha"]  # the held snapshot never changes
    assert [s.name for s in session.snapshot.skills] == ["alpha", "beta"]
    assert session.snapshot is not held


def test_session_settings_reach_discovery(layout: Layout):
    write_skill(layout.root(0), "model")
    write_skill(layout.root(2), "user-skill")
    session = session_of(layout, user_roots=False, builtins=("help",))
    assert [(s.name, s.command) for s in session.snapshot.skills] == [("model", "/model")]
    assert len(session.snapshot.roots) == 2


def test_reload_summary_from_nothing():
    from albedo_skills_ls.skills.core.model import Catalog

    empty = Catalog(None, (), (), (), 0, ())
    assert reload_summary(None, empty) == {"skills": 0, "diagnostics": 0, "added": [], "removed": [], "changed": []}


# ----------------------------------------------------------------------------------------- parse cache


def test_reload_with_nothing_changed_parses_nothing(layout: Layout):
    for name in ("alpha", "beta", "gamma"):
        write_skill(layout.root(0), name)
    (layout.root(0) / "no-file").mkdir()
    session = session_of(layout)
    session.reload()
    cache = session._cache
    assert (cache.hits, cache.misses) == (0, 3)
    session.reload()
    assert (cache.hits, cache.misses) == (3, 3)
    session.reload()
    assert (cache.hits, cache.misses) == (6, 3)


def test_changing_one_file_reparses_exactly_that_file(layout: Layout):
    for name in ("alpha", "beta", "gamma"):
        write_skill(layout.root(0), name)
    session = session_of(layout)
    session.reload()
    cache = session._cache
    write_skill(layout.root(0), "beta", {"name": "beta", "description": "A longer description than before."})
    summary = session.reload()
    assert (cache.hits, cache.misses) == (2, 4)
    assert summary["changed"] == ["beta"]
    assert session.snapshot.skill("beta").description == "A longer description than before."


def test_same_size_new_mtime_is_reparsed(layout: Layout):
    path = write_skill(layout.root(0), "alpha", {"name": "alpha", "description": "one"})
    session = session_of(layout)
    session.reload()
    old = os.stat(path)
    path.write_text(skill_text({"name": "alpha", "description": "two"}))
    os.utime(path, ns=(old.st_atime_ns, old.st_mtime_ns + 1_000_000_000))
    assert os.stat(path).st_size == old.st_size
    session.reload()
    assert session._cache.misses == 2
    assert session.snapshot.skill("alpha").description == "two"


def test_a_file_that_became_invalid_is_reparsed_and_dropped(layout: Layout):
    path = write_skill(layout.root(0), "alpha")
    session = session_of(layout)
    session.reload()
    path.write_text("---\nname: alpha\n---\n")
    summary = session.reload()
    assert summary["removed"] == ["alpha"]
    assert codes(session.snapshot.diagnostics) == ["description-missing"]


def test_a_cached_file_replaced_by_an_escaping_link_is_not_served_from_the_cache(layout: Layout, tmp_path: Path):
    path = write_skill(layout.root(0), "alpha")
    session = session_of(layout)
    session.reload()
    outside = tmp_path / "outside.md"
    shutil.copy2(path, outside)  # same content, size and mtime
    path.unlink()
    os.symlink(outside, path)
    session.reload()
    assert session.snapshot.skills == ()
    assert codes(session.snapshot.diagnostics) == ["skill-file-not-regular"]


# ---------------------------------------------------------------------------------------- check_buffer


def test_placement_of_paths(layout: Layout):
    catalog = session_of(layout).snapshot
    where = placement(catalog, str(layout.roots[3] / "demo" / "SKILL.md"))
    assert (where.root_index, where.root, where.scope, where.folder_name) == (3, str(layout.roots[3]), "user", "demo")
    assert placement(catalog, str(layout.roots[3] / "demo" / "README.md")) is None
    assert placement(catalog, str(layout.roots[3] / "demo" / "sub" / "SKILL.md")) is None
    assert placement(catalog, str(layout.workspace / "SKILL.md")) is None


def test_buffer_of_a_loser_collides_with_the_snapshot_winner(layout: Layout):
    winner = write_skill(layout.root(0), "demo")
    loser = write_skill(layout.root(2), "demo")
    catalog = session_of(layout).snapshot
    found = check_buffer(catalog, str(loser), skill_text({"name": "demo", "description": "edited live"}))
    diag = only(found, "collision")
    assert len(found) == 1
    assert diag.severity == WARNING and diag.path == str(loser) and diag.range == NAME_RANGE
    assert str(winner) in diag.message
    [related] = diag.related
    assert related.path == str(winner) and related.range == NAME_RANGE


def test_buffer_of_the_winner_has_no_collision(layout: Layout):
    winner = write_skill(layout.root(1), "demo")
    write_skill(layout.root(4), "demo")
    catalog = session_of(layout).snapshot
    assert check_buffer(catalog, str(winner), skill_text({"name": "demo", "description": "d"})) == ()


def test_buffer_that_would_win_over_the_snapshot_holder_has_no_collision(layout: Layout):
    write_skill(layout.root(3), "demo")
    folder = layout.root(0) / "demo"  # a new workspace skill being written, not on disk yet
    catalog = session_of(layout).snapshot
    assert check_buffer(catalog, str(folder / "SKILL.md"), skill_text({"name": "demo", "description": "d"})) == ()


def test_buffer_text_is_checked_not_the_disk(layout: Layout):
    path = write_skill(layout.root(0), "demo", "name: Demo\n")
    catalog = session_of(layout).snapshot
    assert codes(catalog.diagnostics) == ["description-missing", "name-invalid"]
    assert check_buffer(catalog, str(path), skill_text({"name": "demo", "description": "fixed"})) == ()
    found = check_buffer(catalog, str(path), "---\nname: demo\n---\n")
    assert codes(found) == ["description-missing"]


def test_buffer_name_mismatch_is_against_its_folder(layout: Layout):
    path = write_skill(layout.root(2), "demo")
    catalog = session_of(layout).snapshot
    found = check_buffer(catalog, str(path), skill_text({"name": "other", "description": "d"}))
    diag = only(found, "name-mismatch")
    assert diag.range == rng(1, 6, 1, 11)
    assert "`demo`" in diag.message
    assert len(found) == 1


def test_buffer_outside_every_root_expects_its_folder_name_and_never_collides(layout: Layout, tmp_path: Path):
    write_skill(layout.root(0), "demo")
    write_skill(layout.root(0), "model")
    catalog = session_of(layout).snapshot
    outside = tmp_path / "elsewhere" / "demo" / "SKILL.md"
    assert check_buffer(catalog, str(outside), skill_text({"name": "demo", "description": "d"})) == ()
    found = check_buffer(catalog, str(outside), skill_text({"name": "model", "description": "d"}))
    assert codes(found) == ["name-mismatch"]
    assert "`demo`" in found[0].message
    builtin_named = tmp_path / "elsewhere" / "model" / "SKILL.md"
    assert check_buffer(catalog, str(builtin_named), skill_text({"name": "model", "description": "d"})) == ()


def test_buffer_named_like_a_builtin_gets_command_collision(layout: Layout):
    catalog = session_of(layout).snapshot
    path = layout.roots[2] / "model" / "SKILL.md"
    diag = only(check_buffer(catalog, str(path), skill_text({"name": "model", "description": "d"})), "command-collision")
    assert diag.severity == INFORMATION and diag.range == rng(1, 6, 1, 11)
    assert "/skill:model" in diag.message


def test_buffer_losing_a_builtin_name_gets_only_the_collision(layout: Layout):
    write_skill(layout.root(0), "model")
    loser = layout.roots[3] / "model" / "SKILL.md"
    catalog = session_of(layout).snapshot
    found = check_buffer(catalog, str(loser), skill_text({"name": "model", "description": "d"}))
    assert codes(found) == ["collision"]


def test_buffer_diagnostics_are_sorted(layout: Layout):
    catalog = session_of(layout).snapshot
    path = layout.roots[0] / "demo" / "SKILL.md"
    found = check_buffer(catalog, str(path), "---\nlicence: x\nversion: 1\nname: Bad\n---\n")
    keys = [d.sort_key for d in found]
    assert keys == sorted(keys)
    assert codes(found) == ["description-missing", "field-unknown", "field-host-specific", "name-invalid"]


def test_buffer_collision_names_the_snapshot_winner_even_when_its_file_is_gone(layout: Layout):
    winner = write_skill(layout.root(0), "demo")
    loser = write_skill(layout.root(2), "demo")
    catalog = session_of(layout).snapshot
    winner.unlink()  # changed on disk after the snapshot; the snapshot still says who wins
    diag = only(check_buffer(catalog, str(loser), loser.read_text()), "collision")
    [related] = diag.related
    assert related.path == str(winner)
    assert related.message == "`demo` is defined here and wins"  # not "`None` ..."
    assert str(winner) in diag.message


def test_the_cache_forgets_files_that_are_gone(layout: Layout):
    keep = write_skill(layout.root(0), "alpha")
    gone = write_skill(layout.root(0), "beta")
    session = session_of(layout)
    session.reload()
    assert set(session._cache._entries) == {str(keep), str(gone)}
    shutil.rmtree(gone.parent)
    session.reload()
    assert set(session._cache._entries) == {str(keep)}  # bounded by what is on disk, not by history
