"""`check PATH`: validate what PATH names (targets.py), print every finding; exit 1 when any is an error."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from ..options import add_catalog_options
from ..output import (
    display_path,
    folder_from_here,
    path_from_here,
    plural,
    print_json,
    printable,
    say_where_paths_are_from,
    show_paths_from,
    use_safe_text_output,
)
from ..program import EXIT_FINDINGS, EXIT_OK, PROG
from ..security import CATEGORY, add_security_options, disabled_names, silenced_summary, with_security

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ...skills.core.model import Catalog
    from ..fixing import FileChange
    from ..reading_ahead import ReadingAhead
    from ..targets import Target

FORMATS = ("text", "json", "sarif", "github")


def configure_check(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        metavar="PATH",
        nargs="*",
        default=[],
        help="what to check: a skill folder or its SKILL.md (checked as a single skill; several may be named, "
        "the way pre-commit passes files), a skills root, a folder of skill folders, a workspace "
        "(default: the workspace found from the current folder upward), or any other folder: every SKILL.md "
        "beneath it, such as a downloaded collection",
    )
    add_catalog_options(parser, positional=False)
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: `path:line:col: severity code message` (summary on stderr); json: every diagnostic and the "
        "counts; sarif: SARIF 2.1.0; github: GitHub Actions annotations (summary on stderr) (default: text)",
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
    parser.add_argument(
        "--diff",
        action="store_true",
        help="print the fixes as a patch `git apply` applies (paths from the top of the git repository); write nothing",
    )
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
    from ..checking import reject_usage
    from ..targets import check_target

    reject_usage(args)
    target = check_target(args)
    show_paths_from(target.base, args.home)
    ahead = start_reading_ahead(target, args)
    try:
        return _check(target, args, ahead)
    finally:
        if ahead is not None:
            ahead.close()


def start_reading_ahead(target: Target, args: argparse.Namespace) -> ReadingAhead | None:
    """A helper process reading skill folders for the security reading while discovery runs, when the
    reading will happen on the files as they are now (not after `--fix` rewrote them, not for `--diff`)."""
    if args.fix or args.diff or CATEGORY in disabled_names(args):
        return None
    from ..checking import folders_to_read
    from ..reading_ahead import ReadingAhead

    return ReadingAhead.start(folders_to_read(target, args))


def _check(target: Target, args: argparse.Namespace, ahead: ReadingAhead | None) -> int:
    from ..checking import examined_paths, findings_of, load_target, with_command_findings
    from ..targets import require_examined

    catalog = load_target(target, args)
    require_examined(target, examined_paths(catalog), [root.path for root in catalog.roots])
    if args.diff:
        return print_diff(catalog, args.unsafe, target.base)
    if args.fix and apply_fixes(catalog, args.unsafe):
        catalog = load_target(target, args)  # what is left, as the files are now
    catalog = with_command_findings(catalog, target)
    if args.hosts:
        from .hosts import with_host_findings

        only = list(target.files) if target.kind == "files" else None
        workspace = target.path if target.kind == "workspace" else target.base
        assert workspace is not None
        catalog = with_host_findings(catalog, args, only, workspace)
    given = list(target.files) if target.kind == "files" else None
    catalog, review = with_security(catalog, args, given, target.base, ahead)
    findings = findings_of(catalog)
    described = target.describe()
    if described is not None:
        print(f"{PROG}: {described}", file=sys.stderr)
    if args.format == "json":
        from ..formats.json import check_report

        print_json(check_report(findings, review.silenced))
    elif args.format == "sarif":
        from ..formats.sarif import sarif_log

        print_json(sarif_log(findings.diagnostics, target.base))
    else:
        from ..formats.text import format_diagnostic, summary

        use_safe_text_output()
        if findings.diagnostics:
            say_where_paths_are_from(PROG)
        if args.format == "github":
            from ..formats.github import github_annotation

            for diagnostic in findings.diagnostics:
                print(github_annotation(diagnostic))
        else:
            for diagnostic in findings.diagnostics:
                print(format_diagnostic(diagnostic))
        sys.stdout.flush()
        print(summary(findings), file=sys.stderr)
        silenced = silenced_summary(review)
        if silenced is not None:
            print(silenced, file=sys.stderr)
    if target.cut is not None:  # a walk cut short read only part of what was named: never a pass
        return EXIT_FINDINGS
    if args.security:  # an audit: anything the reading reports fails it
        return EXIT_FINDINGS if review.reported else EXIT_OK
    return EXIT_FINDINGS if findings.counts["error"] else EXIT_OK


def apply_fixes(catalog: Catalog, unsafe: bool) -> bool:
    """Write the fixes; report each on stderr. Whether any file changed."""
    from ..fixing import plan_fixes, write_change
    from ..formats.text import format_location

    plan = plan_fixes(catalog, unsafe)
    if plan.changes or plan.outside:
        say_where_paths_are_from(PROG)
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
        shown = printable(path_from_here(change.path))  # a command to type here
        print(
            f"{PROG}: left alone outside the workspace: {shown} ({plural(len(change.applied), 'fix', 'fixes')}); "
            f"fix it with `{PROG} check {shown} --fix`",
            file=sys.stderr,
        )


def print_diff(catalog: Catalog, unsafe: bool, workspace: str) -> int:
    """`--diff`: the fixes as a patch on stdout, nothing written; the exit status is the check's. Its paths
    are relative to the top folder of the git repository the workspace is in (else to the workspace):
    `git apply` reads a patch's paths from there, whichever of the repository's folders it runs in."""
    from ..fixing import plan_fixes
    from ..patch import fix_patch
    from ..workspace import repository_top

    use_safe_text_output()
    plan = plan_fixes(catalog, unsafe)
    top = repository_top(workspace) or workspace
    if plan.changes and top != os.getcwd():
        print(f"{PROG}: the patch's paths are relative to {printable(folder_from_here(top))}", file=sys.stderr)

    def shown(path: str) -> str:  # git's own quoting (patch.git_path) keeps the bytes exact
        return os.path.relpath(path, top) if path.startswith(top.rstrip(os.sep) + os.sep) else path

    for change in plan.changes:
        shown_new = shown(change.renamed_to) if change.renamed_to else None
        sys.stdout.write(fix_patch(change, shown(change.path), shown_new))
    fixes = sum(len(change.applied) for change in plan.changes)
    files = plural(len(plan.changes), "file")
    fixes_shown = plural(fixes, "fix", "fixes")
    print(f"{PROG}: {fixes_shown} in {files} would be applied; nothing was written", file=sys.stderr)
    report_outside(plan.outside)
    return EXIT_FINDINGS if catalog.diagnostic_counts["error"] else EXIT_OK


