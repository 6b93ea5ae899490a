"""Running `albedo-skills` as a real subprocess on real trees, for the command line's tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
HANG_GUARD_SECONDS = 60  # a generous guard against a hang; asserts nothing about speed


def run_cli(
    *args: str | bytes | os.PathLike, cwd: Path | None = None, home: Path | None = None, env: dict | None = None
) -> subprocess.CompletedProcess:
    """Run `python -m albedo_skills_ls.cli ARGS` and capture its bytes. `home` sets $HOME for the child."""
    child_env = dict(os.environ if env is None else env)
    if home is not None:
        child_env["HOME"] = str(home)
    argv = [sys.executable, "-m", "albedo_skills_ls.cli", *(a if isinstance(a, bytes) else os.fspath(a) for a in args)]
    return subprocess.run(argv, capture_output=True, cwd=cwd, env=child_env, timeout=HANG_GUARD_SECONDS)


def write_skill(root: Path, folder: str, frontmatter: str, body: str = "# Body\n\nDo the thing.\n") -> Path:
    """Write ROOT/FOLDER/SKILL.md with the given frontmatter lines between `---` lines."""
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{frontmatter}---\n{body}", encoding="utf-8")
    return path


def valid(name: str, description: str = "Does a useful thing. Use when asked.") -> str:
    return f"name: {name}\ndescription: {description}\n"
