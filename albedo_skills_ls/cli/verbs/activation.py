"""The activation verbs: `commands`, `invoke`, `resources`, `read`. Each prints the same JSON as the
server's `workspace/executeCommand` route of the same purpose, computed by the same engine function."""

from __future__ import annotations

import argparse
import os

from ..options import add_catalog_options
from ..output import print_json
from ..program import EXIT_OK, PROG
from ..workspace import load_catalog


def configure_commands(parser: argparse.ArgumentParser) -> None:
    add_catalog_options(parser)


def run_commands(args: argparse.Namespace) -> int:
    from ...skills.activation import command_catalog

    print_json(command_catalog(load_catalog(args)))
    return EXIT_OK


def configure_invoke(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("command", metavar="COMMAND", help="a slash command (`/demo`, `/skill:model`) or a skill name")
    parser.add_argument("arguments", metavar="ARGUMENTS", nargs="?", default="", help="text passed to the skill as is")
    parser.add_argument(
        "--user", action="store_true", help="print the user activation (intent and model input) instead of the model's"
    )
    add_catalog_options(parser, workspace_positional=False)


def run_invoke(args: argparse.Namespace) -> int:
    from ...skills.activation import invoke
    from ...skills.catalog import reload_summary

    catalog = load_catalog(args)
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


def _catalog_skill(args: argparse.Namespace):
    from ...skills.errors import Refused

    skill = load_catalog(args).skill(args.name.removeprefix("/skill:").removeprefix("/"))
    if skill is None:
        raise Refused(f"no skill named `{args.name}` in the catalog: run `{PROG} commands` to list them")
    return skill


def configure_resources(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the skill's name")
    add_catalog_options(parser, workspace_positional=False)


def run_resources(args: argparse.Namespace) -> int:
    from ...skills.resources import list_resources

    skill = _catalog_skill(args)
    print_json(list_resources(skill.name, os.path.dirname(skill.path)))
    return EXIT_OK


def configure_read(parser: argparse.ArgumentParser) -> None:
    from ...skills.limits import DEFAULT_READ_LIMIT

    parser.add_argument("name", metavar="NAME", help="the skill's name")
    parser.add_argument(
        "resource", metavar="RESOURCE", nargs="?", default="SKILL.md", help="a path inside the skill (default: SKILL.md)"
    )
    parser.add_argument("--offset", type=int, default=0, help="the first byte to read (default: 0)")
    parser.add_argument(
        "--limit", type=int, default=DEFAULT_READ_LIMIT, help="bytes to read; pages are at most 65,536 (default: 16,384)"
    )
    add_catalog_options(parser, workspace_positional=False)


def run_read(args: argparse.Namespace) -> int:
    from ...skills.resources import read_resource

    skill = _catalog_skill(args)
    print_json(read_resource(skill.name, os.path.dirname(skill.path), args.resource, args.offset, args.limit))
    return EXIT_OK
