"""`catalog`: the engine's JSON snapshot, a table for people, or the block the model sees."""

from __future__ import annotations

import argparse
import sys

from ..options import add_catalog_options
from ..output import print_json, use_safe_text_output
from ..program import EXIT_OK
from ..workspace import load_catalog

FORMATS = ("json", "text", "prompt")


def configure_catalog(parser: argparse.ArgumentParser) -> None:
    add_catalog_options(parser)
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="json",
        help="json: the catalog snapshot; text: a table of skills, then diagnostics; prompt: the block the "
        "model sees (default: json)",
    )


def run_catalog(args: argparse.Namespace) -> int:
    catalog = load_catalog(args)
    if args.format == "json":
        print_json(catalog.to_json())
    elif args.format == "prompt":
        from ...skills.activation.prompt import prompt_block

        use_safe_text_output()
        sys.stdout.write(prompt_block(catalog))
    else:
        from ..formats.text import catalog_table

        use_safe_text_output()
        sys.stdout.write(catalog_table(catalog))
    return EXIT_OK
