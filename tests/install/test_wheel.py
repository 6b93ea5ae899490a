"""What a user installs: the sdist and the wheel built from it, installed into a fresh virtualenv.

`python -m build` makes the sdist, then the wheel from the unpacked sdist (so a file missing from the sdist
breaks the wheel). The wheel goes into a new virtualenv with nothing else of this checkout, and its two
commands run from there: `albedo-skills --version`, and `albedo-skills-ls` answering `initialize` on stdio.
The version is written once, in `albedo_skills_ls/__init__.py`; pyproject.toml reads it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from albedo_skills_ls import __version__

REPO = Path(__file__).resolve().parents[2]
# Hang guards around processes (a build downloads setuptools into its isolated environment); not speed asserts.
BUILD_GUARD_SECONDS = 600
RUN_GUARD_SECONDS = 60


def clean_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "VIRTUAL_ENV"}}


def run(*args: str | Path, cwd: Path | None = None, timeout: int = RUN_GUARD_SECONDS) -> str:
    done = subprocess.run(
        [str(arg) for arg in args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=clean_env()
    )
    assert done.returncode == 0, f"{args} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("packaging")
    dist = base / "dist"
    run(sys.executable, "-m", "build", "--outdir", dist, REPO, cwd=base, timeout=BUILD_GUARD_SECONDS)
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    venv = base / "fresh"
    run(sys.executable, "-m", "venv", venv)
    pip = (venv / "bin/python", "-m", "pip", "install", "-q", "--disable-pip-version-check")
    run(*pip, wheel, timeout=BUILD_GUARD_SECONDS)
    return {"sdist": sdist, "wheel": wheel, "bin": venv / "bin", "base": base}


def test_both_files_carry_the_one_version(installed):
    assert installed["sdist"].name == f"albedo_skills_ls-{__version__}.tar.gz"
    assert installed["wheel"].name == f"albedo_skills_ls-{__version__}-py3-none-any.whl"


def test_the_wheel_holds_the_package_and_nothing_of_the_checkout_around_it(installed):
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    assert "albedo_skills_ls/skills/core/limits.py" in names and "albedo_skills_ls/lsp/server.py" in names
    assert not [name for name in names if name.split("/")[0] in {"tests", "lua", "lsp", "plugin", "benchmarks"}]
    with tarfile.open(installed["sdist"]) as sdist:
        assert f"albedo_skills_ls-{__version__}/README.md" in sdist.getnames()


def test_the_command_line_runs_from_the_fresh_virtualenv(installed):
    out = run(installed["bin"] / "albedo-skills", "--version", cwd=installed["base"])
    assert out.strip() == f"albedo-skills {__version__}"
    # the installed package, not this checkout (run outside it: `-c` puts the working folder on sys.path)
    code = "import albedo_skills_ls; print(albedo_skills_ls.__file__)"
    where = run(installed["bin"] / "python", "-c", code, cwd=installed["base"])
    assert where.strip().startswith(str(installed["bin"].parent)), where


def message(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def test_the_server_answers_initialize_from_the_fresh_virtualenv(installed):
    exchange = b"".join(
        [
            message(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {"processId": None, "rootUri": None, "capabilities": {}},
                }
            ),
            message({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
            message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
            message({"jsonrpc": "2.0", "method": "exit"}),
        ]
    )
    done = subprocess.run(
        [str(installed["bin"] / "albedo-skills-ls")],
        input=exchange,
        capture_output=True,
        cwd=installed["base"],
        env=clean_env(),
        timeout=RUN_GUARD_SECONDS,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    replies = []
    rest = done.stdout
    while rest:
        header, _, rest = rest.partition(b"\r\n\r\n")
        length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
        replies.append(json.loads(rest[:length]))
        rest = rest[length:]
    (initialize,) = [reply for reply in replies if reply.get("id") == 1]
    assert initialize["result"]["serverInfo"] == {"name": "albedo-skills-ls", "version": __version__}
    assert initialize["result"]["capabilities"]["completionProvider"]["triggerCharacters"] == ["/"]
    assert [reply for reply in replies if reply.get("id") == 2] == [{"jsonrpc": "2.0", "id": 2, "result": None}]


def test_the_editor_packages_carry_the_same_version():
    """Written once in albedo_skills_ls/__init__.py; the two files whose format needs a literal must agree."""
    extension = json.loads((REPO / "vscode-extension" / "package.json").read_text(encoding="utf-8"))
    assert extension["version"] == __version__
    emacs_header = (REPO / "albedo-skills.el").read_text(encoding="utf-8").split(";; Version: ", 1)[1].split()[0]
    assert emacs_header == __version__
