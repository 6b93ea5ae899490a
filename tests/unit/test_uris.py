"""`file:` URIs and paths on Windows and POSIX (docs/design.md#11-portability), tested on any machine: the
conversion takes the platform as an argument, and Python's own `PureWindowsPath.as_uri()` and
`PurePosixPath.as_uri()` are the independent oracle for what a path's URI means."""

from __future__ import annotations

from pathlib import PurePosixPath, PureWindowsPath

import pytest

from albedo_skills_ls.lsp.uris import path_to_uri, uri_to_path

WINDOWS_URIS = [
    # VS Code: lower-case drive, colon percent-encoded
    ("file:///c%3A/Users/Ann/My%20Skills/.agents/skills/demo/SKILL.md", r"c:\Users\Ann\My Skills\.agents\skills\demo\SKILL.md"),
    # Neovim and Emacs: the drive as the file system spells it
    ("file:///C:/Users/Ann/My%20Skills/.agents/skills/demo/SKILL.md", r"c:\Users\Ann\My Skills\.agents\skills\demo\SKILL.md"),
    # a UNC share
    ("file://fileserver/team%20share/skills/demo/SKILL.md", r"\\fileserver\team share\skills\demo\SKILL.md"),
    # dot segments are resolved
    ("file:///d:/work/./repo/../repo/SKILL.md", r"d:\work\repo\SKILL.md"),
]


@pytest.mark.parametrize("uri, path", WINDOWS_URIS)
def test_a_windows_uri_becomes_the_windows_path(uri, path):
    assert uri_to_path(uri, windows=True) == path


@pytest.mark.parametrize(
    "path",
    [
        r"C:\Users\Ann\My Skills\.agents\skills\demo\SKILL.md",
        r"c:\projects\a#b%c\SKILL.md",
        r"\\fileserver\team share\skills\demo\SKILL.md",
        r"D:\ünïcode 😀\SKILL.md",
    ],
)
def test_a_windows_path_round_trips_and_means_what_windows_means(path):
    uri = path_to_uri(path, windows=True)
    assert "\\" not in uri and " " not in uri
    # the same file as Python's own Windows URI for that path (which keeps the drive's letter case)
    assert PureWindowsPath(uri_to_path(uri, windows=True)) == PureWindowsPath(path)
    assert uri_to_path(PureWindowsPath(path).as_uri(), windows=True) == uri_to_path(uri, windows=True)
    # two spellings of one drive are one path: one session, one published file
    assert uri_to_path(uri, windows=True) == uri_to_path(uri.replace("file:///c", "file:///C"), windows=True)


def test_a_drive_letter_is_written_lower_case_with_its_colon():
    assert path_to_uri(r"C:\a b\SKILL.md", windows=True) == "file:///c:/a%20b/SKILL.md"
    assert path_to_uri(r"\\srv\share\x.md", windows=True) == "file://srv/share/x.md"


@pytest.mark.parametrize("path", ["/home/ann/My Skills/SKILL.md", "/tmp/a#b%c?d/SKILL.md", "/srv/ünï 😀/SKILL.md"])
def test_a_posix_path_round_trips_and_means_what_posix_means(path):
    uri = path_to_uri(path, windows=False)
    assert uri == PurePosixPath(path).as_uri()
    assert uri_to_path(uri, windows=False) == path


def test_a_backslash_is_a_name_character_on_posix():
    path = "/home/ann/odd\\name/SKILL.md"
    assert uri_to_path(path_to_uri(path, windows=False), windows=False) == path


def test_a_posix_name_that_is_not_utf8_round_trips_as_its_bytes():
    path = "/tmp/bad\udcff/SKILL.md"  # the byte 0xFF as Python's surrogate escape
    uri = path_to_uri(path, windows=False)
    assert uri == "file:///tmp/bad%FF/SKILL.md"
    assert uri_to_path(uri, windows=False) == path


def test_other_schemes_have_no_path():
    assert uri_to_path("untitled:Untitled-1", windows=True) is None
    assert uri_to_path("untitled:Untitled-1", windows=False) is None
