"""`check`: validate every skill under the roots and print the diagnostics; exit 1 when any is an error."""

from __future__ import annotations

import argparse
import os
import sys
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..options import add_catalog_options
from ..security import add_security_options, silenced_summary, with_security
from ..output import display_path, plural, print_json, printable, use_safe_text_output
from ..program import EXIT_FINDINGS, EXIT_OK, PROG
from ..workspace import UsageError, load_catalog, named_workspace

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ...skills.model import Catalog
    from ..fixing import FileChange

FORMATS = ("text", "json", "sarif", "github")


def configure_check(parser: argparse.ArgumentParser) -> None:
    add_catalog_options(parser, "WORKSPACE|SKILL.md")
    parser.add_argument(
        "more_files",
        metavar="SKILL.md",
        nargs="*",
        default=[],
        help="more SKILL.md files: each file is checked as a single skill, all in one report (the way "
        "pre-commit passes the files it checks)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: `path:line:col: severity code message` (summary on stderr); json: the catalog's "
        "diagnostics; sarif: SARIF 2.1.0; github: GitHub Actions annotations (default: text)",
    )
    parser.add_argument(
        "--fix",
        action="store_true",
        help="apply the quick fixes that cannot change what a skill means (a misspelt key renamed, a list "
        "of allowed-tools joined, skill.md renamed SKILL.md), report them on stderr, then check again",
    )
    parser.add_argument(
        "--unsafe",
        action="store_true",
        help="with --fix or --diff: also the fixes that change a skill's identity (setting `name` to the "
        "folder's name) and the editor's other quick fixes",
    )
    parser.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    from .hosts import host_ids_argument

    parser.add_argument(
        "--hosts",
        metavar="ID,...",
        action="append",
        type=host_ids_argument,
        default=None,
        help="also report these agents' refusals (host-skipped, host-not-seen, host-budget), e.g. "
        "codex,claude-code; `albedo-skills hosts` lists every agent's verdict. Albedo's own findings and exit "
        "status are unchanged",
    )
    add_security_options(parser)


def run_check(args: argparse.Namespace) -> int:
    if args.unsafe and not (args.fix or args.diff):
        raise UsageError("--unsafe goes with --fix or --diff")
    if args.diff and args.format != "text":
        raise UsageError("--diff prints a unified diff; it takes no --format")
    named = named_workspace(args)
    files = [named, *args.more_files] if named is not None and args.more_files else None
    is_file = named is not None and os.path.exists(named) and not os.path.isdir(named)  # a FIFO too: never opened
    if files is not None:
        for given in files:
            if os.path.isdir(given):
                raise UsageError(f"{given!r} is a folder: name one WORKSPACE, or only SKILL.md files")

    def load() -> Catalog:
        if files is not None:
            return check_files(files)
        return check_file(named) if is_file else load_catalog(args)

    catalog = load()
    if args.diff:
        return print_diff(catalog, args.unsafe)
    if args.fix and apply_fixes(catalog, args.unsafe):
        catalog = load()  # what is left, as the files are now
    given = files if files is not None else [named] if is_file else None
    if args.hosts:
        from .hosts import with_host_findings

        catalog = with_host_findings(catalog, args, [os.path.abspath(path) for path in given] if given else None)
    catalog, review = with_security(catalog, args, given)
    if args.format == "json":
        from ..formats.json import check_report

        print_json(check_report(catalog, review.silenced))
    elif args.format == "sarif":
        from ..formats.sarif import sarif_log

        print_json(sarif_log(catalog))
    elif args.format == "github":
        from ..formats.github import github_annotation

        use_safe_text_output()
        for diagnostic in catalog.diagnostics:
            print(github_annotation(diagnostic))
    else:
        from ..formats.text import format_diagnostic, summary

        use_safe_text_output()
        for diagnostic in catalog.diagnostics:
            print(format_diagnostic(diagnostic))
        sys.stdout.flush()
        print(summary(catalog), file=sys.stderr)
        silenced = silenced_summary(review)
        if silenced is not None:
            print(silenced, file=sys.stderr)
    if args.security:  # an audit: anything the reading reports fails it
        return EXIT_FINDINGS if review.reported else EXIT_OK
    return EXIT_FINDINGS if has_errors(catalog) else EXIT_OK


def apply_fixes(catalog: Catalog, unsafe: bool) -> bool:
    """Write the fixes; report each on stderr. Whether any file changed."""
    from ..fixing import plan_fixes, write_change
    from ..formats.text import format_location

    plan = plan_fixes(catalog, unsafe)
    changed = fixed = 0
    for change in plan.changes:
        refusal = write_change(change)
        if refusal is not None:
            print(f"{PROG}: not fixed: {printable(display_path(refusal.path))}: {refusal.reason}", file=sys.stderr)
            continue
        changed += 1
        for applied in change.applied:
            fixed += 1
            print(
                f"{format_location(applied.diagnostic)}: fixed {applied.diagnostic.code}: {printable(applied.title)}",
                file=sys.stderr,
            )
    if fixed:
        print(f"{PROG}: fixed {plural(fixed, 'problem')} in {plural(changed, 'file')}", file=sys.stderr)
    report_outside(plan.outside)
    return changed > 0


def report_outside(outside: list[FileChange]) -> None:
    """Say which files had fixes but lie outside the workspace, and how to fix each."""
    for change in outside:
        shown = printable(display_path(change.path))
        print(
            f"{PROG}: left alone outside the workspace: {shown} ({plural(len(change.applied), 'fix', 'fixes')}); "
            f"fix it with `{PROG} check {shown} --fix`",
            file=sys.stderr,
        )


def print_diff(catalog: Catalog, unsafe: bool) -> int:
    """`--diff`: the fixes as a unified diff on stdout, nothing written; the exit status is the check's."""
    from ..fixing import plan_fixes, unified_diff

    use_safe_text_output()
    plan = plan_fixes(catalog, unsafe)
    for change in plan.changes:
        shown_new = printable(display_path(change.renamed_to)) if change.renamed_to else None
        sys.stdout.write(unified_diff(change, printable(display_path(change.path)), shown_new))
    fixes = sum(len(change.applied) for change in plan.changes)
    files = plural(len(plan.changes), "file")
    fixes_shown = plural(fixes, "fix", "fixes")
    print(f"{PROG}: {fixes_shown} in {files} would be applied; nothing was written", file=sys.stderr)
    report_outside(plan.outside)
    return EXIT_FINDINGS if has_errors(catalog) else EXIT_OK


def has_errors(catalog: Catalog) -> bool:
    """Whether any finding is an error. The bound keeps errors first, so one is always in the list shown."""
    return catalog.diagnostic_counts["error"] > 0


def check_files(given: list[str]) -> Catalog:
    """Several `SKILL.md` files (as pre-commit passes them), each checked as `check_file` checks one, in
    one report. They are not a catalog: no collision rule applies between them."""
    from ...skills.discovery import bound_diagnostics
    from ...skills.model import Catalog, count_severities

    parts = [check_file(path) for path in dict.fromkeys(given)]
    per_file = {path: found for part in parts for path, found in part.file_diagnostics.items()}
    found = [diagnostic for diagnostics in per_file.values() for diagnostic in diagnostics]
    kept, dropped = bound_diagnostics(found)
    skills = sorted((skill for part in parts for skill in part.skills), key=lambda skill: (skill.name, skill.path))
    return Catalog(
        None,
        (),
        tuple(skills),
        tuple(kept),
        len(dropped),
        parts[0].builtins,
        MappingProxyType(per_file),
        count_severities(found),
        count_severities(dropped),
    )


def check_file(given: str) -> Catalog:
    """One `SKILL.md` checked as a single skill, as an editor checks a file outside every root: its folder's
    name is the expected name and no collision rule applies. Read as safely as discovery reads."""
    from ...skills.catalog import check_buffer
    from ...skills.discovery import SKILL_FILE, bound_diagnostics, discover, read_skill_bytes
    from ...skills.frontmatter import decode
    from ...skills.model import Catalog, Skill, count_severities
    from ...skills.rules import check_document

    path = os.path.abspath(given)
    folder, file_name = os.path.split(path)
    if file_name != SKILL_FILE:
        wrong_case = file_name.lower() == SKILL_FILE.lower()
        hint = f" (rename it to {SKILL_FILE}: Albedo reads no other spelling)" if wrong_case else ""
        raise UsageError(f"{given!r} is not a directory, nor a file named {SKILL_FILE}{hint}")
    nothing = discover(None, user_roots=False)  # no roots: the file is a skill of its own
    data, _info, problem = read_skill_bytes(path, folder)
    text, problem = decode(data, path) if data is not None else (None, problem)
    skills: tuple[Skill, ...] = ()
    if text is None:
        assert problem is not None
        diagnostics: tuple = (problem,)
    else:
        diagnostics = check_buffer(nothing, path, text)
        parsed = check_document(text, path, os.path.basename(folder))
        if parsed.valid and parsed.name is not None:
            description = (parsed.description or "").removesuffix("\n")
            skills = (Skill(parsed.name, description, path, f"/{parsed.name}", "workspace", os.path.dirname(folder)),)
    kept, dropped = bound_diagnostics(list(diagnostics))
    return Catalog(
        None,
        (),
        skills,
        tuple(kept),
        len(dropped),
        nothing.builtins,
        MappingProxyType({path: diagnostics}),
        count_severities(diagnostics),
        count_severities(dropped),
    )
