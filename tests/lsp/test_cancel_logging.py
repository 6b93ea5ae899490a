"""Cancelled requests are normal editor traffic: the server logs them at debug, never as warnings.

pygls logs a `$/cancelRequest` for a request that was already answered as a warning; editors send those while
the user types, and each one used to land in VS Code's output channel. The server runs here as a real
process over stdio, so the records go through the logging set up by `main()`.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

EXIT_TIMEOUT_S = 60


def frame(message: dict) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def run_session(tmp_path, *flags: str) -> str:
    """initialize, a cancel for a request that never was (as for one already answered), shutdown, exit."""
    messages = [
        {"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}},
        {"method": "initialized", "params": {}},
        {"method": "$/cancelRequest", "params": {"id": 1}},
        {"method": "$/cancelRequest", "params": {"id": 4242}},
        {"id": 2, "method": "shutdown"},
        {"method": "exit"},
    ]
    result = subprocess.run(
        [sys.executable, "-m", "albedo_skills_ls", *flags],
        input=b"".join(frame(message) for message in messages),
        capture_output=True,
        timeout=EXIT_TIMEOUT_S,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert b'"id": 2' in result.stdout or b'"id":2' in result.stdout, result.stderr
    return result.stderr.decode("utf-8", "replace")


@pytest.mark.parametrize("flags", [(), ("-v",)])
def test_cancels_are_not_logged_as_warnings_or_information(tmp_path, flags):
    stderr = run_session(tmp_path, *flags)
    assert "Cancel notification for unknown message id" not in stderr
    assert "WARNING" not in stderr, stderr


def test_cancels_are_logged_at_debug(tmp_path):
    stderr = run_session(tmp_path, "-vv")
    lines = [line for line in stderr.splitlines() if "Cancel notification for unknown message id" in line]
    assert lines, stderr
    assert all(" DEBUG pygls.protocol.json_rpc: " in line for line in lines), lines
