"""One `SKILL.md` read safely, and a candidate folder without one explained.

Files are opened only after `stat` says they are regular, and then with O_NONBLOCK, so a FIFO named
`SKILL.md` can never block a read; a linked `SKILL.md` must resolve inside its skill folder, and no more than
the size bound plus one byte is ever read. A folder with no `SKILL.md` is looked into (within a bound) for
the traps that hide real skills: the name in other letter case, or skills nested a level too deep.
"""

from __future__ import annotations

import os
import stat
from typing import NamedTuple

from ..core import codes, limits
from ..core.model import Diagnostic
from ..core.paths import resolves_within

SKILL_FILE = "SKILL.md"


def os_reason(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


_READ_CHUNK_BYTES = 64 * 1024  # what each further read asks for, when a file grew after fstat


def stored_as_named(path: str, link: os.stat_result) -> bool:
    """Whether the entry `os.lstat(path)` found (`link`) is stored under exactly the name `path` ends with.

    On a file system that ignores letter case (macOS, Windows), `folder/SKILL.md` also finds a `skill.md`;
    the agents list a folder's entries by exact name and would not load it, so the name as stored on disk
    decides here too (docs/design.md#3-discovery). On a case-sensitive system this costs one lstat that
    fails; only where another spelling reaches the same file is the folder listed.
    """
    folder, name = os.path.split(path)
    try:
        other = os.lstat(os.path.join(folder, name.swapcase()))  # `skill.MD`
    except OSError:
        return True  # the other spelling names nothing: names are exact here
    if (other.st_dev, other.st_ino) != (link.st_dev, link.st_ino):
        return True  # two files (a case-sensitive system): `path` named its own
    try:
        with os.scandir(folder) as entries:
            return any(entry.name == name for entry in entries)
    except OSError:
        return True


def read_skill_bytes(
    path: str, folder: str, link: os.stat_result | None = None
) -> tuple[bytes | None, os.stat_result | None, Diagnostic | None]:
    """Read one `SKILL.md` safely: never a FIFO, never outside `folder`, never more than the bound + 1.
    `link` is the path's `lstat` when the caller has just taken it (discovery does, for its cache).

    Returns (bytes, stat, None) or (None, stat-or-None, the diagnostic that explains why not).
    """
    if link is None:
        try:
            link = os.lstat(path)
        except FileNotFoundError:
            return None, None, codes.SKILL_FILE_MISSING.at(folder, missing_skill_file_message(folder))
        except OSError as exc:
            return None, None, unreadable(path, exc)
    if not stored_as_named(path, link):  # a `skill.md` found through a case-insensitive file system
        return None, None, codes.SKILL_FILE_MISSING.at(folder, missing_skill_file_message(folder))
    try:
        info = os.stat(path) if stat.S_ISLNK(link.st_mode) else link
        if stat.S_ISLNK(link.st_mode) and not resolves_within(path, folder):
            return None, info, codes.SKILL_FILE_NOT_REGULAR.at(
                path,
                f"{SKILL_FILE} is a link that resolves outside its skill folder: "
                "replace it with the file itself",
            )
    except FileNotFoundError:
        return None, None, codes.SKILL_FILE_NOT_REGULAR.at(
            path,
            f"{SKILL_FILE} is a broken link: point it at a file or replace it",
        )
    except OSError as exc:
        return None, None, unreadable(path, exc)
    if not stat.S_ISREG(info.st_mode):
        return None, info, _not_regular(path, info)
    if info.st_size > limits.MAX_SKILL_FILE_BYTES:
        return None, info, _too_large(path, info.st_size)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        return None, info, unreadable(path, exc)
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # swapped between stat and open
            return None, opened, _not_regular(path, opened)
        chunks = []
        remaining = limits.MAX_SKILL_FILE_BYTES + 1
        # Ask for the size fstat gave (plus one, to see growth) rather than the whole bound: os.read
        # allocates what it is asked for, and a 1 MiB buffer per file cost more than the rest of the read.
        want = min(remaining, opened.st_size + 1)
        while remaining > 0:
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
            want = min(remaining, _READ_CHUNK_BYTES)
        data = b"".join(chunks)
    except OSError as exc:
        return None, info, unreadable(path, exc)
    finally:
        os.close(fd)
    if len(data) > limits.MAX_SKILL_FILE_BYTES:  # grew after stat
        return None, info, _too_large(path, len(data))
    return data, opened, None


def missing_skill_file_message(folder: str) -> str:
    """Why a candidate folder has no `SKILL.md`, with the fix, for the traps that hide real skills
    (docs/design.md#7-what-real-skills-taught): the file named in other letter case, or skills nested a level too deep."""
    name = os.path.basename(folder)
    found = traps(folder)
    if found.wrong_case is not None:
        return (
            f"`{name}` has `{found.wrong_case}` but no `{SKILL_FILE}`: the name is case-sensitive; "
            f"rename it to `{SKILL_FILE}`"
        )
    if found.nested:
        shown = ", ".join(f"`{path}`" for path in found.nested[: limits.MAX_NESTED_NAMED])
        hidden = len(found.nested) - limits.MAX_NESTED_NAMED
        more = f" and {hidden} more" if hidden > 0 else ""
        if found.truncated:
            more += f", perhaps others (the search stops after {limits.MAX_NESTED_SCAN_ENTRIES} entries)"
        return (
            f"`{name}` has no {SKILL_FILE} but holds skills in subfolders ({shown}{more}): skills must be "
            "immediate children of the skills root; move each skill folder up into the root"
        )
    return (
        f"`{name}` has no {SKILL_FILE}: add one with `name` and `description` frontmatter, or move the folder "
        "out of the skills root"
    )


class Traps(NamedTuple):
    """What a folder without `SKILL.md` holds instead: `wrong_case` the name of a `skill.md` in other letter
    case, `nested` the relative paths of skill folders below it (sorted), `truncated` when the bound on
    entries read stopped the search."""

    wrong_case: str | None
    nested: tuple[str, ...]
    truncated: bool


def traps(folder: str) -> Traps:
    """Look inside a candidate folder with no `SKILL.md`: its entries, and those of its subfolders that
    hold no `SKILL.md` themselves (a plugin bundles skills as `plugin/skills/x/SKILL.md`). At most
    limits.MAX_NESTED_SCAN_ENTRIES directory entries are read in all; links are not followed."""
    budget = [limits.MAX_NESTED_SCAN_ENTRIES]
    entries, truncated = _listing(folder, budget)
    wrong_case = next((e.name for e in entries if e.name.lower() == SKILL_FILE.lower() and _is_file(e)), None)
    nested: list[str] = []
    for child in entries:
        if not _is_folder(child):
            continue
        if os.path.lexists(os.path.join(child.path, SKILL_FILE)):
            nested.append(child.name)
            continue
        grandchildren, cut = _listing(child.path, budget)
        truncated = truncated or cut
        nested += [
            f"{child.name}/{grandchild.name}"
            for grandchild in grandchildren
            if _is_folder(grandchild) and os.path.lexists(os.path.join(grandchild.path, SKILL_FILE))
        ]
    return Traps(wrong_case, tuple(nested), truncated)


def _listing(folder: str, budget: list[int]) -> tuple[list[os.DirEntry[str]], bool]:
    """The visible entries of `folder`, sorted by name, reading at most `budget[0]` entries (spent from
    the shared budget); True when the folder held more."""
    found: list[os.DirEntry[str]] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if budget[0] == 0:
                    return sorted(found, key=lambda e: e.name), True
                budget[0] -= 1
                if not entry.name.startswith("."):
                    found.append(entry)
    except OSError:
        pass
    return sorted(found, key=lambda e: e.name), False


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def read_skill_text(path: str) -> str | None:
    """A `SKILL.md`'s text (BOM skipped), read as safely as discovery reads it; None when it cannot be read
    or is not UTF-8. For features that need a file's text quietly (positions, a winner's range)."""
    from .frontmatter import decode

    data, _info, _problem = read_skill_bytes(path, os.path.dirname(path))
    return decode(data, path)[0] if data is not None else None


def unreadable(path: str, exc: OSError) -> Diagnostic:
    return codes.UNREADABLE.at(
        path,
        f"cannot read {path}: {os_reason(exc)}; check its permissions",
    )


def _not_regular(path: str, info: os.stat_result) -> Diagnostic:
    kind = (
        "a folder"
        if stat.S_ISDIR(info.st_mode)
        else "a FIFO"
        if stat.S_ISFIFO(info.st_mode)
        else "a device or socket"
    )
    return codes.SKILL_FILE_NOT_REGULAR.at(
        path,
        f"{SKILL_FILE} is {kind}, not a regular file: replace it with a file",
    )


def _too_large(path: str, size: int) -> Diagnostic:
    return codes.SKILL_FILE_TOO_LARGE.at(
        path,
        f"{SKILL_FILE} is {size:,} bytes, over the {limits.MAX_SKILL_FILE_BYTES:,}-byte limit: "
        "move long material into files under references/",
    )
