"""On a file system that ignores letter case (macOS's APFS, Windows's NTFS), the name as stored on disk
decides whether a folder holds a `SKILL.md` (docs/design.md#3-discovery), as the agents list it: there
`open("SKILL.md")` also opens a `skill.md`.

Linux's file systems here are case-sensitive and this kernel cannot mount a case-folding one (no
CONFIG_UNICODE for ext4 or tmpfs `casefold`); docs/server.md ("Portability: what was run") says what was run
on a real case-insensitive mount (FUSE). This test simulates one faithfully at the system-call boundary:
`os.lstat`, `os.stat` and `os.open` resolve a final name that is not stored exactly to the stored entry that
differs only in letter case, as such a file system does, while listings (`os.scandir`, `os.listdir`) keep
the names as stored.
"""

from __future__ import annotations

import os

import pytest

from albedo_skills_ls.skills.core import codes
from albedo_skills_ls.skills.catalog.session import SkillsSession
from albedo_skills_ls.skills.catalog.discovery import ParseCache, discover

FRONT = "---\nname: demo\ndescription: Does a thing.\n---\n# Demo\n"


@pytest.fixture
def case_insensitive(monkeypatch):
    """Name lookups that ignore letter case, as on APFS and NTFS."""
    real_lstat, real_stat, real_open, real_listdir = os.lstat, os.stat, os.open, os.listdir

    def stored(path):
        if isinstance(path, int) or not isinstance(path, (str, bytes, os.PathLike)):
            return path
        text = os.fsdecode(path)
        folder, name = os.path.split(text)
        try:
            names = real_listdir(folder or ".")
        except OSError:
            return path
        if name in names:
            return path
        same = [entry for entry in names if entry.casefold() == name.casefold()]
        return os.path.join(folder, same[0]) if same else path

    monkeypatch.setattr(os, "lstat", lambda path, *a, **k: real_lstat(stored(path), *a, **k))
    monkeypatch.setattr(os, "stat", lambda path, *a, **k: real_stat(stored(path), *a, **k))
    monkeypatch.setattr(os, "open", lambda path, *a, **k: real_open(stored(path), *a, **k))


def skill(root, folder: str, file_name: str):
    path = root / folder / file_name
    path.parent.mkdir(parents=True)
    path.write_text(FRONT.replace("demo", folder))
    return path


def test_the_simulation_ignores_case_as_such_a_file_system_does(tmp_path, case_insensitive):
    path = skill(tmp_path, "demo", "skill.md")
    assert os.lstat(tmp_path / "demo" / "SKILL.md").st_ino == os.lstat(path).st_ino
    fd = os.open(tmp_path / "demo" / "SKILL.md", os.O_RDONLY)  # how the engine opens it
    try:
        assert os.read(fd, 1000).decode() == FRONT
    finally:
        os.close(fd)
    assert os.listdir(tmp_path / "demo") == ["skill.md"]  # the listing keeps the stored name


@pytest.mark.parametrize("stored_name", ["skill.md", "Skill.md", "SKILL.MD"])
@pytest.mark.parametrize("cached", [False, True])
def test_a_skill_md_in_other_letter_case_is_not_a_skill(tmp_path, case_insensitive, stored_name, cached):
    workspace = tmp_path / "ws"
    root = workspace / ".agents" / "skills"
    skill(root, "good", "SKILL.md")
    skill(root, "demo", stored_name)
    cache = ParseCache() if cached else None
    for _ in range(2 if cached else 1):  # the second discovery meets a warm cache
        catalog = discover(str(workspace), str(tmp_path / "home"), cache=cache)
        assert [entry.name for entry in catalog.skills] == ["good"]
        (missing,) = [d for d in catalog.diagnostics if d.code == codes.SKILL_FILE_MISSING.id]
        assert missing.path == str(root / "demo")
        assert f"`demo` has `{stored_name}` but no `SKILL.md`" in missing.message and "rename it" in missing.message


def test_a_file_renamed_to_skill_md_in_place_is_found_at_the_next_reload(tmp_path, case_insensitive):
    workspace = tmp_path / "ws"
    path = skill(workspace / ".agents" / "skills", "demo", "skill.md")
    session = SkillsSession(str(workspace), str(tmp_path / "home"))
    assert session.snapshot.skills == ()
    path.rename(path.with_name("SKILL.md"))  # what a person does on macOS after reading the message
    session.reload()
    assert [entry.name for entry in session.snapshot.skills] == ["demo"]
