"""Argument parsing: the verb table and the options every catalog-reading verb shares.

A verb's own options live in its module (`verbs/<group>.py`, a `configure_<verb>(parser)` function); the table
below names that module, so a run imports and configures only the verb it runs (`--help` of the program
lists every verb from the table alone).
"""

from __future__ import annotations

import argparse
from importlib import import_module
from typing import Any, Callable, NamedTuple

from .. import __version__
from .program import PROG


class Verb(NamedTuple):
    """One subcommand: its name, one-line help, the module that configures and runs it, examples of its use
    (its `--help` lists them; a test parses each), and the shared options that mean nothing for it, each with
    the reason its refusal gives."""

    name: str
    help: str
    module: str  # `albedo_skills_ls.cli.verbs.<module>` has `configure_<name>(parser)` and `run_<name>(args)`
    examples: tuple[tuple[str, str], ...] = ()  # (command line after the program's name, what it does)
    refuses: tuple[tuple[str, str], ...] = ()  # (shared option, why it means nothing here)

    def load(self) -> tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]:
        verbs: Any = import_module(f"{__package__}.verbs.{self.module}")
        # Each verb's two functions named where they are dispatched, so a search for `run_check` finds its
        # caller; only the module of the verb being run is imported.
        functions = {
            "check": lambda: (verbs.configure_check, verbs.run_check),
            "catalog": lambda: (verbs.configure_catalog, verbs.run_catalog),
            "commands": lambda: (verbs.configure_commands, verbs.run_commands),
            "invoke": lambda: (verbs.configure_invoke, verbs.run_invoke),
            "resources": lambda: (verbs.configure_resources, verbs.run_resources),
            "read": lambda: (verbs.configure_read, verbs.run_read),
            "new": lambda: (verbs.configure_new, verbs.run_new),
            "hosts": lambda: (verbs.configure_hosts, verbs.run_hosts),
            "rename": lambda: (verbs.configure_rename, verbs.run_rename),
            "references": lambda: (verbs.configure_references, verbs.run_references),
            "mcp": lambda: (verbs.configure_mcp, verbs.run_mcp),
        }
        return functions[self.name]()


_NO_AGENTS = "it prints Albedo's own view; `check --hosts` and the `hosts` verb show other agents'"

VERBS: tuple[Verb, ...] = (
    Verb(
        "check",
        "validate what PATH names (a skill folder, a SKILL.md, a skills root, a folder of skills or a workspace) "
        "and print every finding (exit 1 on an error)",
        "check",
        (
            ("check", "the workspace found from the current folder upward: its two roots and the user roots"),
            ("check .agents/skills/pdf-tools", "one skill folder (or name its SKILL.md)"),
            ("check plugins/kit/skills", "any folder of skill folders, with Albedo's rules"),
            ("check --no-user-roots --format sarif > albedo.sarif", "the workspace alone, for code scanning"),
            ("check --diff > fixes.patch", "the safe fixes as a patch; `git apply fixes.patch` applies it"),
            ("check --fix --unsafe", "apply every quick fix, then check again"),
            ("check --hosts codex,claude-code", "also what those agents refuse"),
        ),
    ),
    Verb(
        "catalog",
        "print the skill catalog the model and the command menu see",
        "catalog",
        (
            ("catalog --format text", "a table of the skills, then the catalog's diagnostics"),
            ("catalog --format prompt --no-user-roots", "the block the model reads, from the workspace alone"),
        ),
        (("--hosts", _NO_AGENTS),),
    ),
    Verb(
        "commands",
        "list the session's commands (built-ins, then skills) as JSON",
        "activation",
        (("commands --builtin help --builtin reload", "with only these two built-in commands"),),
        (("--hosts", _NO_AGENTS),),
    ),
    Verb(
        "invoke",
        "activate a skill as the model would see it (or as the user typed it, --user)",
        "activation",
        (
            ("invoke /pdf-tools 'fill in form.pdf'", "what the model receives when a skill is activated"),
            ("invoke pdf-tools --user", "what the user's `/pdf-tools` would send"),
        ),
        (("--hosts", _NO_AGENTS),),
    ),
    Verb(
        "resources",
        "list a skill's resource files",
        "activation",
        (("resources pdf-tools", "the files under the skill's folder, as the model may read them"),),
        (("--hosts", _NO_AGENTS),),
    ),
    Verb(
        "read",
        "read one bounded page of a skill's file",
        "activation",
        (
            ("read pdf-tools", "the first page of its SKILL.md"),
            ("read pdf-tools references/forms.md --offset 16384", "the next page of a resource"),
        ),
        (("--hosts", _NO_AGENTS),),
    ),
    Verb(
        "new",
        "create a valid skill skeleton NAME/SKILL.md (never overwrites)",
        "new",
        (
            ("new release-notes", "WORKSPACE/.agents/skills/release-notes/SKILL.md"),
            ("new release-notes --root user", "~/.agents/skills/release-notes/SKILL.md"),
        ),
        (
            ("--format", "it writes one SKILL.md and prints one line naming it"),
            ("--no-user-roots", "it reads no roots; `--root` says where the skill is written"),
            ("--builtin", "it reads no catalog, so no command can collide"),
            ("--hosts", "it writes a skill; `check --hosts` then says what other agents make of it"),
        ),
    ),
    Verb(
        "hosts",
        "for each SKILL.md, which other agents (Codex, Claude Code, Gemini CLI...) load it, and why not",
        "hosts",
        (
            ("hosts", "every agent's verdict on every skill of the workspace and the home folder"),
            ("hosts --host codex,claude-code --format json", "two agents, as JSON"),
            ("hosts .agents/skills/pdf-tools/SKILL.md --no-user-roots", "one file, the home folder's skills left out"),
        ),
        (
            ("--builtin", "built-in commands are Albedo's; other agents' verdicts do not depend on them"),
            ("--hosts", "name the agents with `--host ID` (repeat it, or separate ids with commas)"),
        ),
    ),
    Verb(
        "rename",
        "rename a skill: its folder, name:, every mention in the workspace and its mirror links "
        "(writes; --dry-run and --diff do not)",
        "rename",
        (
            ("rename pdf-tools pdf-forms --dry-run", "every change it would make, nothing written"),
            ("rename pdf-tools pdf-forms --diff > rename.patch", "the change as a patch"),
            ("rename pdf-tools pdf-forms", "rename it: the folder, `name:`, every `/pdf-tools` and link, mirror links"),
            ("rename pdf-tools pdf-forms", "after an editor renamed the folder: re-point the mirror links"),
        ),
        (
            ("--format", "it prints the changes as lines (`--dry-run`) or a patch (`--diff`)"),
            ("--hosts", _NO_AGENTS),
        ),
    ),
    Verb(
        "references",
        "list every mention of a skill: /name, links into its folder, skills: lists, mirror links",
        "rename",
        (
            ("references pdf-tools", "PATH:LINE:COLUMN KIND LINE for each mention"),
            ("references pdf-tools --format json", "the mentions with their ranges, as JSON"),
        ),
        (("--hosts", _NO_AGENTS),),
    ),
    Verb(
        "mcp",
        "serve the catalog to MCP hosts (Claude Code, Codex, Gemini CLI, VS Code, Cursor) over stdio or HTTP: the Skills "
        "extension, skill:// resources, one prompt per command (needs the `mcp` extra)",
        "mcp",
        (
            ("mcp", "the workspace found from the current folder upward, and the user roots"),
            ("mcp -w ~/work/repo --no-user-roots", "one workspace's skills only"),
            ("mcp --http 8765", "streamable HTTP at http://127.0.0.1:8765/mcp"),
        ),
        (
            ("--format", "it speaks MCP (JSON-RPC) on stdin and stdout"),
            ("--hosts", _NO_AGENTS),
        ),
    ),
)


def add_catalog_options(parser: argparse.ArgumentParser, positional: bool = True, catalog: bool = True) -> None:
    """The options every catalog-reading verb shares: WORKSPACE (the last positional, unless the verb has
    its own, and -w DIR), --home, and, for a verb that reads the catalog, --no-user-roots and --builtin.
    Call it after the verb's own positionals."""
    workspace_help = (
        "the workspace folder whose .albedo/skills and .agents/skills are read (default: the nearest folder "
        "from the current one upward holding .albedo/skills, .agents/skills or .git)"
    )
    if positional:
        parser.add_argument("workspace", metavar="WORKSPACE", nargs="?", default=None, help=workspace_help)
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
    if not catalog:
        return
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


def add_json_format(parser: argparse.ArgumentParser) -> None:
    """`--format json`, for the verbs that print JSON only: the shared option, with its one choice."""
    parser.add_argument("--format", choices=("json",), default="json", help="json: the only format (default: json)")


def _chosen_verb(argv: list[str]) -> str | None:
    """The verb a command line names: its first word that is not an option (the program's own options,
    `--help` and `--version`, take no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    """The parser for this command line. When it names a verb, only that verb's parser is built and
    configured (argparse builds a whole parser per verb, and a run uses one); otherwise, for `--help` or a
    misspelt verb, every verb is listed."""
    parser = Parser(
        prog=PROG,
        description="Discover and validate Agent Skills (SKILL.md) the way Albedo does.",
        epilog="Exit status: 0 ok, 1 `check` found an error (or a request was refused), 2 usage error, 3 a bug.\n"
        f"`{PROG} VERB --help` lists a verb's options and examples.",
        formatter_class=HelpFormatter,
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="verb", metavar="VERB", required=True, parser_class=Parser)
    chosen = _chosen_verb(argv)
    named = [verb for verb in VERBS if verb.name == chosen]
    for verb in named or VERBS:
        sub = subparsers.add_parser(
            verb.name,
            help=verb.help,
            description=verb.help,
            epilog=examples_text(verb),
            formatter_class=HelpFormatter,
            allow_abbrev=False,  # `--host` is not `--hosts`: an option is spelled out or refused
        )
        if verb.name == chosen:
            configure, run = verb.load()
            configure(sub)
            for option, why in verb.refuses:
                refuse_option(sub, option, why)
            sub.set_defaults(run=run)
            parser.verb_parser = sub
    return parser


def examples_text(verb: Verb) -> str | None:
    """The `examples:` block of a verb's `--help`."""
    if not verb.examples:
        return None
    return "examples:\n" + "\n".join(f"  {PROG} {command}\n      {what}" for command, what in verb.examples)


# The options several verbs share, and whether each takes a value (for a refusal to swallow it).
SHARED_TAKES_VALUE = {"--format": True, "--home": True, "--no-user-roots": False, "--builtin": True, "--hosts": True}


class _Refused(argparse.Action):
    """A shared option given to a verb it means nothing for: a usage error that says why."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        parser.error(f"{option_string} means nothing for `{parser.prog.split()[-1]}`: {self.help_why}")


def refuse_option(parser: argparse.ArgumentParser, option: str, why: str) -> None:
    action = parser.add_argument(
        option,
        action=_Refused,
        nargs="?" if SHARED_TAKES_VALUE[option] else 0,
        help=argparse.SUPPRESS,
        dest=f"refused_{option.lstrip('-').replace('-', '_')}",
    )
    action.help_why = why  # type: ignore[attr-defined]


class Parser(argparse.ArgumentParser):
    """argparse's parser, with an unknown option answered by the closest one the verb has."""

    verb_parser: argparse.ArgumentParser | None = None

    def parse_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def, override]
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            target = self.verb_parser or self
            hint = _closest_option(target, extras[0])
            target.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
        return parsed


def _closest_option(parser: argparse.ArgumentParser, word: str) -> str:
    """` (did you mean --hosts?)` for an option the parser lacks but has one close to, else ``."""
    if not word.startswith("-"):
        return ""
    import difflib

    offered = [
        option
        for action in parser._actions  # argparse keeps no public list of a parser's options
        if action.help is not argparse.SUPPRESS
        for option in action.option_strings
    ]
    close = difflib.get_close_matches(word.split("=", 1)[0], offered, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter, keeping the examples' lines as written, told the terminal's width so that it does
    not import `shutil` (and zlib, bz2 and lzma with it) to ask: argparse builds one at every `add_argument`,
    help or not."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, _help_width() if width is None else width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """Each line kept as written, a line wider than the terminal wrapped under its own indentation; an
        example command is never wrapped."""
        import textwrap

        lines = []
        for line in text.splitlines():
            if line.startswith(f"  {PROG} "):  # an example command: one line, to copy as it is
                lines.append(indent + line)
                continue
            hanging = indent + line[: len(line) - len(line.lstrip())]
            lines.append(textwrap.fill(line.strip(), width, initial_indent=hanging, subsequent_indent=hanging) or indent)
        return "\n".join(lines)


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
    from ..skills.core.undecodable import LONE_SURROGATE
    from .output import printable

    bad = LONE_SURROGATE.search(text)
    if bad is not None:
        raise argparse.ArgumentTypeError(
            f"{printable(text)!s} is not valid UTF-8 text (byte {printable(bad.group())} at character "
            f"{bad.start() + 1}); pass the text in UTF-8"
        )
    return text
