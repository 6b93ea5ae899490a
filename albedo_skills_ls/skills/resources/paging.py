"""`skills.read`: one page of one regular file beneath a skill's folder, opened without following links.

The safety rules are folder.py's; how a page is cut (UTF-8 on a character boundary, else base64) is
`read_resource`'s docstring.
"""

from __future__ import annotations

import base64
import codecs
import errno
import os
import stat
from typing import Any

from ..core import programs
from .confinement import open_beneath
from ..core.errors import InvalidArguments, Refused
from ..core.limits import DEFAULT_READ_LIMIT, MAX_ENCODING_VERDICTS, MAX_READ_LIMIT, MAX_RESOURCE_BYTES
from ..core.paths import is_within
from .folder import file_kind, require_count, require_str, resolve_skill_folder

# The bytes read from the OS per read() call when loading a resource; only a buffer size, not a bound.
_READ_CHUNK = 1024 * 1024

_DRIVE = programs.compile(r"[A-Za-z]:")
_EXAMPLE = "use a path relative to the skill folder, such as SKILL.md or references/x.md"


def _normalize(resource: str) -> str:
    """Refuse every traversal form, then drop empty and `.` segments: `./a//b.md` -> `a/b.md`."""
    if resource == "":
        raise Refused(f"the resource path is empty; {_EXAMPLE}")
    try:
        # A name that is not UTF-8 arrives from a command line as surrogate escapes and still names its file;
        # any other lone surrogate names nothing (the server refuses both before this: docs/design.md#8-trust-boundaries).
        os.fsencode(resource)
    except UnicodeEncodeError as exc:
        raise InvalidArguments(
            f"the resource path is not valid Unicode (a lone surrogate at character {exc.start}); send UTF-8 text"
        ) from None
    if "\0" in resource:
        raise Refused(f"the resource path {resource!r} contains a NUL byte; {_EXAMPLE}")
    if "\\" in resource:
        raise Refused(f"the resource path {resource!r} contains a backslash; separate folders with '/'; {_EXAMPLE}")
    if resource.startswith("/"):
        raise Refused(f"the resource path {resource!r} is absolute; {_EXAMPLE}")
    if _DRIVE.match(resource):
        raise Refused(f"the resource path {resource!r} starts with a drive; {_EXAMPLE}")
    segments = resource.split("/")
    if ".." in segments:
        raise Refused(f"the resource path {resource!r} contains '..'; {_EXAMPLE}")
    parts = [s for s in segments if s not in ("", ".")]
    if not parts:
        raise Refused(f"the resource path {resource!r} names the skill folder itself; {_EXAMPLE}")
    return "/".join(parts)


def _open_checked(real_root: str, real: str, shown: str, expected: os.stat_result) -> int:
    """Open the checked file `real` beneath the resolved discovery root without following any link, and
    confirm on the open descriptor that it is the regular file that was checked (same device and inode)."""
    fd = open_beneath(real_root, real, shown)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"the resource {shown} is {file_kind(st.st_mode)}; only regular files can be read")
        if (st.st_dev, st.st_ino) != (expected.st_dev, expected.st_ino):
            raise Refused(f"the resource {shown} changed while it was being opened; read it again")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_resource(real_root: str, root: str, rel: str) -> tuple[int, os.stat_result]:
    """The open descriptor and fstat of resource `rel` (already normalized) of the resolved skill folder
    `root`, after every safety check; `real_root` is its resolved discovery root, from which it is opened."""
    real = os.path.realpath(os.path.join(root, rel))
    if not is_within(real, root):
        raise Refused(
            f"the resource {rel} resolves outside the skill folder; only files inside it can be read "
            "(list them with skills.resources)"
        )
    try:
        st = os.stat(real)  # never opens: a FIFO is refused here without ever being opened
    except (FileNotFoundError, NotADirectoryError):
        raise Refused(f"the skill has no resource {rel}; list its resources with skills.resources") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Refused(
                f"the resource {rel} is a link loop; list the readable resources with skills.resources"
            ) from None
        raise Refused(f"the resource {rel} cannot be examined ({exc.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise Refused(f"the resource {rel} is a folder; list the files in it with skills.resources")
    if not stat.S_ISREG(st.st_mode):
        raise Refused(f"the resource {rel} is {file_kind(st.st_mode)}; only regular files can be read")
    fd = _open_checked(real_root, real, rel, st)
    opened = os.fstat(fd)
    if opened.st_size > MAX_RESOURCE_BYTES:
        os.close(fd)
        raise Refused(
            f"the resource {rel} is {opened.st_size} bytes, over the {MAX_RESOURCE_BYTES // (1024 * 1024)} MiB "
            f"limit ({MAX_RESOURCE_BYTES} bytes) for skills.read"
        )
    return fd, opened


def _read_at(fd: int, count: int, offset: int, rel: str) -> bytes:
    """Exactly `count` bytes from `offset`; Refused when the file ends sooner (it shrank since its fstat)."""
    chunks: list[bytes] = []
    got = 0
    while got < count:
        chunk = os.pread(fd, min(_READ_CHUNK, count - got), offset + got)
        if not chunk:
            raise Refused(f"the resource {rel} changed while it was read; read it again")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_whole_resource(skill_root: str, resource: str, *, discovery_root: str) -> bytes:
    """Every byte of one regular file beneath the skill folder, through the same checks as `read_resource`
    (the folder inside its discovery root, the path normalized and refused in every traversal form, opened
    without following links, at most MAX_RESOURCE_BYTES). The MCP face serves these bytes and digests the
    same bytes, so a host's check of a file against its manifest compares like with like."""
    rel = _normalize(resource)
    real_root, root = resolve_skill_folder(skill_root, discovery_root)
    fd, st = _open_resource(real_root, root, rel)
    try:
        return _read_at(fd, st.st_size, 0, rel)
    finally:
        os.close(fd)


def _encoding_of(fd: int, size: int, rel: str) -> str:
    """"utf-8" when the whole file is valid UTF-8, else "base64": one pass, a chunk at a time."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, size, _READ_CHUNK):
            decoder.decode(_read_at(fd, min(_READ_CHUNK, size - start), start, rel))
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return "base64"
    return "utf-8"


FileIdentity = tuple[int, int, int, int]  # device, inode, size, modification time (ns)


class EncodingVerdicts:
    """Which files were found to be UTF-8, by file identity, for one session (a page of
    `skills.read` costs the page, not the file: docs/performance.md).

    Deciding the encoding reads the whole file; remembering the verdict makes every later page of the same
    file cost only the page. A file that changes gets a new identity (size or modification time), so a
    stale verdict is never used. At most MAX_ENCODING_VERDICTS are kept, the oldest forgotten first.
    """

    def __init__(self) -> None:
        self._verdicts: dict[FileIdentity, str] = {}

    def get(self, identity: FileIdentity) -> str | None:
        return self._verdicts.get(identity)

    def remember(self, identity: FileIdentity, encoding: str) -> None:
        self._verdicts.pop(identity, None)
        self._verdicts[identity] = encoding
        while len(self._verdicts) > MAX_ENCODING_VERDICTS:
            del self._verdicts[next(iter(self._verdicts))]

    def forget(self, identity: FileIdentity) -> None:
        self._verdicts.pop(identity, None)

    def __len__(self) -> int:
        return len(self._verdicts)


def _is_continuation(byte: int) -> bool:
    return 0x80 <= byte <= 0xBF


def read_resource(
    name: str,
    skill_root: str,
    resource: str = "SKILL.md",
    offset: int = 0,
    limit: int = DEFAULT_READ_LIMIT,
    *,
    discovery_root: str,
    verdicts: EncodingVerdicts | None = None,
) -> dict[str, Any]:
    """Read one page of one regular file beneath the skill folder.

    `discovery_root` is the skills root the folder was discovered in. At the time of the request the
    folder must resolve strictly inside it and the resource inside the folder, and the file is opened from
    the resolved root down without following any link (confinement.py), so a folder or path swapped for a
    link after discovery is refused rather than read.

    Returns `{"name", "resource", "offset", "size", "next_offset", "truncated", "encoding", "content"}`;
    `resource` is the normalized relative path (`./a//b.md` -> `a/b.md`), `size` the whole file's bytes.

    Arguments (InvalidArguments when wrong): `resource` a str; `offset` and `limit` ints, not bools, 0 or
    more. `limit` above MAX_READ_LIMIT is served as MAX_READ_LIMIT. `limit` 0 is allowed and returns an
    empty page (`next_offset == offset`). `offset == size` returns an empty page with `truncated` false;
    `offset > size` is InvalidArguments.

    Refused: an empty, absolute, backslashed, NUL-holding, drive-prefixed or `..`-holding path; a path that
    resolves outside the skill folder (links inside it are fine); a missing resource; a folder, FIFO,
    socket or device; a file over MAX_RESOURCE_BYTES.

    `encoding` is "utf-8" when the whole file is valid UTF-8 (a BOM is kept as content). Then the page is
    bytes [offset, offset + limit) shortened to end on a character boundary, so it may be up to 3 bytes
    short of the limit, and `offset` must itself be a character boundary (0 or a `next_offset` returned
    earlier), else InvalidArguments. When the character at `offset` is longer than a positive `limit`,
    the page is empty with `next_offset == offset` and `truncated` true: a reader that pages through a
    UTF-8 file must use a limit of at least 4. Otherwise `encoding` is "base64" and `content` is the
    base64 of exactly bytes [offset, offset + limit). Either way `next_offset` is `offset` plus the bytes
    in the page and `truncated` is `next_offset < size`; joining every page from 0 gives the file exactly.

    Deciding the encoding reads the whole file once; with `verdicts` (a session's EncodingVerdicts) that
    decision is remembered per file identity, so each later page reads only its own bytes.
    """
    require_str("name", name)
    if not isinstance(resource, str):
        raise InvalidArguments(f"resource must be a string; {_EXAMPLE}")
    offset = require_count("offset", offset)
    limit = min(require_count("limit", limit), MAX_READ_LIMIT)
    rel = _normalize(resource)
    real_root, root = resolve_skill_folder(skill_root, discovery_root)
    fd, st = _open_resource(real_root, root, rel)
    try:
        size = st.st_size
        if offset > size:
            raise InvalidArguments(f"offset {offset} is past the end (size {size}); the last page ends at {size}")
        identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        encoding = verdicts.get(identity) if verdicts is not None else None
        if encoding is None:
            encoding = _encoding_of(fd, size, rel)
            if verdicts is not None:
                verdicts.remember(identity, encoding)
        end = min(offset + limit, size)
        # The page, plus the byte after it: where the next character starts decides where a UTF-8 page ends.
        window = _read_at(fd, end - offset + (1 if end < size else 0), offset, rel)
    finally:
        os.close(fd)

    if encoding == "utf-8":
        if offset < size and _is_continuation(window[0]):
            raise InvalidArguments(
                f"offset {offset} falls inside a UTF-8 character of {rel}; start at 0 or at a next_offset value"
            )
        # Step back over continuation bytes so the page ends where a character starts (at most 3 steps:
        # the data is valid UTF-8). Never below offset, so a page never exceeds the limit.
        while offset < end < size and _is_continuation(window[end - offset]):
            end -= 1
        try:
            content = window[: end - offset].decode("utf-8")
        except UnicodeDecodeError:  # rewritten in place with the same size and time: decide again next call
            if verdicts is not None:
                verdicts.forget(identity)
            raise Refused(f"the resource {rel} changed while it was read; read it again") from None
    else:
        content = base64.b64encode(window[: end - offset]).decode("ascii")

    return {
        "name": name,
        "resource": rel,
        "offset": offset,
        "size": size,
        "next_offset": end,
        "truncated": end < size,
        "encoding": encoding,
        "content": content,
    }
