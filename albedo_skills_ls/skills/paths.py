"""Path containment, the one test every "does this stay inside the skill (root, folder, workspace)" asks."""

from __future__ import annotations

import os


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
