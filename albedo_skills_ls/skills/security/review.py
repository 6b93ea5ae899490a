"""The security reading as the command line and the editor report it: the detectors' findings, then what the
person chose to silence (a code turned off, an inline marker with its reason, a baseline file).

`review_folders` reads skill folders on disk (`check`, the editor's workspace skills); `review_buffer`
reads one open buffer (an editor's unsaved text). Both apply the same policy in the same order — turned-off
codes, then the file's markers, then the baseline — and return what is reported and what was silenced, each
silenced finding with why, so `check --format json` and SARIF can still show it.
"""

from __future__ import annotations

import os
from types import MappingProxyType
from typing import Iterable, Mapping, NamedTuple

from ..core import codes
from ..core.security_codes import SECURITY_NOT_FULLY_READ
from ..core.limits import MAX_SECURITY_FILE_BYTES
from ..core.model import Diagnostic
from ..core.paths import resolves_within
from .baseline import Baseline, Located, apply_baseline
from .suppression import Outcome, Silenced, apply_markers

CATEGORY = codes.SECURITY

# O_NONBLOCK: a FIFO opens without waiting for a writer (then fstat refuses it); O_NOFOLLOW: never a link.
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


class Policy(NamedTuple):
    """What the person chose: the category on or off, codes turned off, a baseline (its paths relative to
    `base`), and whether the files' own markers are honoured (not when auditing a skill someone else wrote:
    its author wrote its markers too)."""

    enabled: bool = True
    disabled: frozenset[str] = frozenset()
    baseline: Baseline | None = None
    base: str | None = None
    markers: bool = True

    def disabled_reason(self, code: str) -> str:
        return f"`{code}` is turned off"


class Review(NamedTuple):
    """Reported findings per file (the detectors' and malformed markers'), every silenced finding, and the
    reported ones with the text of their lines (what `--write-baseline` fingerprints)."""

    findings: MappingProxyType[str, tuple[Diagnostic, ...]]
    silenced: tuple[Silenced, ...]
    located: tuple[Located, ...] = ()

    @property
    def reported(self) -> tuple[Diagnostic, ...]:
        return tuple(finding for found in self.findings.values() for finding in found)


EMPTY = Review(MappingProxyType({}), (), ())


def security_codes() -> tuple[str, ...]:
    return tuple(code.id for code in codes.CODES.values() if code.category == CATEGORY)


def review_folders(
    folders: Iterable[str], policy: Policy, scanned: Mapping[str, tuple[Diagnostic, ...]] | None = None
) -> Review:
    """The reading of each skill folder (each once), with the policy applied. `scanned` holds readings
    already made, by absolute folder path (the command line's helper process); the others are read here."""
    if not policy.enabled:
        return EMPTY
    from . import scan_skill

    by_file: dict[str, list[Diagnostic]] = {}
    folder_of: dict[str, str] = {}
    seen: set[Diagnostic] = set()
    for folder in dict.fromkeys(os.path.abspath(folder) for folder in folders):
        found = scanned[folder] if scanned is not None and folder in scanned else scan_skill(folder)
        for finding in found:
            # a skill nested in another (a collection's `tool/SKILL.md` and `tool/part/SKILL.md`) is read with
            # each: a finding both readings make is one finding
            if finding in seen:
                continue
            seen.add(finding)
            by_file.setdefault(finding.path, []).append(finding)
            folder_of.setdefault(finding.path, folder)
    texts = {path: _file_text(path, folder_of[path]) for path in by_file}
    return _apply(by_file, texts, policy)


def review_buffer(path: str, text: str, kind: str, policy: Policy) -> Review:
    """The reading of one open buffer (`kind`: "skill" for a SKILL.md, "bundled" for a file a skill bundles)."""
    if not policy.enabled:
        return EMPTY
    from . import scan_text

    return _apply({path: list(scan_text(path, text, kind))}, {path: text}, policy)


def _apply(by_file: dict[str, list[Diagnostic]], texts: dict[str, str], policy: Policy) -> Review:
    silenced: list[Silenced] = []
    located: list[Located] = []
    for path, found in by_file.items():
        on = []
        for finding in found:
            if finding.code in policy.disabled:
                silenced.append(Silenced(finding, "disabled", policy.disabled_reason(finding.code)))
            else:
                on.append(finding)
        text = texts.get(path, "")
        # markers are read where the reading found something: a marker in a clean file silences nothing
        outcome = apply_markers(path, text, tuple(on)) if found and policy.markers else Outcome(tuple(on), (), ())
        silenced.extend(outcome.silenced)
        lines = text.split("\n")
        for finding in (*outcome.kept, *(p for p in outcome.problems if p.code not in policy.disabled)):
            line = finding.range.start.line
            located.append(Located(finding, lines[line].rstrip("\r") if line < len(lines) else ""))
    if policy.baseline is not None:
        reported, accepted = apply_baseline(located, policy.baseline, policy.base)
        silenced.extend(accepted)
        kept = set(map(id, reported))
        located = [item for item in located if id(item.diagnostic) in kept]
    else:
        reported = [item.diagnostic for item in located]
    per_file: dict[str, list[Diagnostic]] = {}
    for finding in sorted(reported, key=lambda d: d.sort_key):
        per_file.setdefault(finding.path, []).append(finding)
    silenced.sort(key=lambda item: item.diagnostic.sort_key)
    located.sort(key=lambda item: item.diagnostic.sort_key)
    findings = MappingProxyType({path: tuple(found) for path, found in per_file.items()})
    return Review(findings, tuple(silenced), tuple(located))


def _file_text(path: str, folder: str) -> str:
    """The start of a file the detectors reported on (at most MAX_SECURITY_FILE_BYTES, as they read it), for
    its markers and line texts: never a link, never outside its skill folder, never a FIFO; "" otherwise."""
    if not resolves_within(path, folder):
        return ""
    try:
        descriptor = os.open(path, _READ_FLAGS)
    except OSError:
        return ""
    try:
        import stat

        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return ""
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(MAX_SECURITY_FILE_BYTES)
    except OSError:
        return ""
    finally:
        os.close(descriptor)
    return data.decode("utf-8", errors="replace")


# Albedo's own errors that already say a file could not be read (and keep its skill out). Beside one of them,
# the reading's `security-not-fully-read` on the same file says nothing new, so a report that shows both
# keeps Albedo's; a security-only report (`check --security`) keeps the reading's, its only word on the file.
ALREADY_UNREAD = frozenset(
    code.id for code in (codes.UNREADABLE, codes.ENCODING, codes.SKILL_FILE_TOO_LARGE, codes.SKILL_FILE_NOT_REGULAR)
)


def beside_own(security: Iterable[Diagnostic], own: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    """The reading's findings to show beside Albedo's own: none repeating that a file could not be read."""
    unread = {diagnostic.path for diagnostic in own if diagnostic.code in ALREADY_UNREAD}
    return tuple(
        finding
        for finding in security
        if not (finding.code == SECURITY_NOT_FULLY_READ.id and finding.path in unread)
    )
