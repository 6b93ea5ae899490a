"""`scripts/test.sh`, the README's test command, and `.ci/run`: which programs each mode runs, with which
arguments.

The script, `.ci/run` and `e2e/build-code-server.sh` are copied into a scratch tree whose `.venv/bin/python`,
`npm`, `dpkg`, `apt-get`, `sudo` and `e2e/run.sh` are stand-ins that record each call, so the test sees the
order of the steps and the arguments pytest receives without installing or running anything. The light mode must
reach none of the installers; the full mode (what CI runs) must still reach every step and hand its arguments to
pytest.

The Debian packages: `dpkg` reports the packages named in $MISSING as not installed and `id -u` answers
$UID_SEEN, so an ordinary user is played by root and the reverse. Missing packages are installed through
sudo for an ordinary user, only those; with no sudo, or a sudo that refuses, the run stops before any suite,
naming the packages and the command.
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


# `dpkg -s PKG...` fails when any PKG is in $MISSING (space-separated), as for a package not installed.
DPKG = """#!/bin/sh
printf "%s\\n" "dpkg $*" >> "$CALLS"
shift
for pkg in "$@"; do
  case " $MISSING " in *" $pkg "*) exit 1 ;; esac
done
"""
# `id -u` answers $UID_SEEN; the script asks nothing else of `id`.
ID = '#!/bin/sh\necho "$UID_SEEN"\n'
REFUSING_SUDO = '#!/bin/sh\necho "albedouser is not in the sudoers file." >&2\nexit 1\n'
BUILD_CODE_SERVER = "vscode-extension/e2e/build-code-server.sh"
# The real programs .ci/run, scripts/test.sh and build-code-server.sh use, besides the stand-ins.
SCRIPT_TOOLS = ("bash", "dirname", "basename")


def stand_in(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def recorder(path: Path, name: str) -> None:
    stand_in(path, RECORDER.format(name=name))


def scratch_clone(tmp_path: Path) -> Path:
    tree = tmp_path / "clone"
    for relative in ("scripts/test.sh", "scripts/debian_packages.sh", ".ci/run", BUILD_CODE_SERVER):
        (tree / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / relative, tree / relative)
    recorder(tree / ".venv/bin/python", "python")
    recorder(tree / "vscode-extension/e2e/run.sh", "e2e")
    return tree


def run_in_scratch(tmp_path: Path, *argv: str, missing: str = "", uid: int = 0, sudo: str | None = "record",
                   succeeds: bool = True) -> tuple[list[str], str]:
    """Run ARGV in a scratch copy of the scripts, with the packages in MISSING not installed, as user UID,
    with a recording `sudo`, a refusing one ("refuse") or none (None); the calls the stand-ins recorded, in
    order, and stderr."""
    tree = scratch_clone(tmp_path)
    tools = tmp_path / "tools"
    for name in ("npm", "node", "apt-get", "env"):
        recorder(tools / name, name)
    stand_in(tools / "dpkg", DPKG)
    stand_in(tools / "id", ID)
    if sudo == "record":
        recorder(tools / "sudo", "sudo")
    elif sudo == "refuse":
        stand_in(tools / "sudo", REFUSING_SUDO)
    for name in SCRIPT_TOOLS:  # only the stand-ins and these: a real sudo elsewhere on PATH is never found
        (tools / name).symlink_to(shutil.which(name))
    calls = tmp_path / "calls"
    calls.touch()
    env = {"PATH": str(tools), "CALLS": str(calls), "HOME": str(tmp_path), "MISSING": missing,
           "UID_SEEN": str(uid), "CODE_SERVER_VERSION": "4.96.4"}
    argv = (shutil.which(argv[0]), *argv[1:])
    done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert (done.returncode == 0) == succeeds, done.stderr
    return calls.read_text(encoding="utf-8").splitlines(), done.stderr


def test_light_installs_nothing_outside_the_virtualenv_and_runs_the_engine_and_server_suites(tmp_path):
    calls, _ = run_in_scratch(tmp_path, "bash", "scripts/test.sh", "--light", "-x", "-k", "collision")
    assert calls == [
        "python -m pip install -q --disable-pip-version-check -e .[test]",
        "python -m pytest tests/unit tests/lsp tests/hostile -x -k collision",
    ]


def test_ci_runs_every_step_and_its_arguments_reach_pytest(tmp_path):
    calls, _ = run_in_scratch(tmp_path, "bash", ".ci/run")
    programs = [call.split()[0] for call in calls]
    assert calls[0] == "python -m pip install -q --disable-pip-version-check -e .[test]"
    assert programs[1] == "dpkg"  # the editors are asked for; the stand-in says they are all there
    assert "apt-get" not in programs and "sudo" not in programs
    assert [call for call in calls if call.startswith(("npm", "e2e"))] == [
        "npm ci --no-audit --no-fund --loglevel=error", "npm test", "e2e "]
    assert calls[-2:] == ["python scripts/hosts_conformance live", "python -m pytest -p no:cacheprovider -q"]


def test_light_is_an_option_only_as_the_first_argument(tmp_path):
    calls, _ = run_in_scratch(tmp_path, "bash", "scripts/test.sh", "-q", "--light")
    assert "npm test" in calls  # the full run
    assert calls[-1] == "python -m pytest -p no:cacheprovider -q --light"


def test_an_ordinary_user_installs_only_the_missing_packages_through_sudo(tmp_path):
    calls, _ = run_in_scratch(tmp_path, "bash", ".ci/run", missing="tmux elpa-compat", uid=1000)
    installs = [call for call in calls if call.startswith("sudo")]
    assert installs == [
        "sudo apt-get -o DPkg::Lock::Timeout=600 update -qq",
        "sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "
        "--no-install-recommends tmux elpa-compat",
    ]
    assert calls[-1] == "python -m pytest -p no:cacheprovider -q"  # and then every suite runs


def test_root_installs_the_missing_packages_without_sudo(tmp_path):
    calls, _ = run_in_scratch(tmp_path, "bash", ".ci/run", missing="neovim", uid=0)
    assert "env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq " \
           "--no-install-recommends neovim" in calls
    assert not [call for call in calls if call.startswith("sudo")]


def assert_stopped_naming_the_packages(calls: list[str], stderr: str) -> None:
    assert "test.sh: missing Debian packages for the editor tests (tests/clients): neovim tmux" in stderr
    assert "    apt-get install --no-install-recommends neovim tmux\n" in stderr
    assert not [call for call in calls if call.startswith(("npm", "e2e", "python -m pytest"))]


def test_an_ordinary_user_without_sudo_is_told_what_to_install_and_no_suite_runs(tmp_path):
    calls, stderr = run_in_scratch(tmp_path, "bash", ".ci/run", missing="neovim tmux", uid=1000, sudo=None,
                                   succeeds=False)
    assert "They could not be installed: sudo is not installed." in stderr
    assert not [call for call in calls if call.startswith("apt-get")]
    assert_stopped_naming_the_packages(calls, stderr)


def test_an_ordinary_user_whom_sudo_refuses_is_told_what_to_install_and_no_suite_runs(tmp_path):
    calls, stderr = run_in_scratch(tmp_path, "bash", ".ci/run", missing="neovim tmux", uid=1000, sudo="refuse",
                                   succeeds=False)
    assert "albedouser is not in the sudoers file." in stderr
    assert "They could not be installed: sudo or apt-get failed (see above)." in stderr
    assert_stopped_naming_the_packages(calls, stderr)


def test_the_code_server_build_stops_naming_chromium_for_an_ordinary_user_without_sudo(tmp_path):
    calls, stderr = run_in_scratch(tmp_path, "bash", BUILD_CODE_SERVER, missing="chromium", uid=1000, sudo=None,
                                   succeeds=False)
    assert "build-code-server.sh: missing Debian packages for building code-server and driving it: chromium\n" \
        in stderr
    assert "    apt-get install --no-install-recommends chromium\n" in stderr
    assert not [call for call in calls if call.startswith(("npm", "apt-get"))]  # nothing was built
