"""`check`'s security reading spread over two processes: a forked helper reads skill folders while this
process runs discovery, then both read what is left.

The security reading (every file of every skill) is most of what `check` spends on a workspace of skills,
and most machines `check` runs on have two cores or more. So before discovery, `check` lists the skill
folders (one `scandir` per root, as discovery's first step does) and forks. The folders are handed out
one at a time from a queue both processes share: a pipe holding each folder's number as 4 bytes, written
before the fork and closed for writing, so a read of 4 bytes takes the next folder for whichever process
reads it, and a short read means none is left. The helper starts taking folders at once; this process
joins once it has discovered and validated every skill. Neither waits for the other to take one, and
the work balances itself whatever discovery, the skills or the machine's other load cost.

What the helper reads is a cache of `scan_skill` results, never the source of truth:
- this process uses a helper's result only for a folder it would read itself, read at the same moment;
- any folder the helper did not deliver (it failed, it was killed, its result could not be decoded, the
  folder was not listed before discovery or did not fit in the queue) is read here, so the findings are
  those of the one-process reading, always;
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

from ..skills.core.codes import CODES
from ..skills.core.model import Diagnostic, Range, Related

# At least this many skill folders for the reading to be spread: a fork costs about a millisecond, and
# the reading about two thirds of one per skill.
MIN_FOLDERS_TO_SPREAD = 8
_NUMBER_BYTES = 4  # a folder's number in the queue (a pipe holds 16,384 of them on Linux; the rest are read here)

Scans = dict[str, tuple[Diagnostic, ...]]


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS says, else every core)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS has no affinity call
        return os.cpu_count() or 1


def _queue_of(count: int) -> int | None:
    """A pipe holding the numbers 0 .. count-1 (as many as it takes without waiting), closed for writing:
    its read end, or None if no pipe could be made."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        os.set_blocking(write_end, False)
        os.write(write_end, b"".join(number.to_bytes(_NUMBER_BYTES, "little") for number in range(count)))
    except BlockingIOError:  # not one number fits: the queue is empty, and this process reads every folder
        pass
    finally:
        os.close(write_end)
    return read_end


def _take(queue: int) -> int | None:
    """The next folder's number from the queue, or None once it is empty (or a number was cut short by a
    full pipe: that folder, like every one after it, is read by this process at the end)."""
    taken = os.read(queue, _NUMBER_BYTES)
    return int.from_bytes(taken, "little") if len(taken) == _NUMBER_BYTES else None


def received_diagnostic(sent: dict) -> Diagnostic:
    """The diagnostic whose `to_json` the helper sent, built by its registry entry (an unknown code raises)."""
    related = tuple(Related(item["path"], item["message"], Range.from_json(item["range"])) for item in sent["related"])
    where = Range.from_json(sent["range"])
    return CODES[sent["code"]].at(sent["path"], sent["message"], where, related, sent["severity"])


def _read_and_exit(listed: list[str], queue: int, out: int) -> None:
    """In the helper: read the folders it takes from the queue, send the findings, and leave without
    running anything else."""
    status = 1
    try:
        from ..skills.security import scan_skill

        found = {}
        while (number := _take(queue)) is not None:
            found[listed[number]] = [finding.to_json() for finding in scan_skill(listed[number])]
        data = marshal.dumps(found)
        with os.fdopen(out, "wb") as pipe:
            pipe.write(data)
        status = 0
    except BaseException:  # noqa: BLE001 - whatever went wrong, this process reads the folders itself
        pass
    os._exit(status)


class ReadingAhead:
    """A helper process taking folders of `listed` from the queue both processes share."""

    def __init__(self, pid: int, pipe: int, queue: int, listed: list[str]) -> None:
        self._pid = pid
        self._pipe: int | None = pipe
        self._queue: int | None = queue
        self.listed = listed

    @classmethod
    def start(cls, folders: Iterable[str]) -> ReadingAhead | None:
        """Fork a helper reading `folders` (absolute paths) from a shared queue; None where spreading is not
        worth it or not possible (the caller then reads every folder itself)."""
        listed = list(dict.fromkeys(folders))
        if not hasattr(os, "fork") or len(listed) < MIN_FOLDERS_TO_SPREAD or usable_cores() < 2:
            return None
        queue = _queue_of(len(listed))
        if queue is None:
            return None
        try:
            read_end, write_end = os.pipe()
        except OSError:
            os.close(queue)
            return None
        # the reading's modules, imported once here, before the fork: the helper inherits them instead of
        # importing them again (this process reads too, so it needs them anyway); the import is a share of
        # every `check` on a tree worth spreading (about 10 ms of each process's time)
        from ..skills.security import scan_skill  # noqa: F401

        try:
            pid = os.fork()
        except OSError:  # no process to spare: read alone
            for end in (queue, read_end, write_end):
                os.close(end)
            return None
        if pid == 0:
            os.close(read_end)
            _read_and_exit(listed, queue, write_end)
        os.close(write_end)
        return cls(pid, read_end, queue, listed)

    def scans(self, folders: list[str]) -> Scans:
        """The reading of every folder of `folders`: those this process takes from the queue while the
        helper takes others, then the helper's results, then whatever the helper did not deliver."""
        from ..skills.security import scan_skill

        found: Scans = {}
        wanted = set(folders)
        if self._queue is not None:
            while (number := _take(self._queue)) is not None:
                if self.listed[number] in wanted:  # listed before discovery, and no longer there: skipped
                    found[self.listed[number]] = scan_skill(self.listed[number])
            os.close(self._queue)
            self._queue = None
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
        for end in (self._pipe, self._queue):
            if end is not None:
                os.close(end)
        self._pipe = self._queue = None
        if self._pid:
            import signal

            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._wait()
