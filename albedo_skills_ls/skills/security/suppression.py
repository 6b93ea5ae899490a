"""Inline markers that silence one security finding (or a `command-unknown`), with the reason the person gave.

A marker is a comment holding `albedo-skills-ignore CODE: REASON`, in whatever comment the file's language
has: `<!-- albedo-skills-ignore security-fetch-and-run: the vendor's documented installer -->` in Markdown,
`# albedo-skills-ignore security-credential-read: reads the user's own token, by design` in a script or in the
YAML frontmatter. It silences findings of that one code that start on its own line or in the block after it:

- in Markdown, a fenced code block opening on the next line (through its closing fence), else the paragraph
  there (through the line before the next blank line or fence);
- in any other file, the next line and the lines it continues onto with a trailing backslash.

Blank lines and further markers between a marker and its block are skipped, so markers for several codes
stack above one block. A marker must stand right after a comment opener: the word in running prose (the
docs explaining markers, "`albedo-skills-ignore` takes a reason") is not a marker.

A marker without a reason, naming no code, or naming a code that is not a security code silences nothing
and is itself a finding (`security-ignore-invalid`): a silenced finding always says why. Reading is one pass
over the lines with plain string searches, linear in the text.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Callable, NamedTuple

from ..core import codes, security_codes
from ..core import programs
from ..core.limits import MAX_SECURITY_FINDINGS_PER_FILE
from ..core.model import Diagnostic, Range

MARKER = "albedo-skills-ignore"

# What may stand right before the marker word (after spaces): the comment openers of Markdown/HTML, shell,
# Python, YAML, TOML, Ruby, PowerShell (#), C-like languages (//, /*), SQL and Lua (--), Lisp and INI (;),
# TeX and Erlang (%), batch files (REM, ::) and Visual Basic (').
COMMENT_OPENERS = ("<!--", "#", "//", "/*", "--", ";", "%", "::", "REM", "rem", "'")
# What may close the comment after the reason: removed from the reason's end.
COMMENT_CLOSERS = ("-->", "*/")
_CODE_WORD = programs.compile(r"[A-Za-z0-9_-]+")  # one character class: linear, nothing to backtrack into
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")
FENCES = ("```", "~~~")


class Marker(NamedTuple):
    """One marker: the code it names (None: none named), its reason (None: none given), the lines it covers
    (its own through `last`), and where its text is."""

    code: str | None
    reason: str | None
    line: int
    last: int
    where: Range

    @property
    def problem(self) -> str | None:
        """Why this marker silences nothing, or None when it is well formed."""
        usage = f"write `{MARKER} CODE: why this is safe`"
        if self.code is None:
            return f"this {MARKER} marker names no code, so it silences nothing: {usage}"
        if not is_silenceable(self.code):
            return (
                f"`{self.code}` is not a security code a marker can silence, so this marker silences nothing: "
                f"name one of the security-... codes of docs/diagnostics.md, or command-unknown"
            )
        if self.reason is None:
            return (
                f"this marker gives no reason, so `{self.code}` is not silenced: {usage} (the reason is shown "
                "wherever the silenced finding is listed)"
            )
        return None


class Silenced(NamedTuple):
    """A finding left out of what is reported, and why: `by` is "marker" (the reason written in the file),
    "baseline" (a baseline file accepted it) or "disabled" (a setting or option turned its code off)."""

    diagnostic: Diagnostic
    by: str
    reason: str

    def to_json(self) -> dict:
        return {**self.diagnostic.to_json(), "silenced": {"by": self.by, "reason": self.reason}}


class Outcome(NamedTuple):
    kept: tuple[Diagnostic, ...]
    silenced: tuple[Silenced, ...]
    problems: tuple[Diagnostic, ...]  # one `security-ignore-invalid` per malformed marker


# codes outside the security reading that a marker silences: warnings about prose the author may mean as written
SILENCEABLE_BESIDES_SECURITY = frozenset({codes.COMMAND_UNKNOWN.id})


def is_silenceable(code_id: str) -> bool:
    """A registered security code other than the marker's own finding (a marker cannot silence markers), or
    one of SILENCEABLE_BESIDES_SECURITY."""
    code = codes.CODES.get(code_id)
    if code is None:
        return False
    if code_id in SILENCEABLE_BESIDES_SECURITY:
        return True
    return code.category == codes.SECURITY and code_id != security_codes.SECURITY_IGNORE_INVALID.id


def is_markdown(path: str) -> bool:
    return path.lower().endswith(MARKDOWN_SUFFIXES)


def find_markers(text: str, markdown: bool) -> tuple[Marker, ...]:
    """Every marker of the text, with the lines each covers."""
    if MARKER not in text:
        return ()
    lines = text.split("\n")
    found: list[tuple[int, str | None, str | None, Range]] = []
    for number, line in enumerate(lines):
        at = line.find(MARKER)
        while at >= 0:
            after = line[at + len(MARKER) : at + len(MARKER) + 1]
            if _after_comment_opener(line, at) and not (after.isalnum() or after in "-_" and after):
                code, reason = _parse(line, at + len(MARKER))
                found.append((number, code, reason, Range.of(number, at, number, len(line.rstrip("\r")))))
                break
            at = line.find(MARKER, at + len(MARKER))
    ends = _BlockEnds(lines, {number for number, *_rest in found}, markdown)
    return tuple(Marker(code, reason, number, ends.after(number), where) for number, code, reason, where in found)


def _after_comment_opener(line: str, at: int) -> bool:
    before = line[:at].rstrip()
    return before.endswith(COMMENT_OPENERS)


def _parse(line: str, start: int) -> tuple[str | None, str | None]:
    """`CODE: REASON` after the marker word; the comment's closer and spaces are not part of the reason."""
    rest = line[start:].rstrip("\r").rstrip()
    for closer in COMMENT_CLOSERS:
        if rest.endswith(closer):
            rest = rest[: -len(closer)].rstrip()
    body = rest.lstrip()
    word = _CODE_WORD.match(body)
    code = word.group() if word else None
    tail = body[word.end() if word else 0 :].strip()
    if not tail.startswith(":"):
        return code, None
    reason = tail[1:].strip()
    return code, reason or None


class _BlockEnds:
    """The last line each marker covers (module docstring), in time linear in the text: the first content
    line after each line and each paragraph's end come from one backward pass, and a fence is scanned once
    per opening line, however many markers stack above it."""

    def __init__(self, lines: list[str], marker_lines: set[int], markdown: bool) -> None:
        self.lines = lines
        self.markdown = markdown
        count = len(lines)
        # next_content[i]: the first line at or after i that is neither blank nor a marker (count: none)
        self.next_content = [count] * (count + 1)
        # run_end[i]: the last line of the run of lines starting at i that a block takes in (a paragraph in
        # Markdown; backslash continuations elsewhere)
        self.run_end = list(range(count))
        for number in range(count - 1, -1, -1):
            line = lines[number]
            content = bool(line.strip()) and number not in marker_lines
            self.next_content[number] = number if content else self.next_content[number + 1]
            if number + 1 < count and self._continues(line, lines[number + 1]):
                self.run_end[number] = self.run_end[number + 1]
        self._ends: dict[int, int] = {}  # the block's last line, by the block's first

    def _continues(self, line: str, following: str) -> bool:
        if self.markdown:
            return bool(line.strip()) and bool(following.strip()) and not following.strip().startswith(FENCES)
        return line.rstrip("\r").endswith("\\")

    def after(self, marker: int) -> int:
        target = self.next_content[marker + 1]
        if target >= len(self.lines):
            return marker
        if target not in self._ends:  # once per block, however many markers stack above it
            self._ends[target] = self._block_end(target)
        return self._ends[target]

    def _block_end(self, target: int) -> int:
        if self.markdown:
            opening = self.lines[target].strip()
            fence = next((mark for mark in FENCES if opening.startswith(mark)), None)
            if fence is not None:
                return self._fence_end(target, fence[0], len(opening) - len(opening.lstrip(fence[0])))
        return self.run_end[target]

    def _fence_end(self, opening: int, mark: str, run: int) -> int:
        for number in range(opening + 1, len(self.lines)):
            closing = self.lines[number].strip()
            if closing.startswith(mark * run) and not closing.lstrip(mark):
                return number
        return len(self.lines) - 1


def apply_markers(path: str, text: str, findings: tuple[Diagnostic, ...]) -> Outcome:
    """Split one file's security findings by the file's markers: those silenced (with the marker's reason),
    those kept, and a finding for each malformed marker (the first MAX_SECURITY_FINDINGS_PER_FILE; the last
    of those says how many more there are)."""
    markers = find_markers(text, is_markdown(path))
    if not markers:
        return Outcome(findings, (), ())
    malformed = [(marker, problem) for marker in markers if (problem := marker.problem) is not None]
    shown = malformed[:MAX_SECURITY_FINDINGS_PER_FILE]
    problems = [security_codes.SECURITY_IGNORE_INVALID.at(path, problem, marker.where) for marker, problem in shown]
    if len(malformed) > len(shown):
        last = problems[-1]
        more = len(malformed) - len(shown)
        problems[-1] = last._replace(message=f"{last.message} ({more:,} more malformed markers in this file)")
    covering = _covering(markers)
    kept: list[Diagnostic] = []
    silenced: list[Silenced] = []
    for finding in findings:
        cover = covering(finding.code, finding.range.start.line)
        if cover is None:
            kept.append(finding)
        else:
            assert cover.reason is not None
            silenced.append(Silenced(finding, "marker", cover.reason))
    return Outcome(tuple(kept), tuple(silenced), tuple(problems))


def _covering(markers: tuple[Marker, ...]) -> Callable[[str, int], Marker | None]:
    """A lookup: the well-formed marker of a code covering a line, or None. Per code, the markers in line
    order with the running furthest reach: some marker starting at or before line L reaches L exactly when
    the furthest-reaching of them does, so each lookup is one bisection (no marker-by-finding product)."""
    by_code: dict[str, tuple[list[int], list[Marker]]] = {}
    for marker in markers:
        if marker.problem is not None:
            continue
        assert marker.code is not None
        starts, furthest = by_code.setdefault(marker.code, ([], []))
        best = furthest[-1] if furthest and furthest[-1].last >= marker.last else marker
        starts.append(marker.line)
        furthest.append(best)

    def lookup(code: str, line: int) -> Marker | None:
        entry = by_code.get(code)
        if entry is None:
            return None
        starts, furthest = entry
        index = bisect_right(starts, line) - 1
        if index < 0 or furthest[index].last < line:
            return None
        return furthest[index]

    return lookup
