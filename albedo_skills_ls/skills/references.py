"""Relative file references in a `SKILL.md` body: finding them, resolving them safely, reporting the broken.

The Agent Skills format recommends that a skill refer to its own files by paths relative to the skill root
(`references/formats.md`, `scripts/run.py`). This module finds such references in the Markdown body and
checks them against the skill folder. It is pure text analysis plus `lstat`/`readlink` inside the skill
folder: nothing is opened, read, executed or fetched.

What counts as a reference (outside fenced code blocks; the frontmatter is never scanned), as decided in
decisions.md section 7 after reading real skills:
- `link`: the target of a Markdown link or image, `[text](target)`, `![alt](target "title")`,
  `[text](<target with spaces>)`, or of a link reference definition as CommonMark defines it: `[id]: target`
  with an optional title and nothing else on the line. A footnote (`[^1]: ...`) is not a definition. Targets
  with a URL scheme (`https:`, `mailto:`, `file:` ...), protocol-relative `//host` targets and bare anchors
  (`#section`) are not references and are never fetched. A `#anchor` or `?query` suffix is dropped; `%20`
  escapes are decoded.
- `code`: an inline code span whose whole content is one concrete relative path with a `/` and a file
  extension (`` `references/formats.md` ``, `` `./scripts/run.py` ``). Examples and placeholders are not
  concrete: wildcards and template marks (`*`, `?`, `<`, `{`, `[`, `$`, `...`), placeholder words
  (`filename`, `example`, `your-`, `path/to`) and an index letter (`phaseN.md`). Code spans that climb
  (`../x`) or are absolute (`/etc/hosts`) are left alone: they usually name files of the user's project or
  system, not the skill's. A code span whose first folder neither is a standard skill folder (`references`,
  `scripts`, `assets`) nor exists in the skill folder (`src/main.py` in "edit `src/main.py`") is not
  reported when missing.
- Either kind may start with a placeholder that hosts expand to the skill folder (`{baseDir}/`,
  `${CLAUDE_SKILL_DIR}/`): the rest is relative to the skill folder.

Diagnostics (a skill with them stays valid):
- `reference-missing`: the reference resolves inside the skill folder, but nothing is there. A warning for a
  link, information for a code span (code spans are often examples). A near miss (the same path in other
  letter case, or under a sibling folder: `reference/` for `references/`) is named in the message, and
  `reference_fixes` offers it as a quick fix.
- `reference-outside` (warning): a link target is absolute, climbs out with `..`, or passes through a
  symbolic link that points outside the skill folder. It is never linked, and nothing outside the folder is
  examined.

Every scan here is linear in the length of a line: the definition reader is a hand-written one-pass scanner,
and the patterns have no nested quantifiers that can backtrack.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
import stat
from typing import Literal, NamedTuple
from urllib.parse import unquote

from . import codes
from .frontmatter import closing_line, lines_of, opens_frontmatter
from .inline_scan import code_spans, inline_links
from .markdown import prose_lines_holding
from . import limits
from .model import INFORMATION, Diagnostic, Range
from .paths import child, is_within

ReferenceKind = Literal["link", "code"]
Status = Literal["ok", "missing", "outside"]

# The folders the format names for a skill's own files; a code span starting with one is always checked.
STANDARD_FOLDERS = ("references", "scripts", "assets")
_MAX_LINK_HOPS = 40  # symbolic links followed while resolving one reference (as the kernel's ELOOP bound)

# Every expression below runs over file text and is linear in the line: anchored (`match`), or with a
# bounded attempt per position. Code spans and inline links have no such expression: see inline_scan.py;
# link reference definitions are scanned by hand in `link_definition`.
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_CODE_PATH = re.compile(r"^(?:\./)?[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*(?:/[A-Za-z0-9_.@+-]+)+$")
_EXTENSION = re.compile(r"[^/.]\.[A-Za-z0-9]{1,10}$")

# Placeholders that hosts expand to the skill folder before the model reads the text.
SKILL_FOLDER_PLACEHOLDERS = ("{baseDir}", "${CLAUDE_SKILL_DIR}")
# Words that make a code span an example rather than a file: a whole word of a path segment
# (`references/example.md`, `scripts/run_example.py`), or a segment's start (`your-skill/`).
PLACEHOLDER_WORDS = frozenset({"filename", "example"})
PLACEHOLDER_PREFIXES = ("your-", "your_")
_WORD_SEPARATORS = re.compile(r"[-_.]")
# `phaseN.md`, `stepX.py`: an index letter standing for a number, right after a lowercase letter
_INDEX_LETTER = re.compile(r"[a-z][NX](?:\.|$)")


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


def split_placeholder(written: str) -> tuple[str, str]:
    """(`{baseDir}/` or `${CLAUDE_SKILL_DIR}/` or "", the rest): the rest is relative to the skill folder."""
    for placeholder in SKILL_FOLDER_PLACEHOLDERS:
        if written == placeholder:
            return placeholder, ""
        if written.startswith(placeholder + "/"):
            return placeholder + "/", written[len(placeholder) + 1 :]
    return "", written


_BACKSLASH_ESCAPE = re.compile(r"\\(.)")


def _link_target(written: str) -> str | None:
    """The relative path a link target names, or None when it is no file reference (URL, anchor...)."""
    placeholder, target = split_placeholder(written.strip())
    if placeholder and not target.split("#", 1)[0].split("?", 1)[0]:
        return None  # the skill folder itself
    if not target or target.startswith("#") or target.startswith("//") or _SCHEME.match(target):
        return None
    if "\\" in target:
        target = _BACKSLASH_ESCAPE.sub(r"\1", target)  # Markdown backslash escapes
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
    """The relative path a code span names, or None when it is not one concrete path with a folder and an
    extension (an example, a placeholder or a pattern is no file)."""
    _placeholder, text = split_placeholder(content.strip())
    if not _CODE_PATH.match(text) or not _EXTENSION.search(text) or "..." in text:
        return None
    parts = text.split("/")
    if any(part == ".." for part in parts) or not all(map(_concrete_segment, parts)):
        return None
    if "path/to/" in text:
        return None
    return posixpath.normpath(text)


def _concrete_segment(segment: str) -> bool:
    """Whether one path segment of a code span names a file rather than stands for one."""
    lowered = segment.lower()
    if lowered.startswith(PLACEHOLDER_PREFIXES) or _INDEX_LETTER.search(segment):
        return False
    return not any(word in PLACEHOLDER_WORDS for word in _WORD_SEPARATORS.split(lowered))


def find_references(text: str, body: tuple[int, int] | None = None) -> list[Reference]:
    """Every reference in the body of a `SKILL.md` text, in document order.

    `body` is where the body starts, its line number and its offset in `text`, when the caller knows it;
    by default it is found from the frontmatter delimiters.
    """
    if body is None:
        lines = lines_of(text)
        start = body_start_line(lines)
        if start is None:
            return []
        body = (start, len("".join(lines[:start])))
    first_line, offset = body
    found: list[Reference] = []
    # A link needs a `[`, and a code span names a path only if it holds a `/`: the lines holding either
    # are few (backticks are common, slashes and brackets rare), and of those a `/` without a backtick
    # names nothing.
    for number, line in prose_lines_holding(text, offset, first_line, "[/"):
        if "[" in line or "`" in line:
            found.extend(_line_references(line, number))
    return found


def _line_references(line: str, number: int) -> list[Reference]:
    found: list[Reference] = []
    plain = line
    if "`" in line:
        plain = _code_references(line, number, found)  # links inside code spans are not links
    if "[" not in plain:
        return found
    # (start, end) of each link on the line, and (start, end) of the target within it
    links = [(span.start, span.end, span.begin, span.stop) for span, _group in inline_links(plain)]
    definition = link_definition(plain)
    if definition is not None:
        links.insert(0, (0, len(plain), *definition))
    # a code span inside a link's text names the link's own target: the link alone is the reference
    found = [code for code in found if not _inside_any(code.range.start.character, links)]
    for _start, _end, begin, end in links:
        written = plain[begin:end]
        target = _link_target(written)
        if target is None or target == ".":
            continue
        found.append(Reference(target, written, "link", Range.of(number, begin, number, end)))
    found.sort(key=lambda reference: reference.range)
    return found


def _inside_any(character: int, links: list[tuple[int, int, int, int]]) -> bool:
    """Whether `character` falls within one of the links (sorted by start; a definition, first, spans the
    line and may overlap the inline links after it). Bisection keeps a line of many code spans and many
    links linear-logarithmic instead of quadratic."""
    if links and links[0][0] <= character < links[0][1]:
        return True
    index = bisect.bisect_right(links, character, lo=1, key=lambda link: link[0]) - 1
    return index >= 1 and links[index][0] <= character < links[index][1]


_SPACE = " \t"


def link_definition(line: str) -> tuple[int, int] | None:
    """Where the target of a CommonMark link reference definition is, when the whole line is one:
    `[label]: target`, the target bare or in `<>`, then optionally a title in `"`, `'` or `()`, then nothing
    but spaces. A footnote (`[^1]: ...`) is not a definition.

    One pass over the line, character by character: linear whatever the line holds.
    """
    length = len(line)
    index = 0
    while index < length and line[index] == " ":
        index += 1
    if index > 3 or index >= length or line[index] != "[":
        return None
    index += 1
    label_start = index
    while index < length and line[index] != "]":
        if line[index] == "[":
            return None
        index += 2 if line[index] == "\\" else 1
    label = line[label_start:index]
    if index >= length or not label.strip() or label.startswith("^"):
        return None
    index += 1
    if index >= length or line[index] != ":":
        return None
    index += 1
    while index < length and line[index] in _SPACE:
        index += 1
    if index >= length:
        return None  # the target is on the next line: not a reference we place
    if line[index] == "<":
        begin = index + 1
        close = line.find(">", begin)
        if close < 0 or "<" in line[begin:close]:
            return None
        end, index = close, close + 1
    else:
        begin = index
        depth = 0
        while index < length and line[index] not in _SPACE:
            character = line[index]
            if character == "\\":
                index += 1
            elif character == "(":
                depth += 1
            elif character == ")":
                depth -= 1
                if depth < 0:
                    return None
            index += 1
        if depth:
            return None
        end = index
    rest = line[index:]
    after = rest.lstrip(_SPACE)
    if after and (len(after) == len(rest) or not _whole_title(after)):
        return None
    return begin, end


def _whole_title(text: str) -> bool:
    """Whether `text` is one link title (`"t"`, `'t'` or `(t)`) followed only by spaces."""
    closing = {'"': '"', "'": "'", "(": ")"}.get(text[0])
    if closing is None:
        return False
    index = 1
    while index < len(text):
        character = text[index]
        if character == "\\":
            index += 2
            continue
        if character == closing:
            return not text[index + 1 :].strip(_SPACE)
        if text[0] == "(" and character == "(":
            return False
        index += 1
    return False


def _code_references(line: str, number: int, found: list[Reference]) -> str:
    """Add the paths named by the line's code spans to `found`; return the line with the spans blanked
    (blanking matters only to the link scan, so a line without `[` is returned as it is)."""
    masked = list(line) if "[" in line else None
    for span in code_spans(line):
        if masked is not None:
            masked[span.start : span.end] = " " * (span.end - span.start)
        content = line[span.begin : span.stop]
        if "/" not in content:
            continue  # a path names a folder: most code spans are words, rejected here without a regex
        target = _code_target(content)
        if target is not None:
            offset = len(content) - len(content.lstrip())
            written = content.strip()
            begin = span.begin + offset
            found.append(Reference(target, written, "code", Range.of(number, begin, number, begin + len(written))))
    return line if masked is None else "".join(masked)


def resolve(folder: str, target: str) -> tuple[Status, str | None]:
    """Where a relative `target` leads inside the (resolved) skill `folder`, examining nothing outside it.

    Returns ("ok", resolved path), ("missing", None) or ("outside", None). Each component is `lstat`ed in
    turn; a symbolic link is read and its target continues the walk only while it stays inside `folder`.
    """
    if target.startswith("/") or target == ".." or target.startswith("../"):
        return "outside", None
    simple = _resolve_plain(folder, target)
    if simple is not None:
        return simple
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
        candidate = child(current, part)
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


def _resolve_plain(folder: str, target: str) -> tuple[Status, str | None] | None:
    """`resolve` for the usual target, plain names joined by `/` (no `.`, `..` or empty parts), met by no
    link on the way: one `lstat` per component and nothing else. None hands the target to the general walk
    (a link on the way, or a target of another shape)."""
    parts = target.split("/")
    if "" in parts or "." in parts or ".." in parts:
        return None
    current = folder
    last = len(parts) - 1
    for index, part in enumerate(parts):
        candidate = child(current, part)
        try:
            mode = os.lstat(candidate).st_mode
        except OSError:
            return "missing", None
        if stat.S_ISLNK(mode):
            return None
        if index < last and not stat.S_ISDIR(mode):
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
                    _outside_message(reference),
                    reference.range,
                )
            )
            continue
        near = near_miss(folder, reference.target)
        if reference.kind == "code" and near is None and not _skill_like(folder, reference.target, seen):
            continue  # a code span about some other project's files (`src/main.py`)
        found.append(_missing(path, reference, near))
    return tuple(found)


def _outside_message(reference: Reference) -> str:
    """Why a reference that leaves the skill folder is a problem, and what to do: a link to a sibling skill
    (`../other/SKILL.md`, `../../skills/other/SKILL.md`, `../other/`; seen lexically, nothing outside is
    examined) is better made by name."""
    parts = reference.target.split("/")
    other = None
    if len(parts) >= 3 and parts[-1] == "SKILL.md" and parts[-2] not in ("", ".."):
        other = parts[-2]  # `../other/SKILL.md`, `../../skills/other/SKILL.md`
    elif len(parts) == 2 and parts[0] == ".." and parts[1] not in ("", ".."):
        other = parts[1]  # `../other/`
    if other is not None:
        return (
            f"`{reference.written}` links to another skill, outside the skill folder: a skill is read (and "
            f"may be installed) on its own; refer to the skill by name (`{other}`) instead of by path"
        )
    return (
        f"`{reference.written}` resolves outside the skill folder: skills.read cannot serve it; "
        "move the file into the skill folder and refer to it relatively"
    )


def _missing(path: str, reference: Reference, near: NearMiss | None) -> Diagnostic:
    """`reference-missing`: a warning for a link, information for a code span, naming a near miss."""
    where = "does not exist in the skill folder"
    if near is not None:
        advice = f"{where}, but `{near.target}` does ({near.why}): fix the path"
    else:
        advice = f"{where}: create it or fix the path (paths are relative to the folder holding SKILL.md)"
    if reference.kind == "code":
        advice += "; only information, as a code span may be an example"
    return codes.REFERENCE_MISSING.at(
        path,
        f"`{reference.written}` {advice}",
        reference.range,
        severity=INFORMATION if reference.kind == "code" else None,
    )


class NearMiss(NamedTuple):
    """A path that exists where a missing reference most likely meant it, and why it is a near miss."""

    target: str
    why: str


def near_miss(folder: str, target: str) -> NearMiss | None:
    """The one existing path a missing `target` most likely meant: the same path in other letter case or
    with a folder named in the singular or plural (`reference/` for `references/`), else the same
    rest of the path under exactly one sibling of its first folder (`docs/x.md` for `references/x.md`).

    Only folders inside the skill folder are listed, at most limits.MAX_NEAR_MISS_ENTRIES entries each.
    """
    parts = target.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return None
    walked: list[str] = []
    reasons: list[str] = []
    for index, part in enumerate(parts):
        here = "/".join(walked + [part])
        if resolve(folder, here)[0] == "ok":
            walked.append(part)
            continue
        last = index == len(parts) - 1
        choices = [name for name in _entries(folder, "/".join(walked)) if _close_name(part, name, last)]
        if len(choices) != 1:
            break
        chosen = choices[0]
        reasons.append("other letter case" if chosen.lower() == part.lower() else f"in `{chosen}/`, not `{part}/`")
        walked.append(chosen)
    else:
        if reasons:
            return NearMiss("/".join(walked), ", ".join(dict.fromkeys(reasons)))
        return None
    if len(parts) < 2:
        return None
    rest = "/".join(parts[1:])
    siblings = [
        name for name in _entries(folder, "")
        if name != parts[0] and resolve(folder, f"{name}/{rest}")[0] == "ok"
    ]
    if len(siblings) == 1:
        return NearMiss(f"{siblings[0]}/{rest}", f"in `{siblings[0]}/`, not `{parts[0]}/`")
    return None


def _close_name(written: str, name: str, last: bool) -> bool:
    """Whether an existing entry `name` is what `written` most likely meant: other letter case, or (for a
    folder) the singular or plural of it."""
    written, lowered = written.lower(), name.lower()
    if lowered == written:
        return True
    return not last and (lowered == written + "s" or written == lowered + "s")


def _entries(folder: str, relative: str) -> list[str]:
    """The names in a folder inside the skill folder (resolved through `resolve`, so never outside it), at
    most limits.MAX_NEAR_MISS_ENTRIES of them, sorted; none when the folder holds more."""
    status, resolved = resolve(folder, relative) if relative else ("ok", folder)
    if status != "ok" or resolved is None:
        return []
    names: list[str] = []
    try:
        with os.scandir(resolved) as entries:
            for entry in entries:
                if len(names) == limits.MAX_NEAR_MISS_ENTRIES:
                    return []  # too many to guess among
                names.append(entry.name)
    except OSError:
        return []
    return sorted(names)


class ReferenceFix(NamedTuple):
    """A near miss as an edit: replace `range` (the reference as written) with `new_text`."""

    diagnostic: Diagnostic
    range: Range
    new_text: str


def reference_fixes(path: str, text: str) -> list[ReferenceFix]:
    """Quick fixes for the missing references of a `SKILL.md` text that have a near miss: the written
    reference with the existing path in place of the missing one (placeholder and `#anchor` kept)."""
    references = find_references(text)
    if not references:
        return []
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    fixes: list[ReferenceFix] = []
    for reference in references:
        if resolve(folder, reference.target)[0] != "missing":
            continue
        near = near_miss(folder, reference.target)
        if near is None:
            continue
        placeholder, rest = split_placeholder(reference.written)
        suffix = ""
        if reference.kind == "link":
            cut = min((i for i in (rest.find("#"), rest.find("?")) if i >= 0), default=len(rest))
            suffix = rest[cut:]
        new_target = near.target
        if reference.kind == "link" and " " in new_target and not reference.written.startswith("<"):
            new_target = new_target.replace(" ", "%20")
        fixes.append(ReferenceFix(_missing(path, reference, near), reference.range, placeholder + new_target + suffix))
    return fixes


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
