"""The project's own files, as git lists them: the guard tests read these, never a benchmark's virtualenv
or a build folder that happens to lie beside them in a working copy."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def tracked(root: Path, suffix: str) -> list[Path]:
    """Every file under `root` whose name ends in `suffix` that git tracks (or has staged), sorted; for a
    folder outside the project (a test's own tree), every such file in it."""
    if not root.resolve().is_relative_to(REPO):
        return sorted(root.rglob(f"*{suffix}"))
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--", str(root.resolve().relative_to(REPO))],
        cwd=REPO, check=True, capture_output=True,
    ).stdout.decode("utf-8")
    return sorted(REPO / name for name in listed.split("\0") if name.endswith(suffix) and (REPO / name).exists())
