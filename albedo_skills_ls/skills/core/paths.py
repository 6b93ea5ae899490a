"""Path containment, the one test every "does this stay inside the skill (root, folder, workspace)" asks."""

from __future__ import annotations

import os
import stat


def is_within(path: str, folder: str) -> bool:
    """Whether `path` is `folder` itself or lies beneath it, comparing the spellings as given.

    Both must already be in the same form (both resolved with `os.path.realpath`, or both normalised):
    `/a/bc` is not within `/a/b`, and a folder of `/` holds every absolute path.
    """
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def resolves_within(path: str, folder: str) -> bool:
    """Whether `path`, with every link resolved, is `folder` (also resolved) or lies beneath it."""
    return is_within(os.path.realpath(path), os.path.realpath(folder))


def child(folder: str, name: str) -> str:
    """`os.path.join(folder, name)` for a plain entry name (no `/`), without its checks: discovery and
    reference walks join once per skill and component on every reload."""
    return folder + name if folder.endswith("/") else f"{folder}/{name}"


def resolved_beneath(folder: str, rel: str) -> str:
    """`os.path.realpath` of `rel` (entry names joined by `/`, no `.` or `..`) beneath `folder`, a path
    already resolved. Where no component of `rel` is a link, that is the path as joined: one `lstat` per
    component of `rel`, where realpath takes one per component from the file system root (most of what
    listing a skill's files cost). A component that is a link, or cannot be examined, gets realpath's
    own answer."""
    path = folder
    for name in rel.split("/") if rel else ():
        path = child(path, name)
        try:
            if stat.S_ISLNK(os.lstat(path).st_mode):
                return os.path.realpath(child(folder, rel))
        except OSError:
            return os.path.realpath(child(folder, rel))
    return path
