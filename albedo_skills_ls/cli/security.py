"""`check`'s security options: the reading added to the catalog's findings, `--security` (only that
category, exit 1 on any finding), `--disable CODE|security`, and the baseline (`--baseline`,
`--write-baseline`). The reading itself and the silencing rules are the engine's (skills/security/)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from .output import display_path, plural, printable
from .program import PROG
from .workspace import UsageError

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..skills.core.model import Catalog
    from ..skills.security.review import Policy, Review
    from .reading_ahead import ReadingAhead

CATEGORY = "security"


def add_security_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--security",
        action="store_true",
        help="report only the security reading (what the skills would have the model or a script do), on the "
        "skills under the roots or in the folder, skill folder or SKILL.md named; exit 1 when it finds anything "
        "not silenced",
    )
    parser.add_argument(
        "--disable",
        metavar="CODE|security",
        action="append",
        default=[],
        help="turn off one security code (e.g. security-broad-tools), or `security` for the whole reading; "
        "repeat for more. Findings of a code turned off are listed as silenced in --format json",
    )
    parser.add_argument(
        "--no-inline-ignores",
        dest="inline_ignores",
        action="store_false",
        help="honour no albedo-skills-ignore marker in the files: for auditing a skill you did not write, whose "
        "author also wrote its markers",
    )
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        default=None,
        help="silence the security findings this baseline file accepts (written by --write-baseline): CI then "
        "reports only new ones",
    )
    parser.add_argument(
        "--write-baseline",
        metavar="FILE",
        default=None,
        help="write every security finding reported now (markers and --disable applied) to FILE as a baseline "
        "(replacing it), then check with it",
    )


def disabled_names(args: argparse.Namespace) -> set[str]:
    """What `--disable` names (comma-separated, repeatable): codes, or `security` for the whole reading."""
    return {part.strip() for value in args.disable for part in value.split(",")}


def policy_of(args: argparse.Namespace, base: str | None) -> Policy:
    """The policy the options describe. Raises UsageError for an unknown code or an unusable baseline."""
    from ..skills.security.baseline import BaselineError, read_baseline
    from ..skills.security.review import Policy, security_codes

    known = security_codes()
    disabled = disabled_names(args)
    for name in disabled:
        if name != CATEGORY and name not in known:
            raise UsageError(f"--disable {name!r}: expected `security` or one of {', '.join(known)}")
    enabled = CATEGORY not in disabled
    if args.security and not enabled:
        raise UsageError("--security reports the security reading, which --disable security turns off: drop one")
    baseline = None
    if args.baseline is not None and args.write_baseline is None:
        try:
            baseline = read_baseline(args.baseline)
        except BaselineError as exc:
            raise UsageError(str(exc)) from None
    return Policy(enabled, frozenset(disabled - {CATEGORY}), baseline, base, args.inline_ignores)


def skill_folders(catalog: Catalog, given: list[str] | None) -> list[str]:
    """The folders read: those of the SKILL.md files named, else of every SKILL.md discovery examined."""
    from ..skills.document.skill_file import SKILL_FILE

    paths = given if given is not None else list(catalog.file_diagnostics)
    suffix = os.sep + SKILL_FILE
    return sorted({os.path.dirname(os.path.abspath(path)) for path in paths if path.endswith(suffix)})


def with_security(
    catalog: Catalog, args: argparse.Namespace, given: list[str] | None, base: str | None,
    ahead: ReadingAhead | None = None,
) -> tuple[Catalog, Review]:
    """The catalog's findings plus the security reading's (every one, unbounded: `check` lists them all); with
    `--security`, the reading's alone. Writes the baseline first when asked; its paths are relative to `base`
    (the workspace, or the folder checked). `ahead` is a helper process already reading some folders."""
    from types import MappingProxyType

    from ..skills.core.model import count_severities
    from ..skills.security.review import beside_own, review_folders

    policy = policy_of(args, base or catalog.workspace or os.getcwd())
    folders = skill_folders(catalog, given)
    if args.security and not folders:  # an audit that read nothing must not pass
        raise UsageError(
            "--security found no skill to read: name a workspace whose .albedo/skills or .agents/skills holds "
            "skill folders, or the SKILL.md files to read"
        )
    review = review_folders(folders, policy, ahead.scans(folders) if ahead is not None and policy.enabled else None)
    if args.write_baseline is not None:
        review = write_baseline(args.write_baseline, review, folders, policy)
    added = review.reported
    if args.security:
        kept = tuple(d for d in catalog.diagnostics if is_security(d.code))
        per_file = {
            path: found
            for path, items in catalog.file_diagnostics.items()
            if (found := tuple(d for d in items if is_security(d.code)))
        }
        counts, not_shown, dropped = count_severities(()), count_severities(()), 0
    else:
        kept, per_file = catalog.diagnostics, dict(catalog.file_diagnostics)
        counts, not_shown, dropped = catalog.diagnostic_counts, catalog.not_shown, catalog.diagnostics_dropped
        added = beside_own(added, (d for found in per_file.values() for d in found))
    for diagnostic in added:
        per_file[diagnostic.path] = per_file.get(diagnostic.path, ()) + (diagnostic,)
    added_counts = count_severities(added)
    return (
        catalog._replace(
            diagnostics=tuple(sorted(kept + added, key=lambda d: d.sort_key)),
            diagnostics_dropped=dropped,
            file_diagnostics=MappingProxyType(per_file),
            diagnostic_counts=MappingProxyType({key: counts[key] + added_counts[key] for key in counts}),
            not_shown=not_shown,
        ),
        review,
    )


def write_baseline(path: str, review: Review, folders: list[str], policy: Policy) -> Review:
    """Write the reported findings as the baseline at `path`, say so on stderr, and return the review as the
    new baseline leaves it (everything it accepted silenced)."""
    import json

    from ..skills.security.baseline import document, read_baseline
    from ..skills.security.review import review_folders

    text = json.dumps(document(review.located, policy.base), indent=2, ensure_ascii=False) + "\n"
    try:
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as handle:
            handle.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write the baseline {path!r}: {exc.strerror or exc}") from None
    count = len(review.located)
    shown = printable(display_path(path))
    print(f"{PROG}: wrote {plural(count, 'security finding')} to the baseline {shown}", file=sys.stderr)
    return review_folders(folders, policy._replace(baseline=read_baseline(path)))


def is_security(code_id: str) -> bool:
    from ..skills.core.codes import CODES

    code = CODES.get(code_id)
    return code is not None and code.category == CATEGORY


def silenced_summary(review: Review) -> str | None:
    """`2 security findings silenced: 1 by a marker, 1 by the baseline` (stderr, after the summary), or None."""
    if not review.silenced:
        return None
    by: dict[str, int] = {}
    for item in review.silenced:
        by[item.by] = by.get(item.by, 0) + 1
    words = {
        "marker": ("by a marker", "by markers"),
        "baseline": ("by the baseline",) * 2,
        "disabled": ("turned off",) * 2,
    }
    parts = [f"{count} {words[how][count != 1]}" for how, count in sorted(by.items())]
    total = plural(len(review.silenced), "security finding")
    line = f"{total} silenced ({', '.join(parts)}); `--format json` lists each with its reason"
    if "marker" in by:
        line += "; markers are written by the skill's author: `--no-inline-ignores` shows what they silence"
    return line
