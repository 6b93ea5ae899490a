"""ZIP-based files opened and their parts read like any other file: Office documents (`.docx`, `.xlsx`,
`.pptx`, OpenDocument), `.zip` and `.jar`. Public evasions of skill scanners hide a payload in such a file
because scanners do not open them; this reading does, with the standard library's `zipfile`, in memory,
within bounds, and never writes or runs anything.

Each part is classified as a file on disk is: an executable or compiled part (`.pyc`, ELF, PE...) is
`security-bundled-binary`, a nested ZIP is opened in turn (at most `MAX_ARCHIVE_DEPTH` deep), an image, font or
other part that is not UTF-8 text is left unread, and every text part (the XML of an Office document, a script)
is read by every detector, its findings on `ARCHIVE!/PART` (the archive's path, `!/`, the part's path inside
it) at the part's own lines. What could not be opened is a `security-not-fully-read` warning naming it and
why: a part past `MAX_ARCHIVE_PART_BYTES` or compressed more than `MAX_ARCHIVE_RATIO` to one (a ZIP bomb's
shape), parts past `MAX_ARCHIVE_PARTS`, more than `MAX_ARCHIVE_TOTAL_BYTES` unpacked, an encrypted part, or a
file `zipfile` refuses. Parts left unread because they are images or other non-text are named in one
information finding on the archive: an ordinary document that opened cleanly.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core.limits import (
    MAX_ARCHIVE_DEPTH,
    MAX_ARCHIVE_PART_BYTES,
    MAX_ARCHIVE_PARTS,
    MAX_ARCHIVE_RATIO,
    MAX_ARCHIVE_TOTAL_BYTES,
)

ZIP_MAGIC = b"PK\x03\x04"
SEPARATOR = "!/"  # between an archive's path and a part's path inside it, as Java and Python name them


class Part(NamedTuple):
    """One part of an archive: its name inside (nested archives joined by `!/`), and its bytes."""

    name: str
    data: bytes


class Opened(NamedTuple):
    """What an archive gave: its parts that are files, and the reasons some were not read (each a sentence)."""

    parts: list[Part]
    refused: list[str]


def too_packed(unpacked: int, packed: int) -> bool:
    """Whether a part unpacks to more than `MAX_ARCHIVE_RATIO` times its packed size (a ZIP bomb's shape)."""
    return unpacked > MAX_ARCHIVE_RATIO * max(packed, 1)


def open_archive(data: bytes) -> Opened:
    """The parts of a ZIP held in `data`, nested ZIPs opened in turn, within the bounds."""
    parts: list[Part] = []
    refused: list[str] = []
    _open(data, "", 1, parts, refused, [MAX_ARCHIVE_TOTAL_BYTES])
    return Opened(parts, refused)


def _open(data: bytes, prefix: str, depth: int, parts: list[Part], refused: list[str], budget: list[int]) -> None:
    import io
    import zipfile  # when a ZIP is met: it pulls in more modules than a check of plain skills needs

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
        refused.append(f"{prefix or 'the archive'} could not be opened ({exc})")
        return
    files = [info for info in infos if not info.is_dir()]
    if len(files) > MAX_ARCHIVE_PARTS:
        refused.append(f"{len(files) - MAX_ARCHIVE_PARTS:,} parts past the first {MAX_ARCHIVE_PARTS:,} "
                       "(MAX_ARCHIVE_PARTS)")
        files = files[:MAX_ARCHIVE_PARTS]
    for info in files:
        name = prefix + info.filename
        if info.flag_bits & 0x1:
            refused.append(f"`{name}` is encrypted")
            continue
        if info.file_size > MAX_ARCHIVE_PART_BYTES:
            refused.append(f"`{name}` unpacks to {info.file_size:,} bytes, past {MAX_ARCHIVE_PART_BYTES:,} "
                           "(MAX_ARCHIVE_PART_BYTES)")
            continue
        if too_packed(info.file_size, info.compress_size):
            refused.append(f"`{name}` is compressed more than {MAX_ARCHIVE_RATIO} to one (MAX_ARCHIVE_RATIO), a "
                           "ZIP bomb's shape")
            continue
        if info.file_size > budget[0]:
            refused.append(f"`{name}` and any later part: more than {MAX_ARCHIVE_TOTAL_BYTES:,} bytes unpacked "
                           "(MAX_ARCHIVE_TOTAL_BYTES)")
            return
        try:
            with archive.open(info) as handle:
                content = handle.read(MAX_ARCHIVE_PART_BYTES + 1)  # the header's size is not trusted
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, ValueError, OSError, EOFError) as exc:
            refused.append(f"`{name}` could not be unpacked ({exc})")
            continue
        if len(content) > MAX_ARCHIVE_PART_BYTES:
            refused.append(f"`{name}` unpacks past {MAX_ARCHIVE_PART_BYTES:,} bytes (MAX_ARCHIVE_PART_BYTES)")
            continue
        budget[0] -= len(content)
        if content.startswith(ZIP_MAGIC):
            if depth >= MAX_ARCHIVE_DEPTH:
                refused.append(f"`{name}`, an archive nested {depth + 1} deep (MAX_ARCHIVE_DEPTH)")
                continue
            _open(content, name + SEPARATOR, depth + 1, parts, refused, budget)
            continue
        parts.append(Part(name, content))
