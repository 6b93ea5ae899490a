"""A terminal editor in a private tmux server, typed at and read from its screen, for tests/clients.

`Screen` starts a command in a detached tmux server of its own (its own socket and no configuration, so
nothing touches a user's tmux), sends keystrokes with `send-keys`, and reads the pane with `capture-pane`.
Waiting is on the terminal's own output: tmux copies everything the program writes to a FIFO (`pipe-pane`),
and the screen is read again each time something arrives, until the condition holds. The guard only turns
a hang into a failure that shows the screen; it is not a speed requirement.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable

import pytest

# A hang guard per wait, not a speed requirement: a real editor on a busy 2-core machine.
WAIT_GUARD_SECONDS = 60
SCREEN_COLUMNS, SCREEN_LINES = 160, 50


class Screen:
    def __init__(self, folder: Path, command: list[str], *, env: dict[str, str], cwd: Path) -> None:
        tmux = shutil.which("tmux")
        if not tmux:
            pytest.fail("tmux is not installed: `apt-get install tmux` (scripts/test.sh does)")
        # A socket path must fit in 108 bytes, which a test's folder may not: the socket gets a short folder.
        self.socket_folder = Path(tempfile.mkdtemp(prefix="tmux-"))
        self.tmux = [tmux, "-S", str(self.socket_folder / "s"), "-f", "/dev/null"]
        self.target = "editor"
        fifo = folder / "screen.fifo"
        os.mkfifo(fifo)
        # Opened before anything writes, non-blocking, so a quiet editor never blocks this process; this
        # process holds a writer too, so the FIFO never reads as ended (which would wake every wait).
        self.output = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.keep_open = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        size = ["-x", str(SCREEN_COLUMNS), "-y", str(SCREEN_LINES)]
        # The environment through env(1), not tmux's -e: tmux 3.3 puts its own PATH over an -e PATH.
        environment = ["env", *(f"{key}={value}" for key, value in env.items())]
        self.run("new-session", "-d", "-s", self.target, *size, "-c", str(cwd), *environment, *command)
        self.run("set-option", "-t", self.target, "remain-on-exit", "on")  # keep the last screen for the report
        self.run("pipe-pane", "-t", self.target, "-O", f"cat > {shlex.quote(str(fifo))}")

    def run(self, *args: str) -> str:
        done = subprocess.run([*self.tmux, *args], capture_output=True, text=True, timeout=WAIT_GUARD_SECONDS)
        assert done.returncode == 0, f"tmux {' '.join(args)}: {done.stderr}"
        return done.stdout

    def keys(self, *keys: str) -> None:
        """Keys in tmux's names (`C-x`, `Enter`, `Escape`, `M-x`), each one a keystroke."""
        self.run("send-keys", "-t", self.target, *keys)

    def type(self, text: str) -> None:
        """Literal text, typed."""
        self.run("send-keys", "-t", self.target, "-l", text)

    def text(self) -> str:
        """The screen, one line per row, trailing blanks cut (tmux's way)."""
        return self.run("capture-pane", "-t", self.target, "-p")

    def wait_for(self, condition: Callable[[str], object] | str, what: str) -> str:
        """The screen once `condition` (a regular expression, or a function of the screen) holds on it."""
        holds = (lambda screen: re.search(condition, screen)) if isinstance(condition, str) else condition
        deadline = time.monotonic() + WAIT_GUARD_SECONDS
        while True:
            screen = self.text()
            if holds(screen):
                return screen
            ready, _, _ = select.select([self.output], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                ended = self.run("display-message", "-p", "-t", self.target, "#{pane_dead}").strip() == "1"
                state = "the editor ended" if ended else "the guard ran out"
                shown = re.sub(r"\n{3,}", "\n\n", screen)  # the screen's empty rows, shown as one
                raise AssertionError(f"waited for {what} ({state}); the screen shows:\n{shown}")
            os.read(self.output, 65536)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True, timeout=WAIT_GUARD_SECONDS)
        os.close(self.output)
        os.close(self.keep_open)
        shutil.rmtree(self.socket_folder, ignore_errors=True)


class Session:
    """What one editor session showed, step by step (`seen`); a step that never came records why (`stopped`),
    and each test asking for a later step fails with that."""

    def __init__(self) -> None:
        self.seen: dict[str, object] = {}
        self.stopped = ""

    def __getitem__(self, key: str) -> object:
        if key not in self.seen:
            pytest.fail(f"the session stopped before {key!r}:\n{self.stopped}")
        return self.seen[key]
