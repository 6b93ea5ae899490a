"""The real editor plugins the chat and plugin-manager tests drive, at pinned commits.

`plugin_dir(name)` returns a folder holding the plugin at the commit pinned in `pinned_plugins.tsv`. It is
extracted once into a cache outside the clone (so a later clone anywhere on the machine, CI included, finds it
offline) from the first source that has it:

1. the cache itself (`~/.cache/albedo-skills-ls/test-deps/NAME-COMMIT12/NAME`);
2. the tarball `NAME-COMMIT12.tar.gz` in `$ALBEDO_TEST_DEPS`, or in `shared/test-deps` in the folder that holds
   the clone (where the development machine keeps its offline copies),
   accepted only when its sha256 is the pinned one;
3. a clone of the plugin's repository, checked out at the pinned commit (needs the network).

A plugin that none of them has fails the test with what to do; it never skips. From a shell,
`python tests/clients/pinned.py NAME` prints the folder.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
PINS = Path(__file__).with_name("pinned_plugins.tsv")
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "albedo-skills-ls" / "test-deps"
SHORT = 12  # the tarballs and cache folders are named by the commit's first 12 hex digits


class Pin(NamedTuple):
    name: str
    repository: str
    commit: str
    sha256: str

    @property
    def stem(self) -> str:
        return f"{self.name}-{self.commit[:SHORT]}"


class PinnedPluginMissing(RuntimeError):
    pass


def pins() -> dict[str, Pin]:
    rows = (line.split("\t") for line in PINS.read_text(encoding="utf-8").splitlines())
    return {row[0]: Pin(*row) for row in rows if row and not row[0].startswith("#")}


def tarball_folders() -> list[Path]:
    folders = [Path(p) for p in os.environ.get("ALBEDO_TEST_DEPS", "").split(os.pathsep) if p]
    return [*folders, REPO.parent / "shared" / "test-deps"]


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _extract(pin: Pin, tarball: Path, into: Path) -> None:
    with tarfile.open(tarball) as archive:  # `git archive --prefix=NAME/`: one top folder, NAME
        if hasattr(tarfile, "data_filter"):
            archive.extractall(into, filter="data")
        else:  # extraction filters came in Python 3.11.4 (Debian 12 has 3.11.2); the pinned sha256 vouches for it
            archive.extractall(into)
    if not (into / pin.name).is_dir():
        raise PinnedPluginMissing(f"{tarball} does not hold a top folder {pin.name}/")


def _clone(pin: Pin, into: Path) -> None:
    target = into / pin.name
    run = lambda *args: subprocess.run(args, check=True, capture_output=True, text=True)  # noqa: E731
    run("git", "init", "-q", str(target))
    run("git", "-C", str(target), "fetch", "-q", "--depth=1", pin.repository, pin.commit)
    run("git", "-C", str(target), "checkout", "-q", pin.commit)
    shutil.rmtree(target / ".git")


def plugin_dir(name: str) -> Path:
    pin = pins().get(name)
    if pin is None:
        raise PinnedPluginMissing(f"{name} is not pinned in {PINS}")
    done = CACHE / pin.stem / pin.name
    if done.is_dir():
        return done
    CACHE.mkdir(parents=True, exist_ok=True)
    # Extract beside the cache and rename into place, so a half-written folder is never taken for a done one.
    scratch = Path(tempfile.mkdtemp(prefix=f".{pin.stem}-", dir=CACHE))
    try:
        tried = []
        for folder in tarball_folders():
            tarball = folder / f"{pin.stem}.tar.gz"
            if not tarball.is_file():
                tried.append(f"no {tarball}")
            elif (found := sha256(tarball)) != pin.sha256:
                tried.append(f"{tarball} has sha256 {found}, not the pinned {pin.sha256}")
            else:
                _extract(pin, tarball, scratch)
                break
        else:
            try:
                _clone(pin, scratch)
            except (OSError, subprocess.CalledProcessError) as error:
                detail = getattr(error, "stderr", "") or error
                tried.append(f"cloning {pin.repository} at {pin.commit} failed: {str(detail).strip()}")
                raise PinnedPluginMissing(
                    f"{name} at {pin.commit} is in none of its sources ({'; '.join(tried)}). Put the tarball "
                    "in a folder named by ALBEDO_TEST_DEPS, or run the tests with network access."
                ) from None
        try:
            scratch.rename(CACHE / pin.stem)
            scratch = None
        except OSError:
            pass  # another process put it in place first: theirs is the same commit
        return done
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} NAME   (one of: {', '.join(pins())})")
    print(plugin_dir(sys.argv[1]))
