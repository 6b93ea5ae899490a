"""What every benchmark module shares: where things are, the log, the environment of measured processes, and
the machine and versions the report names."""

from __future__ import annotations

import importlib.metadata
import os
import platform
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
WORK = os.path.join(HERE, ".work")
TREES = os.path.join(WORK, "trees")
sys.path[:0] = [REPO, HERE]  # this checkout's albedo_skills_ls, and the benchmark modules beside this one

PYTHON = sys.executable
BIN = os.path.dirname(PYTHON)
ALBEDO_CHECK = os.path.join(BIN, "albedo-skills")
PYCACHE = os.path.join(WORK, "pycache")


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def child_env(home: str | None = None, bytecode: bool = True) -> dict[str, str]:
    """The environment of every measured process.

    With `bytecode` (the default) Python may write and read .pyc files, kept under benchmarks/.work/pycache
    (PYTHONPYCACHEPREFIX, so nothing is written beside the sources): every tool then starts as it would
    from an ordinary install, whatever PYTHONDONTWRITEBYTECODE this shell has. The warm-ups fill the cache.
    """
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)  # output buffered, as people run the tools
    if home is not None:
        env["HOME"] = home
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = PYCACHE
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def version_of(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def tool_output(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unavailable ({exc.__class__.__name__})"
    return (done.stdout or done.stderr).strip().splitlines()[0] if (done.stdout or done.stderr).strip() else ""
