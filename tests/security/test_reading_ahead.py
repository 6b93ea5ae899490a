"""`check`'s security reading spread over two processes (cli/reading_ahead.py): the findings are the
one-process reading's, whatever the helper does, and the helper really takes folders."""

from __future__ import annotations

import marshal
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from albedo_skills_ls.cli import reading_ahead
from albedo_skills_ls.cli.reading_ahead import MIN_FOLDERS_TO_SPREAD, ReadingAhead, received_diagnostic
from albedo_skills_ls.cli.verbs.check import start_reading_ahead
from albedo_skills_ls.skills import security

from .corpus import BENIGN, DANGEROUS, write_skill

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the reading is spread only where os.fork exists")

HANG_GUARD_SECONDS = 120


@pytest.fixture
def corpus_workspace(tmp_path: Path) -> tuple[Path, list[str]]:
    """A workspace holding every skill of the security corpus (dangerous and benign) in `.agents/skills`."""
    root = tmp_path / "ws" / ".agents" / "skills"
    for name, (files, _expected) in DANGEROUS.items():
        write_skill(root, name, files)
    for name, files in BENIGN.items():
        write_skill(root, name, files)
    (tmp_path / "home").mkdir()
    return tmp_path / "ws", sorted(str(folder) for folder in root.iterdir())


def record_parent_reads(monkeypatch, pause: float = 0.0) -> list[str]:
    """Patch `scan_skill` in this process only (a helper already forked keeps its own copy): what this
    process reads from now on, each read `pause` seconds slower (so that the helper surely takes some)."""
    read: list[str] = []
    scan = security.scan_skill

    def scan_here(folder):
        read.append(folder)
        time.sleep(pause)
        return scan(folder)

    monkeypatch.setattr(security, "scan_skill", scan_here)
    return read


def test_both_processes_take_folders_and_the_findings_are_the_one_process_readings(corpus_workspace, monkeypatch):
    _ws, folders = corpus_workspace
    expected = {folder: security.scan_skill(folder) for folder in folders}
    assert sum(map(len, expected.values())) > 20  # the corpus gives findings: the comparison compares something
    ahead = ReadingAhead.start(folders)
    assert ahead is not None
    read_here = record_parent_reads(monkeypatch, pause=0.02)
    assert ahead.scans(folders) == expected
    assert len(set(read_here)) == len(read_here)  # nothing read twice here
    assert 0 < len(read_here) < len(folders)  # the helper delivered the rest, not read again here


def test_the_helper_takes_every_folder_while_this_process_is_busy(corpus_workspace, monkeypatch):
    """While discovery runs here, the helper takes folders; if it finishes first, nothing is left here."""
    _ws, folders = corpus_workspace
    expected = {folder: security.scan_skill(folder) for folder in folders}
    ahead = ReadingAhead.start(folders)
    assert ahead is not None
    # the helper writes its findings once it has taken and read every folder: wait for that, not a clock
    assert select.select([ahead._pipe], [], [], HANG_GUARD_SECONDS)[0], "the helper sent nothing"
    read_here = record_parent_reads(monkeypatch)
    assert ahead.scans(folders) == expected
    assert read_here == []


def test_a_helper_stopped_early_leaves_every_folder_to_this_process(corpus_workspace, monkeypatch):
    _ws, folders = corpus_workspace
    expected = {folder: security.scan_skill(folder) for folder in folders}
    ahead = ReadingAhead.start(folders)
    assert ahead is not None
    ahead.close()  # killed before its findings were collected
    read_here = record_parent_reads(monkeypatch)
    assert ahead.scans(folders) == expected
    assert sorted(read_here) == folders


def test_a_helper_whose_findings_cannot_be_decoded_leaves_them_to_this_process(corpus_workspace, monkeypatch):
    _ws, folders = corpus_workspace
    expected = {folder: security.scan_skill(folder) for folder in folders}
    monkeypatch.setattr(reading_ahead.marshal, "dumps", lambda _value: b"\x00not marshal data")  # in the helper
    ahead = ReadingAhead.start(folders)
    assert ahead is not None
    monkeypatch.setattr(reading_ahead.marshal, "dumps", marshal.dumps)
    read_here = record_parent_reads(monkeypatch)
    assert ahead.scans(folders) == expected
    assert sorted(read_here) == folders


def test_folders_the_helper_did_not_list_are_read_here(corpus_workspace, monkeypatch):
    """Discovery may find a folder the listing before it did not (one created meanwhile): read here."""
    _ws, folders = corpus_workspace
    listed, late = folders[:-3], folders[-3:]
    ahead = ReadingAhead.start(listed)
    assert ahead is not None
    read_here = record_parent_reads(monkeypatch)
    found = ahead.scans(folders)
    assert found == {folder: security.scan_skill(folder) for folder in folders}
    assert set(late) <= set(read_here)


def test_the_queue_hands_out_what_fits_in_a_pipe_and_then_says_none_is_left():
    """Numbers past what the pipe holds are not queued (this process reads those folders at the end)."""
    count = 100_000  # 400,000 bytes: more than any pipe holds without a reader
    queue = reading_ahead._queue_of(count)
    assert queue is not None
    taken = []
    while (number := reading_ahead._take(queue)) is not None:
        taken.append(number)
    os.close(queue)
    assert 0 < len(taken) < count and taken == list(range(len(taken)))


def test_folders_left_out_of_a_full_queue_are_read_here(corpus_workspace, monkeypatch):
    _ws, folders = corpus_workspace
    expected = {folder: security.scan_skill(folder) for folder in folders}
    queue_of = reading_ahead._queue_of
    monkeypatch.setattr(reading_ahead, "_queue_of", lambda count: queue_of(3))  # as if the pipe held three
    ahead = ReadingAhead.start(folders)
    assert ahead is not None
    read_here = record_parent_reads(monkeypatch)
    assert ahead.scans(folders) == expected
    assert set(folders[3:]) <= set(read_here)


def test_the_reading_is_spread_from_the_bound_on(corpus_workspace):
    _ws, folders = corpus_workspace
    assert len(folders) > MIN_FOLDERS_TO_SPREAD
    assert ReadingAhead.start(folders[: MIN_FOLDERS_TO_SPREAD - 1]) is None
    at_bound = ReadingAhead.start(folders[:MIN_FOLDERS_TO_SPREAD])
    assert at_bound is not None
    at_bound.close()


def test_nothing_is_spread_on_one_core_or_without_fork(corpus_workspace, monkeypatch):
    _ws, folders = corpus_workspace
    monkeypatch.setattr(reading_ahead, "usable_cores", lambda: 1)
    assert ReadingAhead.start(folders) is None
    monkeypatch.undo()
    monkeypatch.delattr(os, "fork")
    assert ReadingAhead.start(folders) is None


@pytest.mark.parametrize("option", [["--fix"], ["--diff"], ["--disable", "security"], ["--disable", "x,security"]])
def test_no_helper_when_the_files_may_change_or_nothing_is_read(corpus_workspace, monkeypatch, option):
    ws, _folders = corpus_workspace
    from albedo_skills_ls.cli.options import build_parser
    from albedo_skills_ls.cli.targets import check_target

    argv = ["check", str(ws), "--no-user-roots", *option]
    args = build_parser(argv).parse_args(argv)
    monkeypatch.setattr(ReadingAhead, "start", classmethod(lambda cls, folders: pytest.fail("forked")))
    assert start_reading_ahead(check_target(args), args) is None


def test_findings_cross_the_pipe_unchanged(corpus_workspace):
    """What the helper sends (`to_json` in marshal's format) comes back as the same diagnostics."""
    _ws, folders = corpus_workspace
    every = [finding for folder in folders for finding in security.scan_skill(folder)]
    assert any(finding.related for finding in every)  # the pair finding points at its read
    assert [received_diagnostic(sent) for sent in marshal.loads(marshal.dumps([d.to_json() for d in every]))] == every


def run_check(ws: Path, one_core: bool) -> subprocess.CompletedProcess:
    """`albedo-skills check WS` as a person runs it; `one_core` confines it to one core (no helper)."""
    env = dict(os.environ, HOME=str(ws.parent / "home"))
    return subprocess.run(
        [sys.executable, "-m", "albedo_skills_ls.cli", "check", str(ws), "--format", "json"],
        capture_output=True, cwd=ws, env=env, timeout=HANG_GUARD_SECONDS,
        preexec_fn=(lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})) if one_core else None,
    )


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs two cores to compare with one")
def test_check_reports_the_same_on_one_core_and_on_two(corpus_workspace):
    ws, _folders = corpus_workspace
    alone, spread = run_check(ws, one_core=True), run_check(ws, one_core=False)
    assert alone.returncode == spread.returncode == 0, (alone.stderr, spread.stderr)
    assert b"security-fetch-and-run" in spread.stdout
    assert spread.stdout == alone.stdout and spread.stderr == alone.stderr
