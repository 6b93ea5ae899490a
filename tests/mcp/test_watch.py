"""How often the MCP server's watcher looks at the disk: every WATCH_SECONDS while what it watches is small,
longer in proportion past WATCH_FILES_PER_LOOK files, counted from the real look on a real workspace."""

from __future__ import annotations

from pathlib import Path

from albedo_skills_ls.mcp.server import WATCH_FILES_PER_LOOK, WATCH_SECONDS, SkillsFace, watch_seconds
from albedo_skills_ls.skills.catalog.session import SkillsSession
from albedo_skills_ls.skills.core.limits import MAX_RESOURCE_FILES


def write_files(workspace: Path, files: int, prefix: str) -> None:
    """`files` files in skills of at most MAX_RESOURCE_FILES files each (their SKILL.md counted)."""
    index = 0
    while files > 0:
        name = f"{prefix}{index:03d}"
        folder = workspace / ".agents" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Holds files.\n---\n# Body\n", encoding="utf-8")
        extra = min(files, MAX_RESOURCE_FILES) - 1
        for number in range(extra):
            (folder / f"f{number:03d}.txt").write_text("x", encoding="utf-8")
        files -= extra + 1
        index += 1


def test_the_watcher_looks_every_second_up_to_its_file_bound_and_less_often_one_past(tmp_path):
    workspace = tmp_path / "ws"
    write_files(workspace, WATCH_FILES_PER_LOOK, "s")
    face = SkillsFace(SkillsSession(str(workspace), None, user_roots=False), lambda message: None)
    assert face.seen.files == WATCH_FILES_PER_LOOK
    assert watch_seconds(face.seen.files) == WATCH_SECONDS
    write_files(workspace, 1, "t")  # one file more: a skill of its SKILL.md alone
    assert face.refresh()
    assert face.seen.files == WATCH_FILES_PER_LOOK + 1
    assert watch_seconds(face.seen.files) == WATCH_SECONDS * (WATCH_FILES_PER_LOOK + 1) / WATCH_FILES_PER_LOOK
