"""Relative file references of a `SKILL.md`, checked on disk: resolving them safely, reporting the broken,
suggesting near misses, and linking the ones that exist.

reference_scan.py finds the references in the body (what counts as one is said there); this module resolves
each against the skill folder with `lstat`/`readlink` inside the folder only: nothing is opened, read,
executed or fetched. A code span whose first folder neither is a standard skill folder (`references`,
`scripts`, `assets`) nor exists in the skill folder (`src/main.py` in "edit `src/main.py`") is not reported
when missing.

Diagnostics (a skill with them stays valid):
- `reference-missing`: the reference resolves inside the skill folder, but nothing is there. A warning for a
  link, information for a code span (code spans are often examples). A near miss (the same path in other
  letter case, or under a sibling folder: `reference/` for `references/`) is named in the message, and
  `reference_fixes` offers it as a quick fix.
- `reference-outside` (warning): a link target is absolute, climbs out with `..`, or passes through a
  symbolic link that points outside the skill folder. It is never linked, and nothing outside the folder is
  examined.
- `license-file-missing` (warning): a file the `license` field names is missing or outside the skill
  folder (a near miss is named, as for `reference-missing`).
"""

from __future__ import annotations

import os
import stat
from typing import Literal, NamedTuple

from ..core import codes, limits
from ..core.model import INFORMATION, Diagnostic, Range
from ..core.paths import child, is_within
from ..document.reference_scan import Reference, ReferenceKind, split_placeholder
from ..document.rules import check_document

_new = tuple.__new__  # a NamedTuple from its fields, without a Python-level call: one per occurrence

Status = Literal["ok", "missing", "outside"]

# The folders the format names for a skill's own files; a code span starting with one is always checked.
STANDARD_FOLDERS = ("references", "scripts", "assets")
_MAX_LINK_HOPS = 40  # symbolic links followed while resolving one reference (as the kernel's ELOOP bound)


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
    # Both per distinct target, not per occurrence: a file of one missing link repeated thousands of times
    # lists the same folders once (benchmarks/repeated_references.py).
    seen: dict[str, tuple[Status, str | None]] = {}
    nears: dict[str, NearMiss | None] = {}
    # and the finding's words per distinct reference as written: each occurrence only gets its own range
    said: dict[tuple[str, str, ReferenceKind], Diagnostic | None] = {}
    for reference in references:
        if reference.target not in seen:
            seen[reference.target] = resolve(folder, reference.target)
        status, _resolved = seen[reference.target]
        if status == "ok":
            continue
        known = (reference.target, reference.written, reference.kind)
        if known in said:
            first = said[known]
            if first is not None:
                found.append(_new(Diagnostic, (*first[:4], reference.range, first.related)))  # _replace: 5x slower
            continue
        said[known] = None  # until a finding is made: a code span about another project's files makes none
        if reference.kind == "license":
            if status == "missing" and reference.target not in nears:
                nears[reference.target] = near_miss(folder, reference.target)
            found.append(_license_missing(path, reference, status, nears.get(reference.target)))
        elif status == "outside":
            found.append(codes.REFERENCE_OUTSIDE.at(path, _outside_message(reference), reference.range))
        else:
            if reference.target not in nears:
                nears[reference.target] = near_miss(folder, reference.target)
            near = nears[reference.target]
            if reference.kind == "code" and near is None and not _skill_like(folder, reference.target, seen):
                continue  # a code span about some other project's files (`src/main.py`)
            found.append(_missing(path, reference, near))
        said[known] = found[-1]
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


def _license_missing(path: str, reference: Reference, status: Status, near: NearMiss | None) -> Diagnostic:
    """`license-file-missing`: the license's terms will not travel with the skill."""
    if status == "outside":
        where = "is outside the skill folder, so it is not installed with the skill: copy it into the folder"
    elif near is not None:
        where = f"does not exist in the skill folder, but `{near.target}` does ({near.why}): fix the name"
    else:
        where = "does not exist in the skill folder: add it, or name the license without a file"
    message = f"`license` names `{reference.written}`, which {where}"
    return codes.LICENSE_FILE_MISSING.at(path, message, reference.range)


class NearMiss(NamedTuple):
    """A path that exists where a missing reference most likely meant it, and why it is a near miss."""

    target: str
    why: str


def near_miss(folder: str, target: str) -> NearMiss | None:
    """The one existing path a missing `target` most likely meant: the same path in other letter case or
    with a folder named in the singular or plural (`reference/` for `references/`), else the same
    rest of the path under exactly one sibling of its first folder (`guides/x.md` for `references/x.md`).

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


def skill_references(path: str, text: str) -> tuple[Reference, ...]:
    """The references of a `SKILL.md` text as a check finds them: the files its `license` names, then the
    body's."""
    return check_document(text, path, None).references


def _exact(reference: Reference) -> bool:
    """Whether the reference's range spans its written text and nothing else: a file name inside a quoted
    or folded `license` value is placed on the whole value, which no edit or link should replace."""
    where = reference.range
    return where.start.line == where.end.line and where.end.character - where.start.character == len(reference.written)


def reference_fixes(path: str, text: str) -> list[ReferenceFix]:
    """Quick fixes for the missing references of a `SKILL.md` text that have a near miss: the written
    reference with the existing path in place of the missing one (placeholder and `#anchor` kept)."""
    references = skill_references(path, text)
    if not references:
        return []
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    fixes: list[ReferenceFix] = []
    nears: dict[str, NearMiss | None] = {}  # per distinct target, as in check_references
    for reference in references:
        if reference.target not in nears:
            missing = resolve(folder, reference.target)[0] == "missing"
            nears[reference.target] = near_miss(folder, reference.target) if missing else None
        near = nears[reference.target]
        if near is None:
            continue
        if reference.kind == "license":
            if _exact(reference):
                diagnostic = _license_missing(path, reference, "missing", near)
                fixes.append(ReferenceFix(diagnostic, reference.range, near.target))
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


class Link(NamedTuple):
    """A reference that resolves to something inside the skill folder: `target` is the path to open."""

    reference: Reference
    target: str


def document_links(path: str, text: str) -> list[Link]:
    """The references of a `SKILL.md` text that exist inside its skill folder, with the file each opens.

    The target is spelled under the skill folder as written (not through resolved links), so an editor
    shows the path the author wrote.
    """
    references = skill_references(path, text)
    if not references:
        return []
    spelled = os.path.dirname(os.path.abspath(path))
    folder = os.path.realpath(spelled)
    found: list[Link] = []
    seen: dict[str, tuple[Status, str | None]] = {}
    for reference in references:
        if reference.target not in seen:
            seen[reference.target] = resolve(folder, reference.target)
        if seen[reference.target][0] == "ok" and (reference.kind != "license" or _exact(reference)):
            found.append(Link(reference, os.path.join(spelled, *reference.target.split("/"))))
    return found
