"""Confinement re-established at request time (docs/design.md#8-trust-boundaries).

A catalog snapshot records where a skill folder *was*. Between discovery and a request the folder may have
been replaced by a link to anywhere (`/`, another user's files), and a client that does not watch files
never tells us. So every request that opens something beneath a skill asks again, at that moment:

1. does the skill folder still resolve strictly inside its discovery root? (`confined_folder`)
2. does the resource resolve inside the skill folder? (the caller's check on the resolved path)
3. is the file it opens the one that was checked? (`open_beneath`: opened one component at a time
   relative to directory descriptors, from the resolved discovery root down, each with O_NOFOLLOW, so no
   link swapped in after the check can redirect the open).
"""

from __future__ import annotations

import errno
import os
import stat

from ..core.errors import Refused
from ..core.paths import is_within, resolved_beneath

__all__ = ["confined_folder", "open_beneath"]

_RELOAD = "reload the catalog with skills.reload"

# O_PATH opens a folder for lookups only, so a folder with search (x) but no read (r) permission can still be
# passed through, exactly as a path-based open would; elsewhere a read-only folder open does the same job.
_DIRECTORY_FLAGS = (
    getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
)
# O_NONBLOCK: a FIFO swapped in after the stat opens without waiting for a writer (and fstat then refuses it).
_FILE_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


def confined_folder(skill_folder: str, discovery_root: str) -> tuple[str, str]:
    """(resolved discovery root, resolved skill folder), after checking that the skill folder still resolves
    strictly inside its discovery root; Refused otherwise, naming both and what to do. Whether the folder
    still exists is the caller's question (each says what is missing in its own terms)."""
    real_root = os.path.realpath(discovery_root)
    parent, name = os.path.split(skill_folder)
    if parent == discovery_root and name not in ("", ".", ".."):  # the usual case: one of the root's folders
        real = resolved_beneath(real_root, name)
    else:
        real = os.path.realpath(skill_folder)
    if real == real_root or not is_within(real, real_root):
        raise Refused(
            f"the skill folder {skill_folder} now resolves to {real}, outside its skills root {discovery_root}; "
            f"nothing outside a skills root is read: {_RELOAD}"
        )
    return real_root, real


def open_beneath(base: str, target: str, shown: str) -> int:
    """Open the regular file `target` for reading, walking down from the folder `base` one component at a time.

    Both are resolved paths and `target` lies beneath `base`. Every component is opened relative to the
    descriptor of the one before with O_NOFOLLOW: if any of them became a link after it was resolved, the
    open fails instead of following it, so the file opened is inside `base` whatever happened meanwhile.
    Returns the descriptor (the caller closes it); Refused when a component changed or cannot be opened.
    """
    rel = os.path.relpath(target, base)
    parts = rel.split("/")
    if rel.startswith("..") or "" in parts or "." in parts:
        raise Refused(f"the resource {shown} resolves outside the skill folder; only files inside it can be read")
    changed = f"the resource {shown} changed while it was being opened; read it again"
    try:
        folder = os.open(base, _DIRECTORY_FLAGS)
    except OSError as exc:
        raise Refused(f"the skills root {base} cannot be opened ({exc.strerror}); {_RELOAD}") from None
    try:
        for part in parts[:-1]:
            try:
                inner = os.open(part, _DIRECTORY_FLAGS, dir_fd=folder)
            except OSError as exc:
                raise Refused(f"{changed} ({exc.strerror})") from None
            os.close(folder)
            folder = inner
            if not stat.S_ISDIR(os.fstat(folder).st_mode):  # O_PATH|O_NOFOLLOW may hand back the link itself
                raise Refused(changed)
        try:
            return os.open(parts[-1], _FILE_FLAGS, dir_fd=folder)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # the file itself became a link
                raise Refused(changed) from None
            raise Refused(
                f"the resource {shown} cannot be opened ({exc.strerror}); list the resources with skills.resources"
            ) from None
    finally:
        os.close(folder)
