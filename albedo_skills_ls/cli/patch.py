"""Changes written as a patch `git apply` applies (`check --diff`, `rename --diff`).

git's own form, so a person can review the patch and apply it: each file under a `diff --git` header; a rename
as `rename from`/`rename to` (with its hunks when the renamed file is also edited); a symbolic link as a file of
mode 120000 whose one line, with no final newline, is where it points; paths quoted as git quotes them.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from .fixing import FileChange

LINK_MODE = "120000"  # git's mode for a symbolic link


def _hunks(before: str, after: str, old: str, new: str) -> str:
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), old, new)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def file_patch(shown: str, before: str, after: str, shown_new: str | None = None) -> str:
    """One file edited, renamed, or both: `shown` and `shown_new` are paths relative to the folder the patch
    is applied in."""
    old = git_path(f"a/{shown}")
    if shown_new is None or shown_new == shown:
        new = git_path(f"b/{shown}")
        return f"diff --git {old} {new}\n{_hunks(before, after, old, new)}"
    new = git_path(f"b/{shown_new}")
    header = (
        f"diff --git {old} {new}\n"
        f"{'similarity index 100%' if before == after else 'similarity index 90%'}\n"
        f"rename from {git_path(shown)}\nrename to {git_path(shown_new)}\n"
    )
    return header + (_hunks(before, after, old, new) if before != after else "")


def link_removed(shown: str, target: str) -> str:
    old = git_path(f"a/{shown}")
    return f"diff --git {old} {git_path(f'b/{shown}')}\ndeleted file mode {LINK_MODE}\n" + _hunks(target, "", old, "/dev/null")


def link_added(shown: str, target: str) -> str:
    new = git_path(f"b/{shown}")
    return f"diff --git {git_path(f'a/{shown}')} {new}\nnew file mode {LINK_MODE}\n" + _hunks("", target, "/dev/null", new)


def fix_patch(change: FileChange, shown: str, shown_new: str | None = None) -> str:
    """A fix of `check --fix` as a patch: an edit, or a rename (a `skill.md` that must be `SKILL.md`)."""
    if change.renamed_to is not None:
        assert shown_new is not None
        return file_patch(shown, "", "", shown_new)
    before = change.before.decode("utf-8", "surrogateescape")
    return file_patch(shown, before, change.after.decode("utf-8", "surrogateescape"))


# The characters git writes as C escapes inside a quoted path (git's quote_c_style); other bytes outside
# printable ASCII are written as octal escapes, as git does by default (core.quotePath).
_GIT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r"}


def git_path(path: str) -> str:
    """A path as git writes it in a patch: as is, or quoted with C escapes when it holds a quote, a backslash
    or a byte outside printable ASCII (bytes that are not UTF-8 keep their value)."""
    raw = path.encode("utf-8", "surrogateescape")
    if all(0x20 <= byte < 0x7F and byte not in b'"\\' for byte in raw):
        return path
    out = []
    for byte in raw:
        char = chr(byte)
        if char in _GIT_ESCAPES:
            out.append(_GIT_ESCAPES[char])
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'
