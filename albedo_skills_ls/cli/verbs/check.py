"""`check`: validate every skill under the roots and print the diagnostics; exit 1 when any is an error."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..options import add_catalog_options
from ..output import print_json, use_safe_text_output
from ..program import EXIT_FINDINGS, EXIT_OK
from ..workspace import load_catalog

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ...skills.model import Catalog

FORMATS = ("text", "json", "sarif", "github")


def configure_check(parser: argparse.ArgumentParser) -> None:
    add_catalog_options(parser)
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: `path:line:col: severity code message` (summary on stderr); json: the catalog's "
        "diagnostics; sarif: SARIF 2.1.0; github: GitHub Actions annotations (default: text)",
    )


def run_check(args: argparse.Namespace) -> int:
    catalog = load_catalog(args)
    if args.format == "json":
        from ..formats.json import check_report

        print_json(check_report(catalog))
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
    return EXIT_FINDINGS if has_errors(catalog) else EXIT_OK


def has_errors(catalog: Catalog) -> bool:
    """Whether any finding is an error, including those the 64-diagnostic bound dropped from the list."""
    return any(d.severity == "error" for d in catalog.diagnostics) or any(
        d.severity == "error" for found in catalog.file_diagnostics.values() for d in found
    )
