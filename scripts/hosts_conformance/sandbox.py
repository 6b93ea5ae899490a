"""Running an agent with no network, no keys and a throw-away HOME.

The observation step runs inside a network namespace that has only loopback (`unshare -n` as root,
`unshare -rn` otherwise): an agent that tries to reach the internet fails at once, and nothing leaves the
machine. The fake model servers run inside the same namespace, on 127.0.0.1.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import socket
import struct
import subprocess
import sys

from .tree import Tree

ISOLATED_MARK = "ALBEDO_CONFORMANCE_ISOLATED"  # set in the re-executed child, so it never re-executes again
AGENT_TIMEOUT_SECONDS = 120  # an agent that hangs (e.g. retrying a network it cannot reach) is stopped
# Variables an agent run may inherit; everything else (keys, tokens, XDG folders, proxies) is dropped.
KEPT_VARIABLES = ("PATH", "LANG", "LC_ALL", "TZ")
QUIET = {"DO_NOT_TRACK": "1", "CI": "true", "NO_COLOR": "1", "TERM": "dumb"}

_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1


def isolation_command() -> list[str] | None:
    """The command prefix that starts a loopback-only network namespace, or None when this machine has none
    (no `unshare`, or namespaces refused: e.g. a container without the capability)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    prefix = [unshare, "-n"] if os.geteuid() == 0 else [unshare, "-rn"]
    probe = subprocess.run(prefix + ["true"], capture_output=True)
    return prefix if probe.returncode == 0 else None


def bring_loopback_up() -> None:
    """Inside a new network namespace `lo` starts down; the fake model servers need 127.0.0.1. The ioctl
    does what `ip link set lo up` does, without needing iproute2."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(sock, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sh", b"lo", flags | _IFF_UP))


def network_is_isolated() -> bool:
    """True when no interface other than loopback exists (what the namespace guarantees)."""
    return {name for _, name in socket.if_nameindex()} <= {"lo"}


def run_isolated(module_args: list[str], prefix: list[str]) -> int:
    """Re-run this package with `module_args` inside the namespace; returns its exit status."""
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, **{ISOLATED_MARK: "1"})
    env["PYTHONPATH"] = package_parent + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(prefix + [sys.executable, "-m", "hosts_conformance", *module_args], env=env).returncode


def agent_env(home: str, extra: dict[str, str]) -> dict[str, str]:
    """A clean environment: HOME the scratch home, TMPDIR a scratch folder beside it, no inherited secrets,
    telemetry off, plus `extra`."""
    env = {name: os.environ[name] for name in KEPT_VARIABLES if name in os.environ}
    env.update(QUIET)
    env["HOME"] = home
    # Inside the user namespace an ordinary user is uid 0: Claude Code refuses a /tmp/claude-0 that the real
    # root made (it shows as owned by the overflow uid there), so the shared /tmp is never the agents' TMPDIR.
    env["TMPDIR"] = os.path.join(os.path.dirname(os.path.abspath(home)), "tmp")
    os.makedirs(env["TMPDIR"], exist_ok=True)
    env.update(extra)
    return env


class Ran:
    """What one agent command did: exit status and its two streams (read from files: OpenCode, a Bun
    binary, exits before a pipe drains and cuts its JSON at 64 KiB)."""

    def __init__(self, returncode: int, stdout: str, stderr: str, seconds: float) -> None:
        self.returncode, self.stdout, self.stderr, self.seconds = returncode, stdout, stderr, seconds

    def failed(self, what: str) -> str:
        return f"{what} exited with {self.returncode}: {self.stderr.strip()[-800:]}"


def run(cmd: list[str], env: dict[str, str], cwd: str, scratch: str, stdin: str | None = None) -> Ran:
    """Run `cmd` to the end with its output in files under `scratch`; never longer than the timeout."""
    import time

    out_path, err_path = os.path.join(scratch, "stdout"), os.path.join(scratch, "stderr")
    started = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        try:
            done = subprocess.run(cmd, env=env, cwd=cwd, stdout=out, stderr=err, timeout=AGENT_TIMEOUT_SECONDS,
                                  input=stdin.encode() if stdin is not None else None,
                                  stdin=None if stdin is not None else subprocess.DEVNULL)
            code = done.returncode
        except subprocess.TimeoutExpired:
            code = -1
    seconds = time.monotonic() - started
    with open(out_path, encoding="utf-8", errors="replace") as out, open(err_path, encoding="utf-8",
                                                                        errors="replace") as err:
        return Ran(code, out.read(), err.read(), seconds)


def observe_isolated(tree: Tree, ids: list[str], prefix: list[str], out: str, runs: int | None) -> dict:
    """The agents `ids` run over `tree` inside the namespace (`__main__`'s `_observe` step), their
    observations read back from `out`."""
    args = ["_observe", tree.base, out, *ids] + ([f"--runs={runs}"] if runs else [])
    code = run_isolated(args, prefix)
    if code != 0:
        raise SystemExit(f"the isolated observation step failed (exit {code})")
    with open(out, encoding="utf-8") as found:
        return json.load(found)
