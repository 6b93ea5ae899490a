"""`check --fix`: apply the engine's quick fixes to the files on disk, the same fixes an editor offers.

The fixes are computed by the engine (`authoring/fixes.py`: `quick_fixes` for a `SKILL.md`'s text and
`folder_fixes` for a finding about a skill folder: the language server's code actions), never
here: this module only chooses among them and writes them.

- Which: a fix the engine marks `safe` cannot change what a skill means (a misspelled key renamed when the
  right key is absent, a list-shaped `allowed-tools` joined, a `skill.md` renamed `SKILL.md`); `--fix`
  applies those. `--unsafe` adds the others, such as setting `name` to the folder's name, which changes
  the skill's identity. One fix per finding: the engine's preferred one.
- Never worse: a fix is kept only if re-checking the text afterwards finds no problem that was not there
  before (two misspellings of one key are not both renamed to it).
- Bytes: each edit replaces exactly the bytes its range covers; everything else in the file, BOM and line
  endings included, stays as it was (text the fix inserts takes the file's line ending). A file is
  rewritten in place (same inode, mode and links) only when its bytes changed, and only if its size,
  mtime, inode and device are still those of the bytes the fixes were computed from.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..skills.authoring.fixes import Edit, Fix
    from ..skills.core.model import Catalog, Diagnostic

class Applied(NamedTuple):
    """One fix chosen for a file: what it fixed (for the report)."""

    diagnostic: Diagnostic
    title: str


class FileChange(NamedTuple):
    """What fixing one file would do: its bytes before and after (or its new name), and the fixes applied."""

    path: str
    before: bytes
    after: bytes
    applied: tuple[Applied, ...]
    identity: tuple[int, int, int, int] | None  # size, mtime, inode, device when read: unchanged when written
    renamed_to: str | None = None


def wanted(fix: Fix, unsafe: bool) -> bool:
    return fix.safe or unsafe


class Plan(NamedTuple):
    """The changes `--fix` makes, and those it leaves alone because they are outside the workspace."""

    changes: list[FileChange]
    outside: list[FileChange]


def plan_fixes(catalog: Catalog, unsafe: bool) -> Plan:
    """The changes `--fix` would make for every file the catalog has a finding on, in path order. Files
    outside the workspace (the user roots under the home folder) are planned but left alone: a fix in a
    project does not rewrite the user's own skills; naming the file or the home folder fixes them."""
    from ..skills.authoring.fixes import folder_fixes
    from ..skills.core.paths import is_within
    from ..skills.document.skill_file import SKILL_FILE

    changes: list[FileChange] = []
    for path, found in sorted(catalog.file_diagnostics.items()):
        if not found:
            continue
        if os.path.basename(path) == SKILL_FILE:
            change = _fix_document(path, unsafe)
            if change is not None:
                changes.append(change)
            continue
        for diagnostic in found:  # a finding about a folder: its fixes rename files, they edit no text
            offered = folder_fixes(diagnostic)
            fix = next((f for f in offered if wanted(f, unsafe) and len(f.renames) == 1), None)
            if fix is not None:
                (rename,) = fix.renames
                changes.append(FileChange(rename.old, b"", b"", (Applied(diagnostic, fix.title),), None, rename.new))
    if catalog.workspace is None:  # one file named on the command line
        return Plan(changes, [])
    inside = [change for change in changes if is_within(change.path, catalog.workspace)]
    return Plan(inside, [change for change in changes if not is_within(change.path, catalog.workspace)])


def _fix_document(path: str, unsafe: bool) -> FileChange | None:
    from ..skills.authoring.fixes import quick_fixes
    from ..skills.catalog.discovery import ParseCache
    from ..skills.document.frontmatter import BOM, decode
    from ..skills.document.skill_file import read_skill_bytes

    data, info, problem = read_skill_bytes(path, os.path.dirname(path))
    if data is None or info is None or problem is not None:
        return None
    text, _encoding_problem = decode(data, path)
    if text is None:
        return None
    chosen: dict[Diagnostic, Fix] = {}
    for fix in quick_fixes(path, text):
        if wanted(fix, unsafe) and fix.edits:
            held = chosen.get(fix.diagnostic)
            if held is None or (fix.preferred and not held.preferred):
                chosen[fix.diagnostic] = fix
    if not chosen:
        return None
    prefix = len(BOM.encode("utf-8")) if data.startswith(BOM.encode("utf-8")) else 0  # decode() drops it
    newline = _line_ending(data)
    starts = _line_starts(text)
    # Later fixes first, so the byte offsets of earlier ones still hold after each is applied.
    ordered = sorted(chosen.values(), key=lambda fix: min(edit.range.start for edit in fix.edits), reverse=True)
    current, applied, taken = data, [], []
    baseline = _problems(path, text)
    for fix in ordered:
        spans = [_byte_span(text, starts, prefix, edit) for edit in fix.edits]
        if any(_overlaps(span, other) for span in spans for other in taken):
            continue
        candidate = current
        for (start, end), edit in sorted(zip(spans, fix.edits), key=lambda pair: pair[0], reverse=True):
            candidate = candidate[:start] + edit.new_text.replace("\n", newline).encode("utf-8") + candidate[end:]
        if not _no_new_problems(path, baseline, candidate, prefix):
            continue
        current = candidate
        taken.extend(spans)
        applied.append(Applied(fix.diagnostic, fix.title))
    if current == data:
        return None
    applied.sort(key=lambda item: item.diagnostic.sort_key)
    return FileChange(path, data, current, tuple(applied), ParseCache.key(info))


def _line_ending(data: bytes) -> str:
    """The file's line ending, as its first line ends: text a fix inserts takes it."""
    first = data.find(b"\n")
    return "\r\n" if first > 0 and data[first - 1 : first] == b"\r" else "\n"


def _line_starts(text: str) -> list[int]:
    """The code-point offset where each line begins; only `\\n` ends a line, as in the engine."""
    starts = [0]
    index = text.find("\n")
    while index != -1:
        starts.append(index + 1)
        index = text.find("\n", index + 1)
    return starts


def _byte_span(text: str, starts: list[int], prefix: int, edit: Edit) -> tuple[int, int]:
    def offset(line: int, character: int) -> int:
        position = starts[line] + character if line < len(starts) else len(text)
        return prefix + len(text[: min(position, len(text))].encode("utf-8"))

    return offset(*edit.range.start), offset(*edit.range.end)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two byte spans share a byte, or are the same insertion point."""
    return (a[0] < b[1] and b[0] < a[1]) or a == b


def _problems(path: str, text: str) -> Counter[str]:
    """The codes a file's text has, as `check FILE` finds them (its rules and references, alone)."""
    from ..skills.catalog.session import check_buffer
    from ..skills.catalog.discovery import discover

    alone = discover(None, user_roots=False)  # no roots: the file is a skill of its own
    return Counter(diagnostic.code for diagnostic in check_buffer(alone, path, text))


def _no_new_problems(path: str, baseline: Counter[str], candidate: bytes, prefix: int) -> bool:
    after = _problems(path, candidate[prefix:].decode("utf-8"))
    return all(after[code] <= baseline[code] for code in after) and sum(after.values()) < sum(baseline.values())


class Refusal(NamedTuple):
    path: str
    reason: str


def write_change(change: FileChange) -> Refusal | None:
    """Apply one planned change on disk; None when done, else why it was left alone."""
    from ..skills.catalog.discovery import ParseCache

    if change.renamed_to is not None:
        if os.path.lexists(change.renamed_to):  # never over another file
            return Refusal(change.path, f"{os.path.basename(change.renamed_to)} already exists")
        try:
            os.rename(change.path, change.renamed_to)
        except OSError as exc:
            return Refusal(change.path, exc.strerror or type(exc).__name__)
        return None
    try:
        fd = os.open(change.path, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        return Refusal(change.path, exc.strerror or type(exc).__name__)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return Refusal(change.path, "it is not a regular file any more")
        if ParseCache.key(info) != change.identity:
            return Refusal(change.path, "it changed while it was being fixed; run again")
        first = next((i for i, (a, b) in enumerate(zip(change.before, change.after)) if a != b), None)
        if first is None:
            first = min(len(change.before), len(change.after))
        os.lseek(fd, first, os.SEEK_SET)  # the bytes before the first edit are not even rewritten
        rest = memoryview(change.after)[first:]
        while rest:
            rest = rest[os.write(fd, rest) :]
        os.ftruncate(fd, len(change.after))
    except OSError as exc:
        return Refusal(change.path, exc.strerror or type(exc).__name__)
    finally:
        os.close(fd)
    return None
