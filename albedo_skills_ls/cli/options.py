"""Argument parsing: the verb table and the options every catalog-reading verb shares.

A verb's own options live in its module (`verbs/<group>.py`, a `configure_<verb>(parser)` function); the table
below names that module, so a run imports and configures only the verb it runs (`--help` of the program
lists every verb from the table alone).
"""

from __future__ import annotations

import argparse
from importlib import import_module
from typing import Callable, NamedTuple

from .. import __version__
from .program import PROG


class Verb(NamedTuple):
    """One subcommand: its name, one-line help, and the module that configures and runs it."""

    name: str
    help: str
    module: str  # `albedo_skills_ls.cli.verbs.<module>` has `configure_<name>(parser)` and `run_<name>(args)`

    def load(self) -> tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]:
        verbs = import_module(f"{__package__}.verbs.{self.module}")
        return getattr(verbs, f"configure_{self.name}"), getattr(verbs, f"run_{self.name}")


VERBS: tuple[Verb, ...] = (
    Verb(
        "check",
        "validate every skill under the roots, or one SKILL.md, and print the diagnostics (exit 1 on an error)",
        "check",
    ),
    Verb("catalog", "print the skill catalog the model and the command menu see", "catalog"),
    Verb("commands", "list the session's commands (built-ins, then skills) as JSON", "activation"),
    Verb("invoke", "activate a skill as the model would see it (or as the user typed it, --user)", "activation"),
    Verb("resources", "list a skill's resource files", "activation"),
    Verb("read", "read one bounded page of a skill's file", "activation"),
    Verb("new", "create a valid skill skeleton NAME/SKILL.md (never overwrites)", "new"),
    Verb("rename", "rename a skill: its folder, name:, every mention in the workspace and its mirror links (writes; --dry-run, --diff do not)", "rename"),
    Verb("references", "list every mention of a skill: /name, links into its folder, skills: lists, mirror links", "rename"),
    Verb("hosts", "for each SKILL.md, which other agents (Codex, Claude Code, Gemini CLI...) load it, and why not", "hosts"),
)


def add_catalog_options(parser: argparse.ArgumentParser, workspace_what: str = "WORKSPACE") -> None:
    """The options every catalog-reading verb shares: WORKSPACE (the last positional, or -w DIR), --home,
    --no-user-roots, --builtin. Call it after the verb's own positionals."""
    workspace_help = (
        "the workspace folder whose .albedo/skills and .agents/skills are read (default: the nearest folder "
        "from the current one upward holding .albedo/skills, .agents/skills or .git)"
    )
    parser.add_argument("workspace", metavar=workspace_what, nargs="?", default=None, help=workspace_help)
    parser.add_argument(
        "-w", "--workspace", dest="workspace_option", metavar="DIR", default=None, help=workspace_help
    )
    parser.add_argument(
        "--home",
        metavar="DIR",
        default=None,
        help="the home folder for the user roots ~/.albedo/skills, ~/.agents/skills and ~/.prime/agent/skills "
        "(default: your home folder)",
    )
    parser.add_argument(
        "--no-user-roots",
        dest="user_roots",
        action="store_false",
        help="read only the workspace roots, not the three user roots",
    )
    parser.add_argument(
        "--builtin",
        metavar="NAME",
        dest="builtins",
        action="append",
        type=text_argument,
        default=None,
        help="a built-in command name; repeat for each (default: help, model and reload). A skill with a "
        "built-in's name is reachable as /skill:NAME. `--builtin ''` means no built-ins",
    )


def _chosen_verb(argv: list[str]) -> str | None:
    """The verb a command line names: its first word that is not an option (the program's own options,
    `--help` and `--version`, take no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    """The parser for this command line. When it names a verb, only that verb's parser is built and
    configured (argparse builds a whole parser per verb, and a run uses one); otherwise, for `--help` or a
    misspelt verb, every verb is listed."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Discover and validate Agent Skills (SKILL.md) the way Albedo does.",
        epilog="Exit status: 0 ok, 1 `check` found an error (or a request was refused), 2 usage error, 3 a bug.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    chosen = _chosen_verb(argv)
    named = [verb for verb in VERBS if verb.name == chosen]
    for verb in named or VERBS:
        sub = subparsers.add_parser(verb.name, help=verb.help, description=verb.help, formatter_class=HelpFormatter)
        if verb.name == chosen:
            configure, run = verb.load()
            configure(sub)
            sub.set_defaults(run=run)
    return parser


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, told the terminal's width so that it does not import `shutil` (and zlib, bz2
    and lzma with it) to ask: argparse builds one at every `add_argument`, help or not."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, _help_width() if width is None else width)


def _help_width() -> int:
    """What argparse would compute with `shutil.get_terminal_size()`: $COLUMNS, else the terminal's width,
    else 80; less 2."""
    import os
    import sys

    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns if columns > 0 else DEFAULT_HELP_COLUMNS) - 2


DEFAULT_HELP_COLUMNS = 80  # shutil.get_terminal_size's fallback


def byte_count(text: str) -> int:
    """An argparse type: a whole number of bytes, 0 or more (anything else is a usage error, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; give 0 or more")
    return value


def text_argument(text: str) -> str:
    """An argparse type for words that are text, not paths (a command, its arguments, a skill name): bytes
    that are not UTF-8 reach Python as lone surrogates, which no JSON or terminal can carry, so they are
    refused as a usage error (exit 2) rather than passed on. Paths keep their bytes: the file system takes them."""
    from ..skills.undecodable import LONE_SURROGATE
    from .output import printable

    bad = LONE_SURROGATE.search(text)
    if bad is not None:
        raise argparse.ArgumentTypeError(
            f"{printable(text)!s} is not valid UTF-8 text (byte {printable(bad.group())} at character "
            f"{bad.start() + 1}); pass the text in UTF-8"
        )
    return text
