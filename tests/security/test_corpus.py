"""The security reading on the corpus: every dangerous-shaped skill flagged at the right file and line with
nothing else, every benign one with no finding at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from albedo_skills_ls.skills.security import scan_skill

from .corpus import BENIGN, DANGEROUS, write_skill


def _found(folder: Path) -> list[tuple[str, str, int]]:
    return sorted(
        (d.code, str(Path(d.path).relative_to(folder)), d.range.start.line + 1) for d in scan_skill(folder)
    )


@pytest.mark.parametrize("name", sorted(DANGEROUS))
def test_each_dangerous_skill_is_flagged_at_its_file_and_line(tmp_path: Path, name: str) -> None:
    files, expected = DANGEROUS[name]
    folder = write_skill(tmp_path, name, files)
    assert _found(folder) == sorted(expected)


@pytest.mark.parametrize("name", sorted(BENIGN))
def test_no_benign_skill_is_flagged(tmp_path: Path, name: str) -> None:
    folder = write_skill(tmp_path, name, BENIGN[name])
    assert [(d.path, d.message) for d in scan_skill(folder)] == []
