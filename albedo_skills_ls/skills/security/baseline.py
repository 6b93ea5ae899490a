"""The baseline file: the security findings a team accepted when it adopted the reading, so CI reports only
new ones without anyone fixing history first.

A finding's fingerprint is its code, its file (relative to the base folder, `/`-separated) and the text of
the line it starts on with runs of spaces collapsed, hashed. It survives lines added or removed elsewhere
in the file and a re-indented line; it changes when the matched line itself changes, when the file is
renamed, or for another code. Identical fingerprints (the same line twice) are counted: a baseline that
accepted two leaves a third reported.

The file is JSON, written by `check --write-baseline FILE` and meant to be committed:

    {"format": "albedo-skills-baseline", "version": 1,
     "findings": [{"fingerprint": "…", "code": "security-…", "path": "skills/x/SKILL.md", "line": 12,
                   "message": "…"}, …]}

Only `fingerprint` decides; `code`, `path`, `line` and `message` are there for the person reviewing the file.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any, Iterable, NamedTuple

from ..core.limits import MAX_BASELINE_BYTES
from ..core.model import Diagnostic
from .suppression import Silenced

BASELINE_FORMAT = "albedo-skills-baseline"
BASELINE_VERSION = 1


class BaselineError(ValueError):
    """A baseline file that cannot be used; the message names the file and what to do."""


class Located(NamedTuple):
    """A finding with the text of the line it starts on (what its fingerprint hashes)."""

    diagnostic: Diagnostic
    line_text: str


class Baseline(NamedTuple):
    path: str
    accepted: Counter  # fingerprint -> how many findings of it the file accepts


def relative_name(path: str, base: str | None) -> str:
    """The file as the baseline names it: relative to `base` when beneath it, `/`-separated, else absolute."""
    from pathlib import PurePath  # here, not at the top: `check` without a baseline never needs pathlib

    if base is not None:
        base = os.path.abspath(base)
        if path == base or path.startswith(base.rstrip(os.sep) + os.sep):
            return PurePath(os.path.relpath(path, base)).as_posix()
    return PurePath(os.path.abspath(path)).as_posix()


def fingerprint(code: str, name: str, line_text: str) -> str:
    normalized = " ".join(line_text.split())
    data = "\0".join((code, name, normalized)).encode("utf-8", "surrogateescape")
    import hashlib  # here: only baselines fingerprint (importing it loads OpenSSL)

    return hashlib.blake2b(data, digest_size=16).hexdigest()


def entries(found: Iterable[Located], base: str | None) -> list[dict[str, Any]]:
    """The baseline file's entries for these findings, in a stable order."""
    rows = []
    for item in found:
        diagnostic = item.diagnostic
        name = relative_name(diagnostic.path, base)
        rows.append(
            {
                "fingerprint": fingerprint(diagnostic.code, name, item.line_text),
                "code": diagnostic.code,
                "path": name,
                "line": diagnostic.range.start.line + 1,
                "message": diagnostic.message,
            }
        )
    rows.sort(key=lambda row: (row["path"], row["line"], row["code"], row["fingerprint"]))
    return rows


def document(found: Iterable[Located], base: str | None) -> dict[str, Any]:
    return {"format": BASELINE_FORMAT, "version": BASELINE_VERSION, "findings": entries(found, base)}


def read_baseline(path: str) -> Baseline:
    """Read a baseline file (at most MAX_BASELINE_BYTES). Raises BaselineError naming the file and the fix."""
    again = "write it again with `albedo-skills check --write-baseline FILE`"
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BASELINE_BYTES + 1)
    except OSError as exc:
        raise BaselineError(f"cannot read the baseline {path!r}: {exc.strerror or exc}; {again}") from None
    if len(data) > MAX_BASELINE_BYTES:
        raise BaselineError(
            f"the baseline {path!r} is over {MAX_BASELINE_BYTES:,} bytes, more than any baseline this program "
            f"writes; {again}"
        )
    import json  # here: `check` without a baseline reads no JSON

    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BaselineError(f"the baseline {path!r} is not JSON ({exc}); {again}") from None
    if not isinstance(value, dict) or value.get("format") != BASELINE_FORMAT:
        raise BaselineError(
            f"{path!r} is not an albedo-skills baseline (no \"format\": \"{BASELINE_FORMAT}\"); {again}"
        )
    if value.get("version") != BASELINE_VERSION:
        raise BaselineError(
            f"the baseline {path!r} has version {value.get('version')!r}; this program reads version "
            f"{BASELINE_VERSION}; {again}"
        )
    findings = value.get("findings")
    if not isinstance(findings, list) or not all(
        isinstance(row, dict) and isinstance(row.get("fingerprint"), str) for row in findings
    ):
        raise BaselineError(f"the baseline {path!r} has no list of findings with fingerprints; {again}")
    return Baseline(path, Counter(row["fingerprint"] for row in findings))


def apply_baseline(
    found: Iterable[Located], baseline: Baseline, base: str | None
) -> tuple[list[Diagnostic], list[Silenced]]:
    """(reported, silenced): each finding the baseline accepts (one per accepted count) is silenced."""
    left = Counter(baseline.accepted)
    reported: list[Diagnostic] = []
    silenced: list[Silenced] = []
    from pathlib import PurePath

    reason = f"accepted by the baseline {PurePath(baseline.path).name}"
    for item in found:
        diagnostic = item.diagnostic
        key = fingerprint(diagnostic.code, relative_name(diagnostic.path, base), item.line_text)
        if left[key] > 0:
            left[key] -= 1
            silenced.append(Silenced(diagnostic, "baseline", reason))
        else:
            reported.append(diagnostic)
    return reported, silenced
