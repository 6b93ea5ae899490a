"""What `skills.resources` (listing.py) and `skills.read` (paging.py) share: the skill folder
re-confined at each request, the checks of their arguments, and the words for a file that is not a regular
one. The rules both follow:

Both functions take the skill's folder (the directory holding its `SKILL.md`) and its discovery root from
the caller, which has already looked the skill up in the catalog; neither trusts that lookup as proof of a
path (docs/design.md#8-trust-boundaries, confinement.py). Everything here is plain Python: stat, lstat, scandir and one
read of one regular file. Nothing is executed, imported, fetched or written (docs/design.md#5-commands).

Safety rules shared by both functions:
- At every request the skill folder is resolved with `os.path.realpath` and must lie strictly inside its
  resolved discovery root; "inside the skill" always means inside that resolved folder. Each folder the
  listing walks is re-resolved just before it is scanned, and a read opens its file from the resolved
  root down without following links.
- A link may point anywhere inside the skill folder. A link that resolves outside it is never followed:
  listing reports it (`symlink-escape`), reading refuses it.
- Only regular files are resources. FIFOs, sockets and devices are reported, never opened.
"""

from __future__ import annotations

import os
import stat

from .confinement import confined_folder
from ..core.errors import InvalidArguments, Refused


def require_str(what: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidArguments(f"{what} must be a string, not {type(value).__name__}")
    return value


def require_count(what: str, value: object) -> int:
    # bool is an int subclass; `offset=True` is a caller bug, not the offset 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArguments(f"{what} must be a whole number of bytes, not {type(value).__name__}")
    if value < 0:
        raise InvalidArguments(f"{what} must be 0 or more, not {value}")
    return value


def file_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def printable(name: str) -> str:
    """A file name that may hold undecodable bytes (surrogate escapes), made safe for JSON."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def resolve_skill_folder(skill_root: str, discovery_root: str) -> tuple[str, str]:
    """(resolved discovery root, resolved skill folder), the folder re-confined inside the root now."""
    require_str("skill_root", skill_root)
    real_root, root = confined_folder(skill_root, require_str("discovery_root", discovery_root))
    try:
        st = os.stat(root)
    except OSError as exc:
        raise Refused(
            f"the skill folder {root} cannot be opened ({exc.strerror}); reload the catalog with skills.reload"
        ) from None
    if not stat.S_ISDIR(st.st_mode):
        raise Refused(f"the skill folder {root} is not a folder any more; reload the catalog with skills.reload")
    return real_root, root
