"""`--tcp HOST:PORT`: bracketed IPv6 accepted; anything else impossible is one clear line
on stderr and exit 2, never a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from albedo_skills_ls.lsp.main import MAX_PORT, parse_address

from .guard import HANG_GUARD_SECONDS


def run(address: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "albedo_skills_ls", "--tcp", address],
        capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    "address, says",
    [
        (f"127.0.0.1:{MAX_PORT + 1}", "port"),
        ("256.0.0.1:2087", "not an IPv4 address"),
        ("::1:2087", "between brackets"),
        ("[not-v6]:2087", "not an IPv6 address"),
        ("127.0.0.1:", "port"),
        ("no-port", "HOST:PORT"),
        ("nosuch.invalid:2087", "cannot listen on nosuch.invalid:2087"),
    ],
)
def test_an_impossible_address_is_one_clear_line_and_exit_2(address, says):
    finished = run(address)
    assert finished.returncode == 2
    assert "Traceback" not in finished.stderr
    assert len(finished.stderr.strip().splitlines()) == 1, finished.stderr
    assert says in finished.stderr


def test_address_forms_parse():
    assert parse_address("[::1]:2087") == ("::1", 2087)
    assert parse_address("127.0.0.1:0") == ("127.0.0.1", 0)
    assert parse_address(f"localhost:{MAX_PORT}") == ("localhost", MAX_PORT)
    with pytest.raises(ValueError, match="port"):
        parse_address(f"localhost:{MAX_PORT + 1}")


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


def test_a_bracketed_ipv6_address_is_served():
    if not _ipv6_loopback():
        # The parse is tested above; serving needs an IPv6 loopback, which this machine lacks.
        assert parse_address("[::1]:0") == ("::1", 0)
        return
    process = subprocess.Popen(
        [sys.executable, "-m", "albedo_skills_ls", "--tcp", "[::1]:0", "-v"],
        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
    )
    try:
        assert process.stderr is not None
        for line in process.stderr:
            if "Serving on" in line:
                assert "'::1'" in line
                break
        else:
            raise AssertionError("the server exited before listening")
    finally:
        process.kill()
        process.wait()
