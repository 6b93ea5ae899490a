"""skills.resources and skills.read on real trees: real links, FIFOs, sockets, permissions and sparse files."""

from __future__ import annotations

import base64
import builtins
import io
import json
import os
import socket
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from albedo_skills_ls.skills.resources import listing as resource_listing, paging as resource_paging
from albedo_skills_ls.skills.core.errors import InvalidArguments, Refused
from albedo_skills_ls.skills.core.limits import (
    DEFAULT_READ_LIMIT,
    MAX_READ_LIMIT,
    MAX_RESOURCE_BYTES,
    MAX_RESOURCE_DEPTH,
    MAX_RESOURCE_ENTRIES,
    MAX_RESOURCE_FILES,
)

SKILL_MD = b"---\nname: demo\ndescription: A demo skill.\n---\n# Demo\n"
LIST_KEYS = {"name", "resources", "diagnostics", "truncated"}
READ_KEYS = {"name", "resource", "offset", "size", "next_offset", "truncated", "encoding", "content"}


# ---------------------------------------------------------------------------------------------- helpers


def _discovery_root(folder):
    """`make_skill` puts a skill folder directly in the folder standing for its skills root."""
    return os.path.dirname(folder) if isinstance(folder, str) else folder


def list_resources(name, folder):
    return resource_listing.list_resources(name, folder, discovery_root=_discovery_root(folder))


def read_resource(name, folder, *args):
    return resource_paging.read_resource(name, folder, *args, discovery_root=_discovery_root(folder))


def make_skill(base: Path, name: str = "demo", skill_md: bytes = SKILL_MD) -> Path:
    root = base / name
    root.mkdir(parents=True)
    (root / "SKILL.md").write_bytes(skill_md)
    return root


def write(path: Path, data: bytes | str = b"x") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def codes(result: dict) -> list[tuple[str, str]]:
    return [(d["code"], d["path"]) for d in result["diagnostics"]]


def only_diag(result: dict, code: str) -> dict:
    found = [d for d in result["diagnostics"] if d["code"] == code]
    assert len(found) == 1, result["diagnostics"]
    return found[0]


def page_bytes(page: dict) -> bytes:
    if page["encoding"] == "base64":
        return base64.b64decode(page["content"], validate=True)
    assert page["encoding"] == "utf-8"
    return page["content"].encode("utf-8")


def read_all(root: Path, resource: str, limit: int) -> tuple[bytes, list[dict]]:
    """Page from 0 to the end, checking every page's invariants on the way."""
    pages: list[dict] = []
    offset = 0
    while True:
        page = read_resource("demo", str(root), resource, offset, limit)
        assert set(page) == READ_KEYS
        assert page["offset"] == offset
        body = page_bytes(page)
        assert len(body) <= min(limit, MAX_READ_LIMIT)
        assert page["next_offset"] == offset + len(body)
        assert page["truncated"] == (page["next_offset"] < page["size"])
        pages.append(page)
        if not page["truncated"]:
            break
        assert page["next_offset"] > offset, "a limit of 4 or more always makes progress"
        offset = page["next_offset"]
        assert len(pages) <= page["size"] + 1
    return b"".join(page_bytes(p) for p in pages), pages


def as_unprivileged(fn):
    """Run fn() where file permissions apply: directly when not root, else in a child forked as nobody.

    Root bypasses read/search permission bits, so a real permission error needs a real unprivileged user.
    """
    if os.geteuid() != 0:
        return fn()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop to nobody, run, send the JSON result, exit without pytest's cleanup
        try:
            os.close(r)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            try:
                out = {"ok": fn()}
            except (InvalidArguments, Refused) as exc:
                out = {"raised": type(exc).__name__, "message": str(exc)}
            data = json.dumps(out).encode()
            while data:
                data = data[os.write(w, data) :]
        finally:
            os._exit(0)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 65536):
        chunks.append(chunk)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    out = json.loads(b"".join(chunks))
    if "raised" in out:
        raise {"InvalidArguments": InvalidArguments, "Refused": Refused}[out["raised"]](out["message"])
    return out["ok"]


# ------------------------------------------------------------------------------------- skills.resources


def test_lists_every_regular_file_sorted_with_skill_md_and_hidden_files(tmp_path):
    root = make_skill(tmp_path)
    for rel in ["references/formats.md", "scripts/run.sh", ".hidden", "assets/img/logo.png", "Zed.txt"]:
        write(root / rel)
    (root / "empty-dir").mkdir()

    result = list_resources("demo", str(root))

    assert set(result) == LIST_KEYS
    assert result["name"] == "demo"
    assert result["resources"] == [
        ".hidden",
        "SKILL.md",
        "Zed.txt",
        "assets/img/logo.png",
        "references/formats.md",
        "scripts/run.sh",
    ]
    assert result["diagnostics"] == []
    assert result["truncated"] is False


def test_listing_is_deterministic_and_json_ready(tmp_path):
    root = make_skill(tmp_path)
    for i in range(30):
        write(root / f"d{i % 5}" / f"f{i}.md")
    os.symlink("/etc", root / "etc-link")
    os.mkfifo(root / "pipe")
    first = list_resources("demo", str(root))
    assert list_resources("demo", str(root)) == first
    assert json.loads(json.dumps(first)) == first


def test_listing_never_opens_a_file(tmp_path, monkeypatch):
    root = make_skill(tmp_path)
    write(root / "references/x.md")
    os.mkfifo(root / "pipe")

    def forbidden(*args, **kwargs):
        raise AssertionError(f"list_resources opened {args[0]!r}")

    monkeypatch.setattr(os, "open", forbidden)
    monkeypatch.setattr(builtins, "open", forbidden)
    monkeypatch.setattr(io, "open", forbidden)
    result = list_resources("demo", str(root))
    assert result["resources"] == ["SKILL.md", "references/x.md"]


def test_root_is_resolved_and_diagnostic_paths_are_absolute_under_it(tmp_path):
    real = make_skill(tmp_path / "real")
    os.symlink(real, tmp_path / "alias")
    os.symlink("/etc", real / "etc-link")

    result = list_resources("demo", str(tmp_path / "alias"))

    assert result["resources"] == ["SKILL.md"]
    assert codes(result) == [("symlink-escape", str(real / "etc-link"))]


def test_missing_or_non_folder_root_is_refused(tmp_path):
    with pytest.raises(Refused, match="reload"):
        list_resources("demo", str(tmp_path / "gone"))
    write(tmp_path / "file")
    with pytest.raises(Refused, match="not a folder"):
        list_resources("demo", str(tmp_path / "file"))
    with pytest.raises(InvalidArguments):
        list_resources("demo", 42)  # type: ignore[arg-type]


# -- bounds


@pytest.mark.parametrize("extra", [0, 1])
def test_file_bound_at_and_past_the_limit(tmp_path, extra):
    root = make_skill(tmp_path)
    names = [f"f{i:04d}.md" for i in range(MAX_RESOURCE_FILES - 1 + extra)]
    for n in names:
        write(root / n)

    result = list_resources("demo", str(root))

    everything = sorted(["SKILL.md", *names])
    assert result["resources"] == everything[:MAX_RESOURCE_FILES]
    assert len(result["resources"]) == MAX_RESOURCE_FILES
    if extra == 0:
        assert result["truncated"] is False
        assert result["diagnostics"] == []
    else:
        assert result["truncated"] is True
        diag = only_diag(result, "resource-limit")
        assert diag["severity"] == "warning"
        assert diag["path"] == str(root / everything[-1])
        assert str(MAX_RESOURCE_FILES) in diag["message"] and "files" in diag["message"]
        assert len(result["diagnostics"]) == 1


def test_file_bound_keeps_the_files_met_first_breadth_first(tmp_path):
    # Breadth-first: the root's own files are met before any file in a subfolder.
    root = make_skill(tmp_path)
    write(root / "z.md")
    sub = [f"a/f{i:04d}.md" for i in range(MAX_RESOURCE_FILES - 1)]
    for rel in sub:
        write(root / rel)

    result = list_resources("demo", str(root))

    assert result["truncated"] is True
    assert result["resources"] == sorted(["SKILL.md", "z.md", *sub[:-1]])
    assert only_diag(result, "resource-limit")["path"] == str(root / sub[-1])


@pytest.mark.parametrize("extra", [0, 1])
def test_entry_bound_at_and_past_the_limit_in_one_folder(tmp_path, extra):
    # SKILL.md plus empty folders: the file bound is never reached, every entry counts.
    root = make_skill(tmp_path)
    dirs = [f"d{i:04d}" for i in range(MAX_RESOURCE_ENTRIES - 1 + extra)]
    for d in dirs:
        (root / d).mkdir()

    result = list_resources("demo", str(root))

    assert result["resources"] == ["SKILL.md"]
    if extra == 0:
        assert result["truncated"] is False
        assert result["diagnostics"] == []
    else:
        assert result["truncated"] is True
        diag = only_diag(result, "resource-limit")
        assert diag["path"] == str(root)
        assert str(MAX_RESOURCE_ENTRIES) in diag["message"]
        assert "1 entry of this folder" in diag["message"]  # "at least": the walk pulls no more names
        assert "folders not yet entered" in diag["message"]  # the queued empty folders


@pytest.mark.parametrize("extra", [0, 1])
def test_entry_bound_counts_entries_in_subfolders_and_non_regular_ones(tmp_path, extra):
    root = make_skill(tmp_path)
    os.mkfifo(root / "pipe")  # counted like any other entry
    sub = root / "a"
    sub.mkdir()
    # entries: SKILL.md, pipe, a, then the folders in a/
    for i in range(MAX_RESOURCE_ENTRIES - 3 + extra):
        (sub / f"d{i:04d}").mkdir()

    result = list_resources("demo", str(root))

    assert result["resources"] == ["SKILL.md"]
    assert result["truncated"] is bool(extra)
    limit_diags = [d for d in result["diagnostics"] if d["code"] == "resource-limit"]
    if extra:
        assert [d["path"] for d in limit_diags] == [str(sub)]
    else:
        assert limit_diags == []
    assert only_diag(result, "resource-not-regular")["path"] == str(root / "pipe")


@pytest.mark.parametrize("levels", [MAX_RESOURCE_DEPTH, MAX_RESOURCE_DEPTH + 1])
def test_depth_bound_at_and_past_the_limit(tmp_path, levels):
    root = make_skill(tmp_path)
    chain = "/".join(f"d{i}" for i in range(1, levels + 1))  # `levels` folders: the last is `levels` deep
    write(root / chain / "leaf.md")
    write(root / "d1" / "shallow.md")

    result = list_resources("demo", str(root))

    if levels == MAX_RESOURCE_DEPTH:
        assert result["resources"] == ["SKILL.md", f"{chain}/leaf.md", "d1/shallow.md"]
        assert result["truncated"] is False
        assert result["diagnostics"] == []
    else:
        # The walk goes on elsewhere: the shallow file is still listed.
        assert result["resources"] == ["SKILL.md", "d1/shallow.md"]
        assert result["truncated"] is True
        diag = only_diag(result, "resource-limit")
        assert diag["path"] == str(root / chain)
        assert f"more than {MAX_RESOURCE_DEPTH} levels" in diag["message"]
        assert len(result["diagnostics"]) == 1


def test_depth_bound_reports_all_too_deep_folders_in_one_diagnostic(tmp_path):
    root = make_skill(tmp_path)
    deep = "/".join(f"d{i}" for i in range(1, MAX_RESOURCE_DEPTH + 1))
    for leaf in ["x", "y", "z"]:
        write(root / deep / leaf / "f.md")

    result = list_resources("demo", str(root))

    diag = only_diag(result, "resource-limit")
    assert diag["path"] == str(root / deep / "x")
    assert diag["message"].startswith("3 folders")


# -- links, loops and special files


def test_links_escaping_the_skill_are_skipped_with_a_diagnostic(tmp_path):
    root = make_skill(tmp_path)
    other = make_skill(tmp_path, "other")
    os.symlink("/etc", root / "etc-link")
    os.symlink(other / "SKILL.md", root / "sibling.md")
    os.symlink("../other", root / "sibling-dir")
    os.symlink("/nonexistent/nowhere", root / "dangling-out")

    result = list_resources("demo", str(root))

    assert result["resources"] == ["SKILL.md"]
    assert result["truncated"] is False
    assert codes(result) == [
        ("symlink-escape", str(root / name)) for name in ["dangling-out", "etc-link", "sibling-dir", "sibling.md"]
    ]
    etc = next(d for d in result["diagnostics"] if d["path"].endswith("etc-link"))
    assert etc["severity"] == "warning"
    assert "etc-link" in etc["message"] and "outside the skill" in etc["message"]


def test_internal_links_are_listed_and_a_duplicate_folder_is_walked_once(tmp_path):
    root = make_skill(tmp_path)
    write(root / "v2/notes.md")
    write(root / "references/x.md")
    os.symlink("references/x.md", root / "alias.md")
    os.symlink("v2", root / "latest")  # sorts before v2, yet the real folder is the one listed

    result = list_resources("demo", str(root))

    assert result["resources"] == ["SKILL.md", "alias.md", "references/x.md", "v2/notes.md"]
    diag = only_diag(result, "resource-loop")
    assert diag["path"] == str(root / "latest")
    assert "already listed under v2" in diag["message"]
    assert result["truncated"] is False


def test_internal_folder_link_to_a_too_deep_folder_is_walked_through_the_link(tmp_path):
    root = make_skill(tmp_path)
    deep = "/".join(f"d{i}" for i in range(1, MAX_RESOURCE_DEPTH + 2))
    write(root / deep / "leaf.md")
    os.symlink(deep, root / "shortcut")

    result = list_resources("demo", str(root))

    assert result["resources"] == ["SKILL.md", "shortcut/leaf.md"]
    assert only_diag(result, "resource-limit")["path"] == str(root / deep)


def test_link_loops_never_hang_and_are_reported(tmp_path):
    root = make_skill(tmp_path)
    write(root / "a/b/file.md")
    os.symlink(".", root / "here")  # back to the root
    os.symlink("..", root / "a/up")  # to the parent
    os.symlink("../../a", root / "a/b/back")  # to an ancestor two levels up
    os.symlink("self", root / "self")  # resolving never ends (ELOOP)
    os.symlink("ping", root / "pong")
    os.symlink("pong", root / "ping")

    result = list_resources("demo", str(root))

    assert result["resources"] == ["SKILL.md", "a/b/file.md"]
    assert result["truncated"] is False
    assert codes(result) == [
        ("resource-loop", str(root / p)) for p in ["a/b/back", "a/up", "here", "ping", "pong", "self"]
    ]
    by_path = {d["path"]: d["message"] for d in result["diagnostics"]}
    assert "(a loop)" in by_path[str(root / "here")]
    assert "(a loop)" in by_path[str(root / "a/b/back")]
    assert "link loop" in by_path[str(root / "self")]


def test_fifo_socket_and_links_to_them_are_skipped_as_not_regular(tmp_path):
    root = make_skill(tmp_path)
    os.mkfifo(root / "resource.md")  # a FIFO named like a resource
    os.symlink("resource.md", root / "to-fifo.md")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(root / "s"))
    finally:
        sock.close()

    result = list_resources("demo", str(root))

    assert result["resources"] == ["SKILL.md"]
    assert result["truncated"] is False
    assert codes(result) == [("resource-not-regular", str(root / p)) for p in ["resource.md", "s", "to-fifo.md"]]
    assert {d["severity"] for d in result["diagnostics"]} == {"information"}
    messages = {d["path"]: d["message"] for d in result["diagnostics"]}
    assert "FIFO" in messages[str(root / "resource.md")]
    assert "socket" in messages[str(root / "s")]


def test_broken_internal_link_is_reported_unreadable_with_the_os_reason(tmp_path):
    root = make_skill(tmp_path)
    os.symlink("references/missing.md", root / "broken.md")

    result = list_resources("demo", str(root))

    diag = only_diag(result, "unreadable")
    assert diag["path"] == str(root / "broken.md")
    assert diag["severity"] == "warning"
    assert "No such file or directory" in diag["message"]
    assert result["resources"] == ["SKILL.md"]


def test_unreadable_folder_is_reported_and_files_are_never_opened(world_tree):
    root = make_skill(world_tree)
    os.chmod(root, 0o755)
    os.chmod(root / "SKILL.md", 0o644)
    write(root / "locked/secret.md")
    write(root / "private.md")
    os.chmod(root / "private.md", 0o000)  # listed all the same: listing never opens a file
    os.chmod(root / "locked", 0o000)

    result = as_unprivileged(lambda: list_resources("demo", str(root)))

    assert result["resources"] == ["SKILL.md", "private.md"]
    diag = only_diag(result, "unreadable")
    assert diag["path"] == str(root / "locked")
    assert "Permission denied" in diag["message"]
    # ...and reading a file the user may not open is refused with the OS reason.
    with pytest.raises(Refused, match="Permission denied"):
        as_unprivileged(lambda: read_resource("demo", str(root), "private.md"))


def test_root_ignores_permission_bits(tmp_path):
    # The same tree as the root user: permission bits do not stop root, so nothing is unreadable.
    root = make_skill(tmp_path)
    write(root / "locked/secret.md")
    os.chmod(root / "locked", 0o000)
    try:
        result = list_resources("demo", str(root))
    finally:
        os.chmod(root / "locked", 0o755)
    if os.geteuid() == 0:
        assert result["resources"] == ["SKILL.md", "locked/secret.md"]
        assert result["diagnostics"] == []
    else:
        assert result["resources"] == ["SKILL.md"]
        assert codes(result) == [("unreadable", str(root / "locked"))]


def test_non_utf8_names_are_reported_not_listed(tmp_path):
    root = make_skill(tmp_path)
    os.close(os.open(os.fsencode(root) + b"/bad\xff.md", os.O_CREAT | os.O_WRONLY, 0o644))

    result = list_resources("demo", str(root))

    assert result["resources"] == ["SKILL.md"]
    diag = only_diag(result, "resource-name")
    assert diag["path"] == str(root) + "/bad\\xff.md"
    json.dumps(result, ensure_ascii=False).encode("utf-8")  # every string is real Unicode


# ----------------------------------------------------------------------------------------- skills.read


def test_defaults_read_skill_md_from_zero_with_the_default_limit(tmp_path):
    body = b"---\nname: demo\ndescription: d\n---\n" + b"x" * (DEFAULT_READ_LIMIT * 2)
    root = make_skill(tmp_path, skill_md=body)

    page = read_resource("demo", str(root))

    assert set(page) == READ_KEYS
    assert page == {
        "name": "demo",
        "resource": "SKILL.md",
        "offset": 0,
        "size": len(body),
        "next_offset": DEFAULT_READ_LIMIT,
        "truncated": True,
        "encoding": "utf-8",
        "content": body[:DEFAULT_READ_LIMIT].decode(),
    }


@pytest.mark.parametrize(
    ("limit", "served"),
    [(MAX_READ_LIMIT - 1, MAX_READ_LIMIT - 1), (MAX_READ_LIMIT, MAX_READ_LIMIT), (MAX_READ_LIMIT + 1, MAX_READ_LIMIT)],
)
def test_read_limit_above_the_maximum_is_served_as_the_maximum(tmp_path, limit, served):
    root = make_skill(tmp_path)
    data = bytes(range(256)) * ((MAX_READ_LIMIT * 2) // 256)  # not UTF-8: pages are exact
    write(root / "blob.bin", data)

    page = read_resource("demo", str(root), "blob.bin", 0, limit)

    assert page["encoding"] == "base64"
    assert page["next_offset"] == served
    assert base64.b64decode(page["content"]) == data[:served]
    assert page["truncated"] is True


@pytest.mark.parametrize("extra", [0, 1])
def test_resource_size_bound_at_and_past_the_limit(tmp_path, extra):
    root = make_skill(tmp_path)
    with open(root / "big.bin", "wb") as f:
        f.truncate(MAX_RESOURCE_BYTES + extra)  # sparse: fast, and all NUL bytes (valid UTF-8)

    if extra == 0:
        page = read_resource("demo", str(root), "big.bin", MAX_RESOURCE_BYTES - 10, 100)
        assert page["size"] == MAX_RESOURCE_BYTES
        assert page["encoding"] == "utf-8"
        assert page["content"] == "\0" * 10
        assert page["next_offset"] == MAX_RESOURCE_BYTES
        assert page["truncated"] is False
    else:
        with pytest.raises(Refused) as exc:
            read_resource("demo", str(root), "big.bin")
        assert f"{MAX_RESOURCE_BYTES + 1} bytes" in str(exc.value)
        assert "16 MiB" in str(exc.value)


# 1-, 2-, 3- and 4-byte characters in mixed alignments
MULTIBYTE = "aé€😀" + "b€😀é" * 3 + "😀😀x" + "éé€" + "z"


@pytest.mark.parametrize("limit", [4, 5, 6, 7, 8, 13, DEFAULT_READ_LIMIT])
@pytest.mark.parametrize("prefix", ["", "a", "ab", "abc"])  # shift where characters fall against page ends
def test_utf8_pages_end_on_character_boundaries_and_join_exactly(tmp_path, limit, prefix):
    root = make_skill(tmp_path)
    data = (prefix + MULTIBYTE * 5).encode("utf-8")
    write(root / "text.md", data)

    joined, pages = read_all(root, "text.md", limit)

    assert joined == data
    assert {p["encoding"] for p in pages} == {"utf-8"}
    for p in pages[:-1]:
        # Short only to stop before a character that would not fit: at most 3 bytes short.
        assert limit - 3 <= p["next_offset"] - p["offset"] <= limit
    if limit < len(data):
        assert any(p["next_offset"] - p["offset"] < limit for p in pages[:-1]), "some page straddled a character"


def test_utf8_page_smaller_than_the_character_is_empty_and_does_not_advance(tmp_path):
    root = make_skill(tmp_path)
    write(root / "emoji.md", "😀ok".encode())

    for limit in (1, 2, 3):
        page = read_resource("demo", str(root), "emoji.md", 0, limit)
        assert (page["content"], page["next_offset"], page["truncated"]) == ("", 0, True)
    page = read_resource("demo", str(root), "emoji.md", 0, 4)
    assert (page["content"], page["next_offset"]) == ("😀", 4)


def test_limit_zero_is_an_empty_page(tmp_path):
    root = make_skill(tmp_path)
    write(root / "a.md", b"hello")
    write(root / "b.bin", b"\xff\xfe")

    page = read_resource("demo", str(root), "a.md", 2, 0)
    assert (page["content"], page["next_offset"], page["truncated"]) == ("", 2, True)
    page = read_resource("demo", str(root), "b.bin", 0, 0)
    assert (page["encoding"], page["content"], page["next_offset"]) == ("base64", "", 0)


def test_offset_inside_a_character_is_invalid(tmp_path):
    root = make_skill(tmp_path)
    write(root / "text.md", "é€".encode())
    for offset in (1, 3, 4):
        with pytest.raises(InvalidArguments, match="next_offset"):
            read_resource("demo", str(root), "text.md", offset, 10)
    assert read_resource("demo", str(root), "text.md", 2, 10)["content"] == "€"


@pytest.mark.parametrize("limit", [1, 3, 4, 5, 7, DEFAULT_READ_LIMIT])
def test_binary_pages_are_exact_base64_and_join_exactly(tmp_path, limit):
    root = make_skill(tmp_path)
    data = bytes(range(256)) * 3 + b"\xff\xc3(" + "é".encode() + b"\x00\x80"
    write(root / "blob.bin", data)

    joined, pages = read_all(root, "blob.bin", limit)

    assert joined == data
    assert {p["encoding"] for p in pages} == {"base64"}
    assert all(p["next_offset"] - p["offset"] == limit for p in pages[:-1])


def test_offset_at_and_past_the_end(tmp_path):
    root = make_skill(tmp_path)
    write(root / "a.md", b"hello")

    page = read_resource("demo", str(root), "a.md", 5, 10)
    assert (page["content"], page["next_offset"], page["truncated"], page["size"]) == ("", 5, False, 5)
    with pytest.raises(InvalidArguments, match=r"offset 6 is past the end \(size 5\)"):
        read_resource("demo", str(root), "a.md", 6, 10)


def test_empty_file_reads_as_one_empty_page(tmp_path):
    root = make_skill(tmp_path)
    write(root / "empty.md", b"")
    page = read_resource("demo", str(root), "empty.md")
    assert (page["size"], page["next_offset"], page["truncated"], page["encoding"]) == (0, 0, False, "utf-8")


@pytest.mark.parametrize(
    ("offset", "limit"),
    [(-1, 10), (0, -1), (True, 10), (0, False), (1.0, 10), (0, "10"), (None, 10), (0, None)],
)
def test_malformed_offset_or_limit_is_invalid(tmp_path, offset, limit):
    root = make_skill(tmp_path)
    with pytest.raises(InvalidArguments):
        read_resource("demo", str(root), "SKILL.md", offset, limit)


def test_non_string_resource_is_invalid(tmp_path):
    root = make_skill(tmp_path)
    for resource in (None, 3, b"SKILL.md", ["SKILL.md"]):
        with pytest.raises(InvalidArguments):
            read_resource("demo", str(root), resource)  # type: ignore[arg-type]


def test_bom_is_kept_as_content(tmp_path):
    root = make_skill(tmp_path)
    write(root / "bom.md", b"\xef\xbb\xbfhi")
    page = read_resource("demo", str(root), "bom.md")
    assert (page["encoding"], page["content"], page["size"]) == ("utf-8", "\ufeffhi", 5)


def test_resource_path_is_normalized_and_echoed(tmp_path):
    root = make_skill(tmp_path)
    write(root / "references/x.md", b"x")
    page = read_resource("demo", str(root), "./references//x.md")
    assert (page["resource"], page["content"]) == ("references/x.md", "x")


@pytest.mark.parametrize(
    ("resource", "why"),
    [
        ("../x", r"'\.\.'"),
        ("a/../../x", r"'\.\.'"),
        ("references/../SKILL.md", r"'\.\.'"),
        ("..", r"'\.\.'"),
        ("../other/SKILL.md", r"'\.\.'"),  # exists, still refused
        ("/etc/passwd", "absolute"),
        ("..\\x", "backslash"),
        ("references\\x.md", "backslash"),
        ("x\0y", "NUL"),
        ("C:x", "drive"),
        ("c:/windows", "drive"),
        ("", "empty"),
        (".", "skill folder itself"),
        ("./", "skill folder itself"),
    ],
)
def test_traversal_forms_are_refused_with_advice(tmp_path, resource, why):
    root = make_skill(tmp_path)
    make_skill(tmp_path, "other")
    write(root / "x", b"x")
    write(root / "references/x.md", b"x")
    with pytest.raises(Refused, match=why) as exc:
        read_resource("demo", str(root), resource)
    assert "relative to the skill folder" in str(exc.value)


def test_links_leaving_the_skill_are_refused_and_internal_links_are_read(tmp_path):
    root = make_skill(tmp_path)
    other = make_skill(tmp_path, "other")
    write(root / "references/x.md", b"inside")
    os.symlink("/etc", root / "etc-link")
    os.symlink(other / "SKILL.md", root / "sibling.md")
    os.symlink("..", root / "parent")
    os.symlink("references/x.md", root / "alias.md")
    os.symlink("references", root / "refs")

    for resource in ("etc-link/passwd", "sibling.md", "parent/other/SKILL.md", "etc-link"):
        with pytest.raises(Refused, match="outside the skill folder"):
            read_resource("demo", str(root), resource)
    assert read_resource("demo", str(root), "alias.md")["content"] == "inside"
    page = read_resource("demo", str(root), "refs/x.md")
    assert (page["resource"], page["content"]) == ("refs/x.md", "inside")


def test_link_loop_missing_and_folder_are_refused(tmp_path):
    root = make_skill(tmp_path)
    os.symlink("self", root / "self")
    write(root / "references/x.md")
    with pytest.raises(Refused, match="link loop"):
        read_resource("demo", str(root), "self")
    with pytest.raises(Refused, match="no resource references/missing.md.*skills.resources"):
        read_resource("demo", str(root), "references/missing.md")
    with pytest.raises(Refused, match="no resource SKILL.md/x"):
        read_resource("demo", str(root), "SKILL.md/x")
    with pytest.raises(Refused, match="is a folder.*skills.resources"):
        read_resource("demo", str(root), "references")


def test_fifo_and_socket_are_refused_without_opening(tmp_path):
    root = make_skill(tmp_path)
    os.mkfifo(root / "resource.md")  # no writer: a blocking open would wait forever
    os.symlink("resource.md", root / "to-fifo.md")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(root / "s"))
    finally:
        sock.close()

    for resource in ("resource.md", "to-fifo.md"):
        with pytest.raises(Refused, match="FIFO"):
            read_resource("demo", str(root), resource)
    with pytest.raises(Refused, match="socket"):
        read_resource("demo", str(root), "s")


def test_open_is_non_blocking_and_rechecks_the_opened_file(tmp_path):
    # The second line of defence, for a path swapped after the stat: opening a FIFO with no writer
    # returns at once (O_NONBLOCK) and the descriptor's fstat refuses it.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    base = os.path.realpath(tmp_path)
    with pytest.raises(Refused, match="FIFO"):
        resource_paging._open_checked(base, str(fifo), "fifo", os.stat(fifo))
    # A file replaced between stat and open (different inode) is refused too.
    a = write(tmp_path / "a", b"a")
    b = write(tmp_path / "b", b"b")
    with pytest.raises(Refused, match="changed"):
        resource_paging._open_checked(base, str(b), "b", os.stat(a))
    # ...and a link swapped in for a resolved path is not followed.
    os.symlink(a, tmp_path / "link")
    with pytest.raises(Refused, match="changed"):
        resource_paging._open_checked(base, str(tmp_path / "link"), "link", os.stat(a))
    fd = resource_paging._open_checked(base, str(a), "a", os.stat(a))
    os.close(fd)


# ------------------------------------------------------------------------------------------- properties


@pytest.fixture(scope="module")
def prop_root(tmp_path_factory):
    return make_skill(tmp_path_factory.mktemp("prop"))


JUNK = st.sampled_from([True, False, None, 1.5, "3", [1]])
CONTENT = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=80).map(lambda s: s.encode("utf-8")),
    st.text(alphabet="aé€😀", max_size=80).map(lambda s: s.encode("utf-8")),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=CONTENT,
    offset=st.one_of(st.integers(min_value=-3, max_value=320), JUNK),
    limit=st.one_of(st.integers(min_value=-3, max_value=MAX_READ_LIMIT + 3), JUNK),
)
def test_any_offset_and_limit_gives_a_correct_page_or_a_clear_refusal(prop_root, data, offset, limit):
    write(prop_root / "blob", data)
    try:
        page = read_resource("demo", str(prop_root), "blob", offset, limit)
    except (InvalidArguments, Refused):
        # Refused only for a reason the arguments explain.
        well_formed = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (offset, limit))
        if well_formed and offset <= len(data):
            utf8 = _is_utf8(data)
            assert utf8 and offset < len(data) and 0x80 <= data[offset] <= 0xBF, "refused a valid request"
        return
    body = page_bytes(page)
    assert body == data[offset : page["next_offset"]]
    assert len(body) <= min(limit, MAX_READ_LIMIT)
    assert page["size"] == len(data)
    assert page["truncated"] == (page["next_offset"] < len(data))
    assert page["encoding"] == ("utf-8" if _is_utf8(data) else "base64")
    if page["encoding"] == "base64":
        assert len(body) == min(limit, MAX_READ_LIMIT, len(data) - offset)
    else:
        assert len(body) >= min(limit, len(data) - offset) - 3


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=CONTENT, limit=st.integers(min_value=1, max_value=40))
def test_reading_every_page_joins_to_the_exact_bytes(prop_root, data, limit):
    write(prop_root / "blob", data)
    pages, offset = [], 0
    while True:
        page = read_resource("demo", str(prop_root), "blob", offset, limit)
        if page["truncated"] and page["next_offset"] == offset:
            # Only a UTF-8 character longer than the limit can stall a page: continue with the documented
            # minimum of 4.
            assert page["encoding"] == "utf-8" and limit < 4
            page = read_resource("demo", str(prop_root), "blob", offset, 4)
        body = page_bytes(page)
        assert len(body) <= max(limit, 4)
        pages.append(body)
        if not page["truncated"]:
            break
        offset = page["next_offset"]
    assert b"".join(pages) == data


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
