"""A language server with a tap on its pipes, for tests that check what an editor sent.

    python lsp_tap.py RECORD -- SERVER [ARGS...]

Runs SERVER, passes the editor's bytes to it and its bytes back unchanged, and appends each direction to
`RECORD.client` and `RECORD.server`. `messages(RECORD)` reads the frames back as JSON values. The editor
starts this as it would start the server; neither side can tell.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO

CHUNK = 64 * 1024


def pump(source: int, sink: BinaryIO, record: Path) -> None:
    with open(record, "ab") as kept:
        while True:
            data = os.read(source, CHUNK)
            if not data:
                break
            kept.write(data)
            kept.flush()
            try:
                sink.write(data)
                sink.flush()
            except (BrokenPipeError, ValueError):
                break
    try:
        sink.close()
    except OSError:
        pass


def run(record: str, command: list[str]) -> int:
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    to_server = threading.Thread(
        target=pump, args=(sys.stdin.fileno(), server.stdin, Path(f"{record}.client")), daemon=True
    )
    to_server.start()
    pump(server.stdout.fileno(), sys.stdout.buffer, Path(f"{record}.server"))
    return server.wait()


def frames(data: bytes) -> list[dict[str, Any]]:
    """The JSON-RPC messages of one direction's bytes, in order (`Content-Length` framing)."""
    found = []
    while data:
        head, separator, rest = data.partition(b"\r\n\r\n")
        if not separator:
            break
        length = next(
            int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")
        )
        found.append(json.loads(rest[:length]))
        data = rest[length:]
    return found


def messages(record: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(what the editor sent, what the server sent)."""
    read = [Path(f"{record}.{side}") for side in ("client", "server")]
    return frames(read[0].read_bytes()), frames(read[1].read_bytes())


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: lsp_tap.py RECORD -- SERVER [ARGS...]")
    sys.exit(run(sys.argv[1], sys.argv[3:]))
