"""The activation verbs: `commands`, `invoke`, `resources`, `read`. Each prints the same JSON as the
server's `workspace/executeCommand` route of the same purpose, computed by the same engine function."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from ..options import add_catalog_options, add_json_format, byte_count, text_argument
from ..output import print_json, printable
from ..program import EXIT_OK, PROG
from ..workspace import load_catalog

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ...skills.core.model import Catalog, Skill


def configure_commands(parser: argparse.ArgumentParser) -> None:
    add_catalog_options(parser)
    add_json_format(parser)


def run_commands(args: argparse.Namespace) -> int:
    from ...skills.activation.commands import command_catalog

    print_json(command_catalog(load_catalog(args)))
    return EXIT_OK


def configure_invoke(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "command",
        metavar="COMMAND",
        type=text_argument,
        help="a slash command (`/demo`, `/skill:model`) or a skill name",
    )
    parser.add_argument(
        "arguments",
        metavar="ARGUMENTS",
        nargs="?",
        default="",
        type=text_argument,
        help="text passed to the skill as is",
    )
    parser.add_argument(
        "--user",
        action="store_true",
        help="print the user activation (intent and model input) instead of the model's",
    )
    add_catalog_options(parser)
    add_json_format(parser)


def run_invoke(args: argparse.Namespace) -> int:
    from ...skills.activation.commands import invoke, resolve
    from ...skills.catalog.session import reload_summary
    from ...skills.core.errors import Refused

    catalog = load_catalog(args)
    try:
        resolve(catalog, args.command)
    except Refused:
        bare = args.command.strip().removeprefix("/skill:").removeprefix("/")
        raise Refused(not_in_catalog(catalog, bare, shown=args.command.strip())) from None
    # `/reload` on the command line has no session to swap: it discovers again and reports the difference.
    result = invoke(
        catalog,
        args.command,
        args.arguments,
        "user" if args.user else "model",
        reload=lambda: reload_summary(catalog, load_catalog(args)),
    )
    print_json(result)
    return EXIT_OK


def not_in_catalog(catalog: Catalog, name: str, shown: str | None = None) -> str:
    """Why `name` is not in the catalog: the error that keeps a skill folder of that name out (its code and
    place), or that no such skill exists."""
    from ..formats.text import format_location

    for path, found in catalog.file_diagnostics.items():
        folder = os.path.dirname(path) if os.path.basename(path) == "SKILL.md" else path
        if os.path.basename(folder) != name:
            continue
        error = next((d for d in found if d.severity == "error"), None)
        if error is not None:
            return (
                f"`{printable(name)}` is not in the catalog: {error.code} at {format_location(error)}: "
                f"{printable(error.message)}"
            )
    return f"no skill named `{printable(shown or name)}` in the catalog: run `{PROG} commands` to list them"


def catalog_skill(args: argparse.Namespace) -> Skill:
    from ...skills.core.errors import Refused

    catalog = load_catalog(args)
    name = args.name.removeprefix("/skill:").removeprefix("/")
    skill = catalog.skill(name)
    if skill is None:
        raise Refused(not_in_catalog(catalog, name, shown=args.name))
    return skill


def configure_resources(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", type=text_argument, help="the skill's name")
    add_catalog_options(parser)
    add_json_format(parser)


def run_resources(args: argparse.Namespace) -> int:
    from ...skills.resources.listing import list_resources

    skill = catalog_skill(args)
    print_json(list_resources(skill.name, skill.folder, discovery_root=skill.root))
    return EXIT_OK


def configure_read(parser: argparse.ArgumentParser) -> None:
    from ...skills.core.limits import DEFAULT_READ_LIMIT, MAX_READ_LIMIT

    parser.add_argument("name", metavar="NAME", type=text_argument, help="the skill's name")
    parser.add_argument(
        "resource",
        metavar="RESOURCE",
        nargs="?",
        default="SKILL.md",
        help="a path inside the skill (default: SKILL.md)",
    )
    parser.add_argument("--offset", type=byte_count, default=0, help="the first byte to read (default: 0)")
    parser.add_argument(
        "--limit",
        type=byte_count,
        default=DEFAULT_READ_LIMIT,
        help=f"bytes to read; pages are at most {MAX_READ_LIMIT:,} (default: {DEFAULT_READ_LIMIT:,})",
    )
    add_catalog_options(parser)
    add_json_format(parser)


def run_read(args: argparse.Namespace) -> int:
    from ...skills.resources.paging import read_resource

    skill = catalog_skill(args)
    print_json(
        read_resource(skill.name, skill.folder, args.resource, args.offset, args.limit, discovery_root=skill.root)
    )
    return EXIT_OK
