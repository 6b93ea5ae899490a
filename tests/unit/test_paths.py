"""`paths.is_within` / `resolves_within`: the one containment test discovery, resources, references and
the server share."""

from __future__ import annotations

import os

from albedo_skills_ls.skills.paths import is_within, resolves_within


def test_is_within_compares_whole_path_components():
    assert is_within("/a/b", "/a/b")
    assert is_within("/a/b/c", "/a/b")
    assert is_within("/a/b/c", "/a/b/")
    assert not is_within("/a/bc", "/a/b")  # a shared prefix is not containment
    assert not is_within("/a", "/a/b")
    assert is_within("/anything", "/")


def test_resolves_within_follows_links(tmp_path):
    folder = tmp_path / "skill"
    (folder / "references").mkdir(parents=True)
    outside = tmp_path / "outside.md"
    outside.write_text("x")
    os.symlink(outside, folder / "escape.md")
    os.symlink(folder / "references", folder / "inner")
    assert resolves_within(str(folder / "inner"), str(folder))
    assert not resolves_within(str(folder / "escape.md"), str(folder))
    assert not is_within(os.path.realpath(folder / "escape.md"), os.path.realpath(folder))
