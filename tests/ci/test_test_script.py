"""`scripts/test.sh`, the README's test command, and `.ci/run`: which programs each mode runs, with which
arguments.

The script and `.ci/run` are copied into a scratch tree whose `.venv/bin/python`, `npm`, `dpkg`, `apt-get`,
`sudo` and `e2e/run.sh` are stand-ins that record each call, so the test sees the order of the steps and the
arguments pytest receives without installing or running anything. The light mode must reach none of the
installers; the full mode (what CI runs) must still reach every step and hand its arguments to pytest.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

from ci.scratch import REPO

HANG_GUARD_SECONDS = 60
RECORDER = '#!/bin/sh\nprintf "%s\\n" "{name} $*" >> "$CALLS"\n'


def recorder(path: Path, name: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(RECORDER.format(name=name), encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def run_in_scratch(tmp_path: Path, *argv: str) -> list[str]:
    """Run ARGV in a scratch copy of the scripts; the calls the stand-ins recorded, in order."""
    tree = tmp_path / "clone"
    for relative in ("scripts/test.sh", ".ci/run"):
        (tree / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / relative, tree / relative)
    recorder(tree / ".venv/bin/python", "python")
    recorder(tree / "vscode-extension/e2e/run.sh", "e2e")
    tools = tmp_path / "tools"
    for name in ("npm", "dpkg", "apt-get", "sudo"):
        recorder(tools / name, name)
    calls = tmp_path / "calls"
    calls.touch()
    env = {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}", "CALLS": str(calls), "HOME": str(tmp_path)}
    done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr
    return calls.read_text(encoding="utf-8").splitlines()


def test_light_installs_nothing_outside_the_virtualenv_and_runs_the_engine_and_server_suites(tmp_path):
    calls = run_in_scratch(tmp_path, "bash", "scripts/test.sh", "--light", "-x", "-k", "collision")
    assert calls == [
        "python -m pip install -q --disable-pip-version-check -e .[test]",
        "python -m pytest tests/unit tests/lsp tests/hostile -x -k collision",
    ]


def test_ci_runs_every_step_and_its_arguments_reach_pytest(tmp_path):
    calls = run_in_scratch(tmp_path, "bash", ".ci/run")
    programs = [call.split()[0] for call in calls]
    assert calls[0] == "python -m pip install -q --disable-pip-version-check -e .[test]"
    assert programs[1] == "dpkg"  # the editors are asked for; the stand-in says they are all there
    assert "apt-get" not in programs and "sudo" not in programs
    assert [call for call in calls if call.startswith(("npm", "e2e"))] == [
        "npm ci --no-audit --no-fund --loglevel=error", "npm test", "e2e "]
    assert calls[-2:] == ["python scripts/hosts_conformance live", "python -m pytest -p no:cacheprovider -q"]


def test_light_is_an_option_only_as_the_first_argument(tmp_path):
    calls = run_in_scratch(tmp_path, "bash", "scripts/test.sh", "-q", "--light")
    assert "npm test" in calls  # the full run
    assert calls[-1] == "python -m pytest -p no:cacheprovider -q --light"
