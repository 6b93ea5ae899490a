"""`check`'s security reading spread over two processes: a forked helper reads part of the skill folders
while this process runs discovery, then reads the rest.

The security reading (every file of every skill) is most of what `check` spends on a workspace of skills,
and the machines `check` runs on have two cores or more. So before discovery, `check` lists the skill
folders (one `scandir` per root, as discovery's first step does), forks, and the helper reads its share
of them while this process discovers and validates, then reads its own share. The helper's share is the
larger one (`_HELPER_SHARE`): this process has discovery to do first.

What the helper reads is a cache of `scan_skill` results, never the source of truth:
- this process uses a helper's result only for a folder it would read itself, read at the same moment;
- any folder the helper did not read (its listing differed, it failed, it was killed, its result could not
  be decoded) is read here, so the findings are those of the one-process reading, always;
- nothing is spread where `os.fork` is missing (Windows), on one core, for fewer than
  `MIN_FOLDERS_TO_SPREAD` folders, or when the files may change during the run (`--fix`).
The helper prints nothing and runs no exit handler (`os._exit`); its findings come back through a pipe this
process created for it, as `Diagnostic.to_json` dicts in `marshal`'s format (built in, so nothing is
imported for it; the data comes from a copy of this process's own memory, never from a skill).
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Iterable

from ..skills.codes import CODES
from ..skills.model import Diagnostic, Range, Related

# At least this many skill folders for the reading to be spread: a fork costs about a millisecond, and
# the reading about two thirds of one per skill.
MIN_FOLDERS_TO_SPREAD = 8
# The helper's share of the folders. This process discovers and validates every skill before reading its
# own share, about a third of what the whole reading costs (measured on the 128 generated skills of
# benchmarks/generate.py), so the helper takes about two thirds and both finish together.
_HELPER_SHARE = 0.65

Scans = dict[str, tuple[Diagnostic, ...]]


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS says, else every core)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS has no affinity call
        return os.cpu_count() or 1


def helper_share(folders: list[str]) -> frozenset[str]:
    """The helper's folders: every folder whose turn falls in `_HELPER_SHARE` of the list, spread along it
    (neighbours in a sorted list tend to be alike, so taking a block would give one process the big ones)."""
    ordered = sorted(folders)
    return frozenset(
        folder for index, folder in enumerate(ordered)
        if int((index + 1) * _HELPER_SHARE) > int(index * _HELPER_SHARE)
    )


def received_diagnostic(sent: dict) -> Diagnostic:
    """The diagnostic whose `to_json` the helper sent, built by its registry entry (an unknown code raises)."""
    related = tuple(Related(item["path"], item["message"], Range.from_json(item["range"])) for item in sent["related"])
    where = Range.from_json(sent["range"])
    return CODES[sent["code"]].at(sent["path"], sent["message"], where, related, sent["severity"])


def _read_and_exit(folders: frozenset[str], out: int) -> None:
    """In the helper: read its folders, send the findings, and leave without running anything else."""
    status = 1
    try:
        from ..skills.security import scan_skill

        data = marshal.dumps(
            {folder: [finding.to_json() for finding in scan_skill(folder)] for folder in sorted(folders)}
        )
        with os.fdopen(out, "wb") as pipe:
            pipe.write(data)
        status = 0
    except BaseException:  # noqa: BLE001 - whatever went wrong, this process reads the folders itself
        pass
    os._exit(status)


class ReadingAhead:
    """A helper process reading `theirs` (a share of the folders listed before discovery)."""

    def __init__(self, pid: int, pipe: int, theirs: frozenset[str]) -> None:
        self._pid = pid
        self._pipe: int | None = pipe
        self.theirs = theirs

    @classmethod
    def start(cls, folders: Iterable[str]) -> ReadingAhead | None:
        """Fork a helper reading its share of `folders` (absolute paths); None where spreading is not worth
        it or not possible (the caller then reads every folder itself)."""
        listed = list(dict.fromkeys(folders))
        if not hasattr(os, "fork") or len(listed) < MIN_FOLDERS_TO_SPREAD or usable_cores() < 2:
            return None
        theirs = helper_share(listed)
        try:
            read_end, write_end = os.pipe()
        except OSError:
            return None
        try:
            pid = os.fork()
        except OSError:  # no process to spare: read alone
            os.close(read_end)
            os.close(write_end)
            return None
        if pid == 0:
            os.close(read_end)
            _read_and_exit(theirs, write_end)
        os.close(write_end)
        return cls(pid, read_end, theirs)

    def scans(self, folders: list[str]) -> Scans:
        """The reading of every folder of `folders`: this process's share read here while the helper reads
        its own, then the helper's results, then whatever the helper did not read."""
        from ..skills.security import scan_skill

        found: Scans = {folder: scan_skill(folder) for folder in folders if folder not in self.theirs}
        theirs = self._collect()
        for folder in folders:
            if folder not in found:
                found[folder] = theirs[folder] if folder in theirs else scan_skill(folder)
        return found

    def _collect(self) -> Scans:
        """The helper's findings ({} if it failed), once it has exited."""
        if self._pipe is None:
            return {}
        chunks = []
        try:
            with os.fdopen(self._pipe, "rb") as pipe:
                self._pipe = None
                while chunk := pipe.read():
                    chunks.append(chunk)
        except OSError:
            return {}
        finally:
            status = self._wait()
        if status != 0:
            return {}
        try:
            sent = marshal.loads(b"".join(chunks))
            return {folder: tuple(map(received_diagnostic, found)) for folder, found in sent.items()}
        except Exception:  # noqa: BLE001 - a result cut short or not of this shape: read those folders here
            return {}

    def _wait(self) -> int | None:
        if self._pid == 0:
            return None
        try:
            _pid, status = os.waitpid(self._pid, 0)
        except ChildProcessError:
            return None
        finally:
            self._pid = 0
        return os.waitstatus_to_exitcode(status)

    def close(self) -> None:
        """Stop the helper if its results were never collected (the run ended early)."""
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if self._pid:
            import signal

            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._wait()
