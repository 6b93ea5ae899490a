"""Which folders a verb reads, and discovery run with the options every catalog-reading verb shares.

Every verb names its workspace the same way: a last positional WORKSPACE or `-w/--workspace DIR`. Without
either, the workspace is found the way git finds a repository: the nearest folder, from the current one
upward, that holds `.albedo/skills`, `.agents/skills` or `.git`. The home folder is passed over (its skills
folders are the user roots, read anyway); when nothing is found, the current folder is the workspace.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, NamedTuple

from .output import display_path, printable
from .program import PROG

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..skills.core.model import Catalog

REPOSITORY_MARKER = ".git"


class UsageError(Exception):
    """A command line that names something unusable (exit 2)."""


class Workspace(NamedTuple):
    """The folder whose workspace roots are read, and how it was chosen."""

    path: str
    found: bool  # named or found upward; False when the current folder was taken for want of one


def folder_argument(value: str, what: str) -> str:
    if not os.path.exists(value):
        raise UsageError(f"{what} {value!r} does not exist")
    if not os.path.isdir(value):
        raise UsageError(f"{what} {value!r} is not a directory")
    return value


def named_workspace(args: argparse.Namespace) -> str | None:
    """The WORKSPACE the command line names (positional or `-w`), or None. Both, different: a usage error."""
    positional, option = getattr(args, "workspace", None), getattr(args, "workspace_option", None)
    if positional is not None and option is not None and positional != option:
        raise UsageError(f"two workspaces named ({positional!r} and -w {option!r}): name one")
    return positional if positional is not None else option


def workspace_markers() -> tuple[str, ...]:
    from ..skills.catalog.candidates import WORKSPACE_ROOTS

    return tuple(relative for relative, _scope in WORKSPACE_ROOTS) + (REPOSITORY_MARKER,)


def find_workspace(start: str, home: str | None) -> str | None:
    """The nearest folder from `start` upward holding a workspace skills root or `.git` (not the home
    folder, whose skills folders are user roots), or None."""
    markers = workspace_markers()
    skip = os.path.realpath(home) if home is not None else None
    folder = os.path.abspath(start)
    while True:
        if os.path.realpath(folder) != skip and any(
            os.path.exists(os.path.join(folder, marker)) for marker in markers
        ):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def repository_top(folder: str) -> str | None:
    """The top folder of the git repository `folder` is in (the nearest folder upward holding `.git`, a
    folder or a worktree's file), or None."""
    current = os.path.abspath(folder)
    while True:
        if os.path.exists(os.path.join(current, REPOSITORY_MARKER)):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def home_folder(args: argparse.Namespace) -> str:
    return args.home if args.home is not None else os.path.expanduser("~")


def workspace_of(args: argparse.Namespace) -> Workspace:
    """The workspace a verb reads: the one named, else the one found upward, else the current folder."""
    named = named_workspace(args)
    if named is not None:
        return Workspace(folder_argument(named, "workspace"), True)
    here = os.getcwd()
    found = find_workspace(here, home_folder(args))
    return Workspace(found or here, found is not None)


def load_catalog(args: argparse.Namespace, workspace: Workspace | None = None) -> Catalog:
    """Run discovery with the options `options.add_catalog_options` added. Raises UsageError for a bad
    folder. When no root exists, says on stderr which were looked for (a run that finds nothing is not an
    error: exit statuses stay those of an empty catalog)."""
    where = workspace or workspace_of(args)
    home = folder_argument(args.home, "home") if args.home is not None and args.user_roots else args.home

    from ..skills.catalog.discovery import DEFAULT_BUILTINS, discover

    builtins = DEFAULT_BUILTINS if args.builtins is None else tuple(name for name in args.builtins if name)
    catalog = discover(where.path, home, user_roots=args.user_roots, builtins=builtins)
    if not any(root.exists for root in catalog.roots):
        report_no_roots(catalog, where)
    return catalog


def report_no_roots(catalog: Catalog, where: Workspace) -> None:
    looked = ", ".join(printable(display_path(root.path)) for root in catalog.roots)
    print(f"{PROG}: no skills folder exists; looked for {looked}", file=sys.stderr)
    if not where.found:
        *most, last = workspace_markers()
        markers = f"{', '.join(most)} or {last}"
        print(
            f"{PROG}: no folder holding {markers} from {printable(where.path)} upward, so that folder was "
            "taken as the workspace; name one with WORKSPACE or -w",
            file=sys.stderr,
        )
