"""`paths.is_within` / `resolves_within`: the one containment test discovery, resources, references and
the server share; `resolved_beneath`, realpath's answer for a path below a resolved folder."""

from __future__ import annotations

import os

from albedo_skills_ls.skills.core.paths import is_within, resolved_beneath, resolves_within


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


def test_resolved_beneath_gives_realpaths_answer_for_every_shape_of_path(tmp_path):
    """Plain folders, a link inside, a link out, a link loop, a missing component, a file on the way:
    the answer is realpath's, whichever way it is reached."""
    root = tmp_path / "real-root"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "file.md").write_text("x")
    (tmp_path / "outside").mkdir()
    os.symlink(root / "a" / "b", root / "a" / "inner")
    os.symlink(tmp_path / "outside", root / "a" / "out")
    os.symlink("loop", root / "loop")
    os.symlink("relative-target/../a", root / "dotted")
    real_root = os.path.realpath(root)
    for rel in ("", "a", "a/b", "a/inner", "a/inner/deeper", "a/out", "a/out/x", "loop", "loop/x", "missing",
                "missing/x", "a/file.md", "a/file.md/x", "dotted", "dotted/b"):
        expected = os.path.realpath(os.path.join(real_root, rel)) if rel else real_root
        assert resolved_beneath(real_root, rel) == expected, rel


def test_resolved_beneath_examines_only_the_components_below_the_folder(tmp_path, monkeypatch):
    """The point of it: one lstat per component below the resolved folder, none above it."""
    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    real = os.path.realpath(tmp_path)
    examined = []
    lstat = os.lstat
    monkeypatch.setattr(os, "lstat", lambda path, *args, **kwargs: examined.append(str(path)) or lstat(path))
    assert resolved_beneath(real, "a/b/c") == f"{real}/a/b/c"
    assert examined == [f"{real}/a", f"{real}/a/b", f"{real}/a/b/c"]
