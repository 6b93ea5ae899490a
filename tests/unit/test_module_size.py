"""No source module over MAX_MODULE_LINES lines (RULES: split along a seam you can name; ARCHITECTURE.md).

Counted: Python, TypeScript, Lua and Emacs Lisp files anywhere in the repository, tests aside (a folder
named `tests` or `test`) and generated or installed output aside (dependencies, build output, the server the
VS Code extension bundles, hidden folders such as `.venv` or `benchmarks/.work`). The walk reads the file
system, not git, so a new file fails the suite before it is ever committed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# One bound for every module: a module past it holds two ideas. There is no tighter bound for any one file:
# a cap just above a file's size made its next change a split for the cap's sake, not a seam's.
MAX_MODULE_LINES = 500

REPO = Path(__file__).resolve().parents[2]
SOURCE_SUFFIXES = (".py", ".ts", ".lua", ".el")
TEST_FOLDERS = frozenset({"tests", "test"})
# Folders of output nobody writes by hand: dependencies, compiler and bundler output, caches.
GENERATED_FOLDERS = frozenset({"node_modules", "out", "dist", "build", "__pycache__"})
# `scripts/bundle-server.py` copies the server and its dependencies here for the .vsix.
GENERATED_PATHS = frozenset({Path("vscode-extension", "bundled", "libs")})


def _skipped(relative: Path) -> bool:
    name = relative.name
    return (
        name.startswith(".")
        or name.endswith(".egg-info")
        or name in TEST_FOLDERS
        or name in GENERATED_FOLDERS
        or relative in GENERATED_PATHS
    )


def source_files(root: Path) -> list[Path]:
    """Every counted source file under `root`, relative to it, sorted."""
    found: list[Path] = []
    for folder, folders, files in os.walk(root):
        here = Path(folder).relative_to(root)
        folders[:] = [name for name in folders if not _skipped(here / name)]
        found += [here / name for name in files if name.endswith(SOURCE_SUFFIXES)]
    return sorted(found)


def line_count(path: Path) -> int:
    """Lines as an editor numbers them: a last line without its line feed still counts."""
    with open(path, "rb") as handle:
        return sum(1 for _line in handle)


def oversized(root: Path) -> list[tuple[str, int]]:
    """(path, lines) of every counted file over MAX_MODULE_LINES."""
    sizes = ((path, line_count(root / path)) for path in source_files(root))
    return [(path.as_posix(), lines) for path, lines in sizes if lines > MAX_MODULE_LINES]


def test_no_module_in_the_repository_is_over_the_bound():
    found = oversized(REPO)
    assert not found, "\n".join(
        f"{path}: {lines} lines, over {MAX_MODULE_LINES}: split it along a seam you can name (ARCHITECTURE.md)"
        for path, lines in found
    )


def test_the_walk_sees_the_projects_own_modules():
    # A walk that skipped too much would pass the test above by counting nothing.
    counted = {path.as_posix() for path in source_files(REPO)}
    for expected in (
        "albedo_skills_ls/skills/catalog/discovery.py",
        "vscode-extension/src/launch.ts",
        "lua/albedo_skills/init.lua",
        "albedo-skills.el",
        "benchmarks/run.py",
    ):
        assert expected in counted
    assert not any(part in TEST_FOLDERS for path in source_files(REPO) for part in Path(path).parts)


def _write_lines(path: Path, count: int, last_line_feed: bool = True) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(f"x = {number}\n" for number in range(count))
    path.write_text(text if last_line_feed else text.removesuffix("\n"))


@pytest.mark.parametrize("suffix", SOURCE_SUFFIXES)
def test_a_module_at_the_bound_passes_and_one_line_more_fails(tmp_path: Path, suffix: str):
    module = tmp_path / "pkg" / f"module{suffix}"
    _write_lines(module, MAX_MODULE_LINES)
    assert oversized(tmp_path) == []
    _write_lines(module, MAX_MODULE_LINES + 1)
    assert oversized(tmp_path) == [(f"pkg/module{suffix}", MAX_MODULE_LINES + 1)]


def test_a_last_line_without_a_line_feed_counts(tmp_path: Path):
    _write_lines(tmp_path / "a.lua", MAX_MODULE_LINES, last_line_feed=False)
    assert oversized(tmp_path) == []
    _write_lines(tmp_path / "a.lua", MAX_MODULE_LINES + 1, last_line_feed=False)
    assert oversized(tmp_path) == [("a.lua", MAX_MODULE_LINES + 1)]


def test_tests_and_generated_output_are_not_counted(tmp_path: Path):
    for skipped in (
        "tests/unit/test_big.py",
        "vscode-extension/src/test/big.test.ts",
        "vscode-extension/node_modules/pkg/index.ts",
        "vscode-extension/out/big.ts",
        "vscode-extension/bundled/libs/ruamel/yaml/main.py",
        ".venv/lib/python3.11/site-packages/big.py",
        "benchmarks/.work/venv-tools/lib/big.py",
        "albedo_skills_ls.egg-info/big.py",
        "notes/big.md",  # not a source language
    ):
        _write_lines(tmp_path / skipped, MAX_MODULE_LINES + 1)
    assert oversized(tmp_path) == []
    # ...but a hand-written file beside the generated ones is counted
    _write_lines(tmp_path / "vscode-extension/bundled/tool/launch.py", MAX_MODULE_LINES + 1)
    _write_lines(tmp_path / "lua/albedo_skills/chat/codecompanion.lua", MAX_MODULE_LINES + 1)
    assert oversized(tmp_path) == [
        ("lua/albedo_skills/chat/codecompanion.lua", MAX_MODULE_LINES + 1),
        ("vscode-extension/bundled/tool/launch.py", MAX_MODULE_LINES + 1),
    ]
