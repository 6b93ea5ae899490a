"""Which folders a verb reads, and discovery run with the options every catalog-reading verb shares."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..skills.model import Catalog


class UsageError(Exception):
    """A command line that names something unusable (exit 2)."""


def folder_argument(value: str, what: str) -> str:
    if not os.path.exists(value):
        raise UsageError(f"{what} {value!r} does not exist")
    if not os.path.isdir(value):
        raise UsageError(f"{what} {value!r} is not a directory")
    return value


def load_catalog(args: argparse.Namespace) -> Catalog:
    """Run discovery with the options `options.add_catalog_options` added. Raises UsageError for a bad folder."""
    workspace = folder_argument(args.workspace, "workspace")
    home = folder_argument(args.home, "home") if args.home is not None and args.user_roots else args.home

    from ..skills.discovery import DEFAULT_BUILTINS, discover

    builtins = DEFAULT_BUILTINS if args.builtins is None else tuple(name for name in args.builtins if name)
    return discover(workspace, home, user_roots=args.user_roots, builtins=builtins)
