"""`file:` URIs and paths, for POSIX and Windows forms alike, in plain Python (no pygls).

One place converts between the two, and it takes the platform as an argument (`windows`, the running
system's by default), so the Windows forms are unit-tested on any machine (docs/design.md#11-portability):

- a drive letter arrives as `file:///c%3A/...` (VS Code) or `file:///C:/...` (Neovim, Emacs); both become
  `c:\\...`: the drive letter lower-cased, as VS Code and pygls write it, so two spellings of one file are one
  path (and one session, one published file);
- backslashes are separators on Windows (and ordinary name characters on POSIX);
- a UNC path `\\\\server\\share\\x` is `file://server/share/x`;
- spaces and other reserved characters are percent-encoded, and decoded back;
- a POSIX name that is not UTF-8 (surrogate escapes in Python) is percent-encoded from its real bytes and
  decoded back to the same name.
"""

from __future__ import annotations

import ntpath
import os
import posixpath
from urllib.parse import quote, unquote, unquote_to_bytes, urlsplit

IS_WINDOWS = os.name == "nt"


def _drive_path(path: str) -> bool:
    """`/c:` or `/C:` at the start of a URI path (a Windows drive)."""
    return len(path) >= 3 and path[0] == "/" and path[1].isascii() and path[1].isalpha() and path[2] == ":"


def path_to_uri(path: str, windows: bool = IS_WINDOWS) -> str:
    """The `file:` URI of an absolute path."""
    netloc = ""
    if windows:
        path = path.replace("\\", "/")
        if path.startswith("//"):  # UNC: \\server\share\x
            netloc, _, rest = path[2:].partition("/")
            path = "/" + rest
        if not path.startswith("/"):
            path = "/" + path
        if _drive_path(path):
            path = "/" + path[1].lower() + path[2:]
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        # A name that is not UTF-8 reaches us as surrogate escapes: percent-encode the file's real bytes
        # (`bad\xff` -> `bad%FF`), which `uri_to_path` turns back into the same path.
        return "file://" + quote(os.fsencode(path))
    if _drive_path(path):  # the drive's colon stays as it is (`file:///c:/x`), as pygls writes it
        quoted = path[:3] + quote(path[3:])
    else:
        quoted = quote(path)
    return f"file://{quote(netloc)}{quoted}"


def uri_to_path(uri: str, windows: bool = IS_WINDOWS) -> str | None:
    """The absolute, normalised path of a `file:` URI, or None for other schemes (`untitled:`...)."""
    if not uri.startswith("file:"):
        return None
    parts = urlsplit(uri)
    raw = unquote_to_bytes(parts.path)
    try:
        path = raw.decode("utf-8")
    except UnicodeDecodeError:  # percent-encoded bytes that are not UTF-8: a name as the file system has it
        path = os.fsdecode(raw)
    netloc = unquote(parts.netloc)
    if netloc and path:
        path = f"//{netloc}{path}"  # a UNC path (on POSIX, a path that starts with two slashes)
    elif _drive_path(path):
        path = path[1].lower() + path[2:]
    if windows:
        return ntpath.normpath(path.replace("/", "\\"))
    return posixpath.normpath(path)
