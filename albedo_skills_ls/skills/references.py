"""Relative file references in a `SKILL.md` body: finding them, resolving them safely, reporting the broken.

The Agent Skills format recommends that a skill refer to its own files by paths relative to the skill root
(`references/formats.md`, `scripts/run.py`). This module finds such references in the Markdown body and
checks them against the skill folder. It is pure text analysis plus `lstat`/`readlink` inside the skill
folder: nothing is opened, read, executed or fetched.

What counts as a reference (outside fenced code blocks; the frontmatter is never scanned):
- `link`: the target of a Markdown link or image, `[text](target)`, `![alt](target "title")`,
  `[text](<target with spaces>)`, or of a reference definition `[id]: target`. Targets with a URL scheme
  (`https:`, `mailto:`, `file:` ...), protocol-relative `//host` targets and bare anchors (`#section`) are
  not references and are never fetched. A `#anchor` or `?query` suffix is dropped; `%20` escapes are decoded.
- `code`: an inline code span whose whole content is one relative path with a `/` and a file extension
  (`` `references/formats.md` ``, `` `./scripts/run.py` ``). Code spans that climb (`../x`) or are absolute
  (`/etc/hosts`) are left alone: they usually name files of the user's project or system, not the skill's.
  A code span whose first folder neither is a standard skill folder (`references`, `scripts`, `assets`)
  nor exists in the skill folder (`src/main.py` in "edit `src/main.py`") is not reported when missing.

Diagnostics (both warnings; a skill with them stays valid):
- `reference-missing`: the reference resolves inside the skill folder, but nothing is there.
- `reference-outside`: a link target is absolute, climbs out with `..`, or passes through a symbolic link
  that points outside the skill folder. It is never linked, and nothing outside the folder is examined.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from typing import Literal, NamedTuple
from urllib.parse import unquote

from . import codes
from .frontmatter import closing_line, lines_of, opens_frontmatter
from .markdown import prose_lines
from .model import Diagnostic, Range
from .paths import is_within

ReferenceKind = Literal["link", "code"]
Status = Literal["ok", "missing", "outside"]

# The folders the format names for a skill's own files; a code span starting with one is always checked.
STANDARD_FOLDERS = ("references", "scripts", "assets")
_MAX_LINK_HOPS = 40  # symbolic links followed while resolving one reference (as the kernel's ELOOP bound)

_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]\\]|\\.)*\]"  # [text] (no nested brackets)
    r"\(\s*(?:<(?P<angle>[^<>\n]*)>|(?P<bare>(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+))"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)"
)
_DEFINITION = re.compile(r"^ {0,3}\[(?:[^\[\]\\]|\\.)+\]:[ \t]*(?:<(?P<angle>[^<>\n]*)>|(?P<bare>\S+))")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_CODE_PATH = re.compile(r"^(?:\./)?[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*(?:/[A-Za-z0-9_.@+-]+)+$")
_EXTENSION = re.compile(r"[^/.]\.[A-Za-z0-9]{1,10}$")


class Reference(NamedTuple):
    """One reference: `target` is a normalised relative POSIX path (or the absolute / climbing path of a
    link that leaves the folder), `written` the text as it appears, `range` where it appears."""

    target: str
    written: str
    kind: ReferenceKind
    range: Range

    @property
    def escapes(self) -> bool:
        """Lexically outside the skill folder: absolute, or climbing above it with `..`."""
        return self.target.startswith("/") or self.target == ".." or self.target.startswith("../")


def body_start_line(lines: list[str]) -> int | None:
    """The first body line under the frontmatter rules of `frontmatter.py`: after the closing `---`, or 0
    when there is no opening `---`. None when the frontmatter is never closed (there is no body)."""
    if not opens_frontmatter(lines):
        return 0
    end = closing_line(lines)
    return end + 1 if end is not None else None


def _link_target(written: str) -> str | None:
    """The relative path a link target names, or None when it is no file reference (URL, anchor...)."""
    target = written.strip()
    if not target or target.startswith("#") or target.startswith("//") or _SCHEME.match(target):
        return None
    target = re.sub(r"\\(.)", r"\1", target)  # Markdown backslash escapes
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target:
        return None
    target = unquote(target)
    if "\0" in target:
        return None
    absolute = target.startswith("/")
    normal = posixpath.normpath(target)
    if absolute:
        return "/" + normal.lstrip("/")
    return "." if normal == "." else normal


def _code_target(content: str) -> str | None:
    """The relative path a code span names, or None when it is not one path with a folder and an extension."""
    text = content.strip()
    if not _CODE_PATH.match(text) or not _EXTENSION.search(text):
        return None
    if any(part == ".." for part in text.split("/")):
        return None
    return posixpath.normpath(text)


def find_references(text: str, first_line: int | None = None, lines: list[str] | None = None) -> list[Reference]:
    """Every reference in the body of a `SKILL.md` text, in document order.

    `first_line` is where the body starts; by default it is found from the frontmatter delimiters.
    `lines` may pass `lines_of(text)` when the caller already split it.
    """
    lines = lines_of(text) if lines is None else lines
    start = body_start_line(lines) if first_line is None else first_line
    if start is None:
        return []
    found: list[Reference] = []
    for number, line in prose_lines(lines, start, needles="`["):
        found.extend(_line_references(line, number))
    return found


def _line_references(line: str, number: int) -> list[Reference]:
    found: list[Reference] = []
    plain = line
    if "`" in line:
        plain = _code_references(line, number, found)  # links inside code spans are not links
    if "[" not in plain:
        return found
    matches = list(_INLINE_LINK.finditer(plain))
    definition = _DEFINITION.match(plain)
    if definition:
        matches.insert(0, definition)
    # a code span inside a link's text names the link's own target: the link alone is the reference
    found = [
        code for code in found
        if not any(m.start() <= code.range.start.character < m.end() for m in matches)
    ]
    for match in matches:
        group = "angle" if match.group("angle") is not None else "bare"
        written = match.group(group)
        target = _link_target(written)
        if target is None or target == ".":
            continue
        begin, end = match.start(group), match.end(group)
        found.append(Reference(target, written, "link", Range.of(number, begin, number, end)))
    found.sort(key=lambda reference: reference.range)
    return found


def _code_references(line: str, number: int, found: list[Reference]) -> str:
    """Add the paths named by the line's code spans to `found`; return the line with the spans blanked."""
    masked = list(line)
    for span in _CODE_SPAN.finditer(line):
        masked[span.start() : span.end()] = " " * (span.end() - span.start())
        content = span.group(2)
        target = _code_target(content)
        if target is not None:
            offset = len(content) - len(content.lstrip())
            written = content.strip()
            begin = span.start(2) + offset
            found.append(Reference(target, written, "code", Range.of(number, begin, number, begin + len(written))))
    return "".join(masked)


def resolve(folder: str, target: str) -> tuple[Status, str | None]:
    """Where a relative `target` leads inside the (resolved) skill `folder`, examining nothing outside it.

    Returns ("ok", resolved path), ("missing", None) or ("outside", None). Each component is `lstat`ed in
    turn; a symbolic link is read and its target continues the walk only while it stays inside `folder`.
    """
    if target.startswith("/") or target == ".." or target.startswith("../"):
        return "outside", None
    current = folder
    pending = [part for part in target.split("/") if part not in ("", ".")]
    hops = 0
    while pending:
        part = pending.pop(0)
        if part == "..":
            if current == folder:
                return "outside", None
            current = os.path.dirname(current)
            continue
        candidate = os.path.join(current, part)
        try:
            info = os.lstat(candidate)
        except OSError:
            return "missing", None
        if stat.S_ISLNK(info.st_mode):
            hops += 1
            if hops > _MAX_LINK_HOPS:
                return "missing", None
            try:
                link = os.readlink(candidate)
            except OSError:
                return "missing", None
            if link.startswith("/"):
                normal = os.path.normpath(link)
                if not is_within(normal, folder):
                    return "outside", None
                rest = os.path.relpath(normal, folder)
                current = folder
                pending = [p for p in rest.split("/") if p not in ("", ".")] + pending
            else:
                pending = [p for p in link.split("/") if p not in ("", ".")] + pending
            continue
        if pending and not stat.S_ISDIR(info.st_mode):
            return "missing", None
        current = candidate
    return "ok", current


def check_references(
    path: str, references: tuple[Reference, ...] | list[Reference], folder: str | None = None
) -> tuple[Diagnostic, ...]:
    """`reference-missing` and `reference-outside` for the references of the `SKILL.md` at `path`.
    `folder` is the skill folder with links resolved, when the caller already knows it."""
    if not references:
        return ()
    folder = folder or os.path.realpath(os.path.dirname(os.path.abspath(path)))
    found: list[Diagnostic] = []
    seen: dict[str, tuple[Status, str | None]] = {}
    for reference in references:
        if reference.target not in seen:
            seen[reference.target] = resolve(folder, reference.target)
        status, _resolved = seen[reference.target]
        if status == "ok":
            continue
        if status == "outside":
            found.append(
                codes.REFERENCE_OUTSIDE.at(
                    path,
                    f"`{reference.written}` resolves outside the skill folder: skills.read cannot serve it; "
                    "move the file into the skill folder and refer to it relatively",
                    reference.range,
                )
            )
            continue
        if reference.kind == "code" and not _skill_like(folder, reference.target, seen):
            continue
        found.append(
            codes.REFERENCE_MISSING.at(
                path,
                f"`{reference.written}` does not exist in the skill folder: create it or fix the path "
                "(paths are relative to the folder holding SKILL.md)",
                reference.range,
            )
        )
    return tuple(found)


def _skill_like(folder: str, target: str, seen: dict[str, tuple[Status, str | None]]) -> bool:
    """Whether a code span's path is about the skill's own files: its first folder is a standard one or
    exists in the skill folder."""
    first = target.split("/", 1)[0]
    if first in STANDARD_FOLDERS:
        return True
    if first not in seen:
        seen[first] = resolve(folder, first)
    return seen[first][0] == "ok"


def missing_references(path: str, text: str) -> tuple[Diagnostic, ...]:
    """The reference diagnostics of a `SKILL.md` text (a buffer or a file's contents) at `path`."""
    return check_references(path, find_references(text))


class Link(NamedTuple):
    """A reference that resolves to something inside the skill folder: `target` is the path to open."""

    reference: Reference
    target: str


def document_links(path: str, text: str) -> list[Link]:
    """The references of a `SKILL.md` text that exist inside its skill folder, with the file each opens.

    The target is spelled under the skill folder as written (not through resolved links), so an editor
    shows the path the author wrote.
    """
    references = find_references(text)
    if not references:
        return []
    spelled = os.path.dirname(os.path.abspath(path))
    folder = os.path.realpath(spelled)
    found: list[Link] = []
    seen: dict[str, tuple[Status, str | None]] = {}
    for reference in references:
        if reference.target not in seen:
            seen[reference.target] = resolve(folder, reference.target)
        if seen[reference.target][0] == "ok":
            found.append(Link(reference, os.path.join(spelled, *reference.target.split("/"))))
    return found
