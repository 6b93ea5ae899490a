"""What the security reading reads of a skill folder, and what it reports it could not read.

The files come from the same bounded walk as `skills.resources` (resources/listing.py): every regular file
beneath the folder, links followed only while they stay inside it, at most 512 files, 2,048 entries and 16
levels. Each is opened with `open_beneath` (one component at a time, no link followed), so nothing outside
the skill folder is ever read, even if the tree changes during the reading. At most
`MAX_SECURITY_FILE_BYTES` of a file and `MAX_SECURITY_TOTAL_BYTES` of the whole skill are read.

Whatever is not read in full is a `security-not-fully-read` finding saying what and why, never a silent
pass: the rest of a long file, a file past the skill's budget, bytes that are not UTF-8 text, an archive it
does not open, a link out of the folder, a bound of the walk. A ZIP-based file read whole is opened
(archives.py) and its parts read as files, `ARCHIVE!/PART`. Images, fonts and PDFs are named together in one information
finding on SKILL.md. Executables and compiled files are `security-bundled-binary`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import NamedTuple

from ..core import codes, security_codes
from ..resources.confinement import open_beneath
from ..core.errors import Refused
from ..core.limits import MAX_SECURITY_FILE_BYTES, MAX_SECURITY_TOTAL_BYTES
from ..core.model import FILE_START, INFORMATION, Diagnostic, Range
from ..core.paths import child
from ..resources.listing import list_resources
from ..document.skill_file import SKILL_FILE
from .archives import SEPARATOR, ZIP_MAGIC, open_archive

_EXECUTABLE_HEADERS = (
    (b"\x7fELF", "an ELF executable (Linux)"),
    (b"\xcf\xfa\xed\xfe", "a Mach-O executable (macOS)"),
    (b"\xce\xfa\xed\xfe", "a Mach-O executable (macOS)"),
    (b"\xca\xfe\xba\xbe", "a Mach-O universal binary or Java class"),
    (b"\x00asm", "a WebAssembly module"),
)
_BINARY_SUFFIXES = {
    ".exe": "a Windows executable", ".dll": "a Windows library", ".so": "a shared library",
    ".dylib": "a macOS library", ".jar": "a Java archive", ".class": "a Java class", ".pyc": "Python bytecode",
    ".wasm": "a WebAssembly module", ".msi": "a Windows installer", ".node": "a compiled Node.js module",
}
_MEDIA = (
    (b"\x89PNG", "PNG"), (b"\xff\xd8\xff", "JPEG"), (b"GIF8", "GIF"), (b"%PDF", "PDF"), (b"wOFF", "WOFF font"),
    (b"wOF2", "WOFF2 font"), (b"\x00\x01\x00\x00", "TrueType font"), (b"OTTO", "OpenType font"),
    (b"\x00\x00\x01\x00", "icon"), (b"ID3", "MP3"), (b"fLaC", "FLAC"), (b"OggS", "Ogg"),
)
_ARCHIVES = (
    (b"PK\x03\x04", "a ZIP archive (or an Office document)"), (b"\x1f\x8b", "a gzip archive"),
    (b"BZh", "a bzip2 archive"), (b"\xfd7zXZ", "an xz archive"), (b"7z\xbc\xaf", "a 7-Zip archive"),
)
_MAX_MEDIA_NAMED = 8  # media files named in the one information finding ("and N more" after them)


class ReadFile(NamedTuple):
    """One file's text as read (possibly only its start), with its displayed path."""

    path: str
    rel: str
    text: str


def _media_kind(head: bytes) -> str | None:
    if head[:4] == b"RIFF" and head[8:12] in (b"WEBP", b"WAVE"):
        return "WebP" if head[8:12] == b"WEBP" else "WAV"
    if head[4:8] == b"ftyp":
        return "MP4 or MOV"
    return next((what for magic, what in _MEDIA if head.startswith(magic)), None)


def _binary_kind(rel: str, head: bytes) -> str | None:
    for magic, what in _EXECUTABLE_HEADERS:
        if head.startswith(magic):
            return what
    if head.startswith(b"MZ") and b"\x00" in head[:64]:
        return "a Windows executable (PE, `MZ`)"
    suffix = os.path.splitext(rel)[1].lower()
    return _BINARY_SUFFIXES.get(suffix)


def _decoded(data: bytes, cut: bool) -> tuple[str | None, int]:
    """(text, -1) for UTF-8 (a BOM kept for the hidden-text reading to skip), or (None, first bad byte)."""
    try:
        return data.decode("utf-8"), -1
    except UnicodeDecodeError as exc:
        if cut and exc.start >= len(data) - 3 and exc.reason == "unexpected end of data":
            return data[: exc.start].decode("utf-8"), -1  # the read stopped inside a character
        return None, exc.start


def _end_of(text: str) -> Range:
    """Where a text read in part stops: the reading resumed nowhere after it."""
    line = text.count("\n")
    return Range.of(line, len(text) - (text.rfind("\n") + 1))


def _cut_note(path: str, text: str, kept: int, size: int, why: str) -> Diagnostic:
    return security_codes.SECURITY_NOT_FULLY_READ.at(
        path,
        f"read only in part: the first {kept:,} of {size:,} bytes (the rest is past {why}); anything after that "
        "was not checked, so read the rest yourself or split the file",
        _end_of(text),
    )


def bounded_text(path: str, text: str) -> tuple[str, Diagnostic | None]:
    """An open buffer cut to `MAX_SECURITY_FILE_BYTES` of UTF-8, as a file on disk is, with the note saying so."""
    if len(text) * 4 <= MAX_SECURITY_FILE_BYTES:  # cannot be over the bound: no need to encode it
        return text, None
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= MAX_SECURITY_FILE_BYTES:
        return text, None
    kept = data[:MAX_SECURITY_FILE_BYTES].decode("utf-8", "ignore")  # a character cut in two is dropped
    why = f"the {MAX_SECURITY_FILE_BYTES:,}-byte limit for one file"
    return kept, _cut_note(path, kept, MAX_SECURITY_FILE_BYTES, len(data), why)


def _open_within(real: str, rel: str) -> int:
    """Open the listed file `rel` of the resolved folder `real`. Most paths hold no link: `open_beneath` then
    opens them as listed (it refuses any link on the way, so what it opens is what `realpath` would have
    named), without `realpath`'s `lstat` of every component from the file system root, which was most of
    the reading's system time. A path through a link the listing followed (one that stays inside the folder)
    is refused that way, and opened as before: resolved, then opened beneath the folder."""
    try:
        return open_beneath(real, child(real, rel), rel)
    except Refused:
        return open_beneath(real, os.path.realpath(child(real, rel)), rel)


class Reading:
    """The files of one skill folder, read within the bounds; `notes` are the findings about the reading."""

    def __init__(self, folder: str, display: str) -> None:
        self.folder = folder
        self.display = display
        self.notes: list[Diagnostic] = []
        self.media: list[str] = []
        self.budget = MAX_SECURITY_TOTAL_BYTES

    def files(self) -> Iterator[ReadFile]:
        real = os.path.realpath(self.folder)
        try:
            listing = list_resources(os.path.basename(real) or "skill", real, discovery_root=os.path.dirname(real))
        except Refused as exc:  # gone, not a folder, or the file system root: nothing of it is read
            self.notes.append(security_codes.SECURITY_NOT_FULLY_READ.at(self.display, f"not read: {exc}"))
            return
        for note in listing["diagnostics"]:
            self._walk_note(note)
        names = listing["resources"]
        # SKILL.md first: it is what the model reads, so it is read even when the budget runs out
        for rel in sorted(names, key=lambda name: (name != SKILL_FILE, name)):
            yield from self._read(real, rel)
        if self.media:
            more = len(self.media) - _MAX_MEDIA_NAMED
            named = ", ".join(self.media[:_MAX_MEDIA_NAMED]) + (f" and {more} more" if more > 0 else "")
            self.notes.append(security_codes.SECURITY_NOT_FULLY_READ.at(
                child(self.display, SKILL_FILE),
                f"{len(self.media)} image, font, audio or PDF file{'s' if len(self.media) != 1 else ''} not read "
                f"(not text): {named}. Open them yourself if the skill tells the model to read them",
                severity=INFORMATION,
            ))

    def _walk_note(self, note: dict[str, object]) -> None:
        path = str(note["path"])
        real = os.path.realpath(self.folder)
        rel = os.path.relpath(path, real) if path.startswith(real) else path
        shown = child(self.display, rel) if rel != "." else child(self.display, SKILL_FILE)
        what = {
            codes.RESOURCE_LIMIT.id: "the walk of the skill's files stopped",
            codes.SYMLINK_ESCAPE.id: "a link leading outside the skill folder was not followed",
            codes.RESOURCE_LOOP.id: "a folder reached twice through links was not walked again",
            codes.UNREADABLE.id: "an entry could not be read",
            codes.RESOURCE_NAME.id: "a file whose name is not UTF-8 was not read",
        }.get(str(note["code"]))
        if what is None:  # FIFOs and devices hold nothing to read
            return
        self.notes.append(security_codes.SECURITY_NOT_FULLY_READ.at(
            shown, f"not read: {what} ({note['message']}); check what it holds yourself",
        ))

    def _note(self, rel: str, message: str, where: Range = FILE_START) -> None:
        self.notes.append(security_codes.SECURITY_NOT_FULLY_READ.at(child(self.display, rel), message, where))

    def _read(self, real: str, rel: str) -> list[ReadFile]:
        if self.budget <= 0:
            self._note(rel, f"not read: the skill's files passed the {MAX_SECURITY_TOTAL_BYTES:,}-byte reading "
                            "budget before this one; read it yourself, or keep the skill smaller")
            return []
        try:
            fd = _open_within(real, rel)
        except Refused as exc:
            self._note(rel, f"not read: {exc}")
            return []
        try:
            size = os.fstat(fd).st_size
            want = min(MAX_SECURITY_FILE_BYTES, self.budget)
            data = os.read(fd, want + 1) if want >= 0 else b""
            while len(data) <= want and (chunk := os.read(fd, want + 1 - len(data))):
                data += chunk
        except OSError as exc:
            self._note(rel, f"not read: {exc.strerror}")
            return []
        finally:
            os.close(fd)
        cut = len(data) > want
        data = data[:want]
        self.budget -= len(data)
        if data.startswith(ZIP_MAGIC) and not cut:
            return self._archive(rel, data)
        found = self._classify(rel, data, cut, size, want)
        return [found] if found is not None else []

    def _archive(self, rel: str, data: bytes) -> list[ReadFile]:
        """The parts of a ZIP-based file (archives.py), each classified as a file is, its path `ARCHIVE!/PART`."""
        opened = open_archive(data)
        read: list[ReadFile] = []
        unread: list[str] = []  # parts that are not text: an ordinary document's images, fonts, binary data
        for part in opened.parts:
            head = part.data[:64]
            if _binary_kind(part.name, head) is None:
                media = _media_kind(head)
                if media is not None or _decoded(part.data, False)[0] is None:
                    unread.append(f"`{part.name}`" + (f" ({media})" if media else ""))
                    continue
            self.budget -= len(part.data)
            found = self._classify(f"{rel}{SEPARATOR}{part.name}", part.data, False, len(part.data), len(part.data))
            if found is not None:
                read.append(found)
        if opened.refused:
            self._note(rel, f"read in part: {'; '.join(opened.refused[:_MAX_MEDIA_NAMED])}"
                            f"{' and more' if len(opened.refused) > _MAX_MEDIA_NAMED else ''}. Those parts were "
                            "not checked: unpack the file and check them yourself")
        if unread:
            more = len(unread) - _MAX_MEDIA_NAMED
            named = ", ".join(unread[:_MAX_MEDIA_NAMED]) + (f" and {more} more" if more > 0 else "")
            self.notes.append(security_codes.SECURITY_NOT_FULLY_READ.at(
                child(self.display, rel),
                f"opened, and its {len(read)} text part{'s' if len(read) != 1 else ''} read; "
                f"{len(unread)} part{'s' if len(unread) != 1 else ''} not text (images, fonts, binary data) not "
                f"read: {named}",
                severity=INFORMATION,
            ))
        return read

    def _classify(self, rel: str, data: bytes, cut: bool, size: int, want: int) -> ReadFile | None:
        path = child(self.display, rel)
        head = data[:64]
        binary = _binary_kind(rel, head)
        if binary is not None:
            self.notes.append(security_codes.SECURITY_BUNDLED_BINARY.at(
                path, f"{binary} bundled in the skill ({size:,} bytes): no one can read what it does, and the skill "
                "may tell the model to run it. Replace it with source, or a documented install from a trusted source",
            ))
            return None
        media = _media_kind(head)
        if media is not None:
            self.media.append(f"`{rel}` ({media})")
            return None
        archive = next((what for magic, what in _ARCHIVES if head.startswith(magic)), None)
        if archive is not None:
            why = ("larger than the reading takes whole" if head.startswith(ZIP_MAGIC)
                   else "whose contents this reading does not open")
            self._note(rel, f"not read: {archive}, {why}; unpack it and check its files, or ship them unpacked")
            return None
        text, bad = _decoded(data, cut)
        if text is None:
            self._note(rel, f"not read: not UTF-8 text (byte {bad:,} is not valid UTF-8) and no known image, "
                            "font or archive format; check what it is")
            return None
        if cut:
            why = (f"the {MAX_SECURITY_FILE_BYTES:,}-byte limit for one file" if want == MAX_SECURITY_FILE_BYTES
                   else f"the {MAX_SECURITY_TOTAL_BYTES:,}-byte reading budget of the skill")
            self.notes.append(_cut_note(path, text, len(data), max(size, len(data) + 1), why))
        return ReadFile(path, rel, text)
