"""What the server loads before it can answer `initialize` (the goal: start to `initialize` within 1.05× a
minimal pygls server): no argument parser for the command lines editors use, no OpenSSL for a push client.
The times themselves are benchmarks/start.py's; these tests keep the modules out."""

from __future__ import annotations

import subprocess
import sys

import pytest

from albedo_skills_ls.lsp.main import EDITOR_COMMAND_LINES, build_parser, parse_args

# loaded only for what editors' start never asks for: parsing options, hashing pulled diagnostics
NOT_BEFORE_INITIALIZE = ("argparse", "shutil", "lzma", "bz2", "gettext", "hashlib")


def modules_imported_by_a_start(*words: str) -> set[str]:
    """Every module `python -m albedo_skills_ls WORDS` imports before it reads its first message: with
    stdin at its end, the server stops at that first read."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "albedo_skills_ls", *words],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [line for line in done.stderr.splitlines() if line.startswith("import time:") and "cumulative" not in line]
    return {line.rpartition("|")[2].strip() for line in lines}


@pytest.mark.parametrize("words", EDITOR_COMMAND_LINES)
def test_an_editors_start_imports_no_parser_and_no_hashing(words):
    imported = modules_imported_by_a_start(*words)
    assert "albedo_skills_ls.lsp.app" in imported  # the server was built: the list is the real one
    assert not imported & set(NOT_BEFORE_INITIALIZE), sorted(imported & set(NOT_BEFORE_INITIALIZE))


@pytest.mark.parametrize("words", EDITOR_COMMAND_LINES)
def test_the_editors_command_lines_mean_what_argparse_says(words):
    assert vars(parse_args(list(words))) == vars(build_parser().parse_args(list(words)))


def test_any_other_command_line_goes_through_argparse():
    assert vars(parse_args(["--stdio", "-vv", "--log-file", "x.log"])) == {
        "stdio": True, "tcp": None, "log_file": "x.log", "verbose": 2,
    }
    with pytest.raises(SystemExit) as raised:
        parse_args(["--no-such-option"])
    assert raised.value.code == 2
