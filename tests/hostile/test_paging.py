"""A page of skills.read costs the page: the encoding verdict is remembered per file
identity (device, inode, size, modification time) in the session, so later pages read only their bytes.

The tests observe this on a real file: once the verdict is remembered, bytes rewritten in place outside
the page (same size, modification time restored) are not read again; a changed identity is decided anew.
"""

from __future__ import annotations

import os
from pathlib import Path

from albedo_skills_ls.skills.core.limits import MAX_ENCODING_VERDICTS
from albedo_skills_ls.skills.resources.paging import EncodingVerdicts, read_resource
from lsp.harness import valid, write_skill


def skill_with(tmp_path: Path, data: bytes) -> tuple[Path, Path]:
    folder = tmp_path / "root" / "demo"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: demo\ndescription: d\n---\n", encoding="utf-8")
    (folder / "big.txt").write_bytes(data)
    return folder, folder / "big.txt"


def spoil_the_end_in_place(path: Path) -> None:
    """An invalid UTF-8 byte at the end, keeping size and modification time: the same identity."""
    before = os.stat(path)
    with open(path, "r+b") as handle:
        handle.seek(before.st_size - 1)
        handle.write(b"\xff")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def page(folder: Path, offset: int, verdicts: EncodingVerdicts | None) -> dict:
    return read_resource("demo", str(folder), "big.txt", offset, 1024, discovery_root=str(folder.parent),
                         verdicts=verdicts)


def test_a_remembered_verdict_spares_reading_the_rest_of_the_file(tmp_path):
    folder, path = skill_with(tmp_path, b"a" * 200_000)
    verdicts = EncodingVerdicts()
    assert page(folder, 0, verdicts)["encoding"] == "utf-8"
    spoil_the_end_in_place(path)
    # same identity: the verdict is reused, only page bytes are read
    assert page(folder, 1024, verdicts)["encoding"] == "utf-8"
    # without a session's verdicts every page decides from the whole file
    assert page(folder, 1024, None)["encoding"] == "base64"


def test_a_changed_file_is_decided_anew(tmp_path):
    folder, path = skill_with(tmp_path, b"a" * 200_000)
    verdicts = EncodingVerdicts()
    assert page(folder, 0, verdicts)["encoding"] == "utf-8"
    path.write_bytes(b"a" * 199_999 + b"\xff")  # rewritten: a new modification time
    os.utime(path, ns=(0, os.stat(path).st_mtime_ns + 1_000_000_000))
    assert page(folder, 0, verdicts)["encoding"] == "base64"


def test_verdicts_are_bounded_at_max_and_forget_the_oldest_one_past_it(tmp_path):
    verdicts = EncodingVerdicts()
    for number in range(MAX_ENCODING_VERDICTS):
        verdicts.remember((1, number, 10, 0), "utf-8")
    assert len(verdicts) == MAX_ENCODING_VERDICTS and verdicts.get((1, 0, 10, 0)) == "utf-8"
    verdicts.remember((1, MAX_ENCODING_VERDICTS, 10, 0), "base64")
    assert len(verdicts) == MAX_ENCODING_VERDICTS
    assert verdicts.get((1, 0, 10, 0)) is None and verdicts.get((1, MAX_ENCODING_VERDICTS, 10, 0)) == "base64"


async def test_the_server_remembers_verdicts_across_pages(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    skill = write_skill(ws / ".agents/skills", "demo", valid("demo"))
    resource = skill.parent / "big.txt"
    resource.write_bytes(b"b" * 300_000)
    session = await servers([ws], home)
    first = await session.command("skills.read", "demo", "big.txt", 0, 65536)
    assert first["encoding"] == "utf-8"
    spoil_the_end_in_place(resource)
    second = await session.command("skills.read", "demo", "big.txt", first["next_offset"], 65536)
    assert second["encoding"] == "utf-8" and second["content"] == "b" * 65536
