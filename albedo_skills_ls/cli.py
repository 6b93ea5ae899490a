"""`albedo-skills`: the catalog and its diagnostics on the command line.

Each verb is a function `cmd_<verb>(args) -> int` registered in `VERBS`; `add_catalog_options` gives a verb
the shared WORKSPACE / --home / --no-user-roots / --builtin options and `load_catalog(args)` runs discovery
with them. Output is the engine's own values: paths as the engine reports them (shown relative to the
current folder in the human formats), positions converted from the engine's 0-based code points to 1-based.

Start-up is kept small: this module imports only the standard library's `argparse`, `os` and `sys` at load
time; the engine, `json` and the SARIF helpers are imported by the verbs that need them. Nothing here ever
imports pygls or lsprotocol.

Exit codes: 0 success, 1 `check` found an error (or the engine refused a request), 2 a usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from . import __version__

if TYPE_CHECKING:  # pragma: no cover - typing only
    from .skills.model import Catalog, Diagnostic

PROG = "albedo-skills"
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2

# The engine's severities as SARIF levels and GitHub workflow commands.
SARIF_LEVEL = {"error": "error", "warning": "warning", "information": "note"}
GITHUB_COMMAND = {"error": "error", "warning": "warning", "information": "notice"}

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_BASE_ID = "%SRCROOT%"

# One line per diagnostic code (decisions.md section 2): SARIF's rule descriptions.
RULE_DESCRIPTIONS = {
    "skill-file-missing": "A folder in a skills root has no SKILL.md.",
    "skill-file-not-regular": "SKILL.md is not a regular file, or resolves outside its skill folder.",
    "skill-file-too-large": "SKILL.md is over 1 MiB.",
    "frontmatter-too-large": "The frontmatter block is over 64 KiB.",
    "encoding": "SKILL.md is not valid UTF-8.",
    "frontmatter-missing": "SKILL.md does not start with a `---` frontmatter line.",
    "frontmatter-unterminated": "The frontmatter has no closing `---` line.",
    "frontmatter-not-mapping": "The frontmatter is not a YAML map.",
    "yaml-syntax": "The frontmatter is not valid YAML.",
    "yaml-tag": "The frontmatter uses a YAML tag outside the failsafe schema.",
    "yaml-alias": "The frontmatter uses a YAML anchor or alias.",
    "yaml-duplicate-key": "The frontmatter repeats a key.",
    "name-missing": "The `name` field is missing or empty.",
    "name-invalid": "The `name` is not 1-64 lowercase ASCII letters, digits and single hyphens.",
    "name-mismatch": "The `name` differs from the skill folder's name.",
    "description-missing": "The `description` field is missing or blank.",
    "description-too-long": "The `description` is over 1,024 characters.",
    "field-type": "A field has the wrong type (a list or map where a string belongs).",
    "compatibility-invalid": "The `compatibility` field is empty or over 500 characters.",
    "field-unknown": "A top-level frontmatter key is not one of the Agent Skills fields.",
    "field-host-specific": "A field defined by other hosts, which Albedo ignores.",
    "body-too-long": "The Markdown body is over 500 lines or about 5,000 tokens.",
    "reference-missing": "A relative file reference in the body names nothing inside the skill folder.",
    "reference-outside": "A file reference in the body resolves outside the skill folder.",
    "collision": "A valid skill is hidden by another skill with the same name.",
    "command-collision": "A skill's name is a built-in command; it is reachable as /skill:NAME.",
    "symlink-escape": "A linked skill folder resolves outside its discovery root.",
    "candidate-limit": "More than 128 skill folders: the rest were not examined.",
    "diagnostic-limit": "More than 64 diagnostics: the rest were dropped.",
    "unreadable": "A file or folder could not be read.",
}


# --- shared options and helpers ---------------------------------------------------------------------------


def add_catalog_options(parser: argparse.ArgumentParser, workspace_positional: bool = True) -> None:
    """The options every catalog-reading verb shares: WORKSPACE, --home, --no-user-roots, --builtin.

    Verbs whose own positionals come first (`invoke COMMAND [ARGUMENTS]`) take `-w/--workspace` instead.
    """
    workspace_help = "the workspace folder whose .albedo/skills and .agents/skills are read (default: the current folder)"
    if workspace_positional:
        parser.add_argument("workspace", metavar="WORKSPACE", nargs="?", default=".", help=workspace_help)
    else:
        parser.add_argument("-w", "--workspace", metavar="DIR", default=".", help=workspace_help)
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
        default=None,
        help="a built-in command name; repeat for each (default: help, model and reload). A skill with a "
        "built-in's name is reachable as /skill:NAME. `--builtin ''` means no built-ins",
    )


class UsageError(Exception):
    """A command line that names something unusable (exit 2)."""


def _folder_argument(value: str, what: str) -> str:
    if not os.path.exists(value):
        raise UsageError(f"{what} {value!r} does not exist")
    if not os.path.isdir(value):
        raise UsageError(f"{what} {value!r} is not a directory")
    return value


def load_catalog(args: argparse.Namespace) -> Catalog:
    """Run discovery with the options `add_catalog_options` added. Raises UsageError for a bad folder."""
    workspace = _folder_argument(args.workspace, "workspace")
    home = _folder_argument(args.home, "home") if args.home is not None and args.user_roots else args.home

    from .skills.discovery import DEFAULT_BUILTINS, discover

    builtins = DEFAULT_BUILTINS if args.builtins is None else tuple(name for name in args.builtins if name)
    return discover(workspace, home, user_roots=args.user_roots, builtins=builtins)


def print_json(value: Any) -> None:
    """Write `value` as indented JSON in UTF-8, whatever the locale says, so the bytes never vary."""
    import json

    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()


def display_path(path: str) -> str:
    """A path for people and CI logs: relative to the current folder when beneath it, else as given."""
    try:
        here = os.getcwd()
    except OSError:
        return path
    if path == here:
        return "."
    if path.startswith(here.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, here)
    return path


def _printable(text: str) -> str:
    """One line of terminal-safe text: line breaks and other control characters escaped."""
    if text.isprintable():
        return text
    out = []
    for char in text:
        if char.isprintable() or char == "\t":
            out.append(char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        else:
            out.append(f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
    return "".join(out)


def format_diagnostic(diagnostic: Diagnostic) -> str:
    """`path:line:col: severity code message`, with the engine's 0-based position shown 1-based."""
    start = diagnostic.range.start
    return (
        f"{_printable(display_path(diagnostic.path))}:{start.line + 1}:{start.character + 1}: "
        f"{diagnostic.severity} {diagnostic.code} {_printable(diagnostic.message)}"
    )


def _plural(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else word + 's'}"


def summary(catalog: Catalog) -> str:
    """`3 skills, 1 error, 2 warnings, 0 information` (plus how many diagnostics were dropped)."""
    counts = {"error": 0, "warning": 0, "information": 0}
    for diagnostic in catalog.diagnostics:
        counts[diagnostic.severity] = counts.get(diagnostic.severity, 0) + 1
    line = ", ".join(
        (
            _plural(len(catalog.skills), "skill"),
            _plural(counts["error"], "error"),
            _plural(counts["warning"], "warning"),
            f"{counts['information']} information",
        )
    )
    if catalog.diagnostics_dropped:
        line += f" ({catalog.diagnostics_dropped} more dropped)"
    return line


def _use_safe_text_output() -> None:
    """Text output never fails on a character the terminal's encoding lacks."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")


def _has_errors(catalog: Catalog) -> bool:
    """Whether any finding is an error, including those the 64-diagnostic bound dropped from the list."""
    return any(d.severity == "error" for d in catalog.diagnostics) or any(
        d.severity == "error" for found in catalog.file_diagnostics.values() for d in found
    )


# --- check --------------------------------------------------------------------------------------------------


def cmd_check(args: argparse.Namespace) -> int:
    """Print the catalog's diagnostics; exit 1 when any is an error."""
    catalog = load_catalog(args)
    if args.format == "json":
        print_json(
            {
                "diagnostics": [d.to_json() for d in catalog.diagnostics],
                "diagnostics_dropped": catalog.diagnostics_dropped,
            }
        )
    elif args.format == "sarif":
        print_json(sarif_log(catalog))
    elif args.format == "github":
        _use_safe_text_output()
        for diagnostic in catalog.diagnostics:
            print(github_annotation(diagnostic))
    else:
        _use_safe_text_output()
        for diagnostic in catalog.diagnostics:
            print(format_diagnostic(diagnostic))
        sys.stdout.flush()
        print(summary(catalog), file=sys.stderr)
    return EXIT_FINDINGS if _has_errors(catalog) else EXIT_OK


# GitHub workflow commands: https://docs.github.com/actions/reference/workflow-commands-for-github-actions
# (the escaping is that of @actions/core's `escapeData` and `escapeProperty`).


def github_escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_escape_property(text: str) -> str:
    return github_escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(diagnostic: Diagnostic) -> str:
    """`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE::MESSAGE`.

    Columns are 1-based; GitHub shows columns only within one line, so `endColumn` (the last character,
    inclusive) is given only for a single-line range.
    """
    start, end = diagnostic.range.start, diagnostic.range.end
    properties = [
        ("file", display_path(diagnostic.path)),
        ("line", str(start.line + 1)),
        ("col", str(start.character + 1)),
        ("endLine", str(end.line + 1)),
    ]
    if end.line == start.line:
        properties.append(("endColumn", str(max(end.character, start.character + 1))))
    properties.append(("title", diagnostic.code))
    joined = ",".join(f"{key}={github_escape_property(value)}" for key, value in properties)
    command = GITHUB_COMMAND.get(diagnostic.severity, "notice")
    return f"::{command} {joined}::{github_escape_data(diagnostic.message)}"


# SARIF 2.1.0: https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html


def sarif_log(catalog: Catalog) -> dict[str, Any]:
    """One SARIF run: the rules for the codes used, one result per catalog diagnostic.

    Paths inside the workspace are URIs relative to `%SRCROOT%` (the workspace folder); others (the user
    roots) are absolute `file:` URIs. Columns count Unicode code points, as the engine does.
    """
    from pathlib import PurePath
    from urllib.parse import quote

    workspace = catalog.workspace
    base = workspace.rstrip(os.sep) + os.sep if workspace else None

    def location(path: str, region: Any) -> dict[str, Any]:
        if base is not None and path.startswith(base):
            relative = PurePath(os.path.relpath(path, workspace)).as_posix()
            artifact = {"uri": quote(relative), "uriBaseId": SARIF_BASE_ID}
        else:
            artifact = {"uri": PurePath(os.path.abspath(path)).as_uri()}
        return {"physicalLocation": {"artifactLocation": artifact, "region": sarif_region(region)}}

    severities: dict[str, str] = {}  # each code has one severity; the first seen describes the rule
    for diagnostic in catalog.diagnostics:
        severities.setdefault(diagnostic.code, diagnostic.severity)
    codes = sorted(severities)
    rule_index = {code: index for index, code in enumerate(codes)}
    results = []
    for diagnostic in catalog.diagnostics:
        result: dict[str, Any] = {
            "ruleId": diagnostic.code,
            "ruleIndex": rule_index[diagnostic.code],
            "level": SARIF_LEVEL.get(diagnostic.severity, "note"),
            "message": {"text": diagnostic.message},
            "locations": [location(diagnostic.path, diagnostic.range)],
        }
        if diagnostic.related:
            result["relatedLocations"] = [
                {"id": index, **location(related.path, related.range), "message": {"text": related.message}}
                for index, related in enumerate(diagnostic.related)
            ]
        results.append(result)

    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": PROG,
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [
                    {
                        "id": code,
                        "name": code,
                        "shortDescription": {"text": RULE_DESCRIPTIONS.get(code, code)},
                        "defaultConfiguration": {"level": SARIF_LEVEL.get(severities[code], "note")},
                    }
                    for code in codes
                ],
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    if base is not None:
        run["originalUriBaseIds"] = {SARIF_BASE_ID: {"uri": PurePath(base).as_uri() + "/"}}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def sarif_region(range_: Any) -> dict[str, int]:
    """A SARIF region from an engine range: 1-based lines and columns, `endColumn` just past the end."""
    return {
        "startLine": range_.start.line + 1,
        "startColumn": range_.start.character + 1,
        "endLine": range_.end.line + 1,
        "endColumn": range_.end.character + 1,
    }


# --- catalog -----------------------------------------------------------------------------------------------


def cmd_catalog(args: argparse.Namespace) -> int:
    """Print the catalog: the engine's JSON, a table for people, or the block the model sees."""
    catalog = load_catalog(args)
    if args.format == "json":
        print_json(catalog.to_json())
    elif args.format == "prompt":
        _use_safe_text_output()
        sys.stdout.write(prompt_block(catalog))
    else:
        _use_safe_text_output()
        sys.stdout.write(catalog_table(catalog))
    return EXIT_OK


def _first_line(text: str, width: int = 72) -> str:
    line = text.strip().split("\n", 1)[0].strip()
    return line if len(line) <= width else line[: width - 3].rstrip() + "..."


def catalog_table(catalog: Catalog) -> str:
    """Skills as aligned columns (command, scope, path, first line of the description), then diagnostics."""
    header = ("COMMAND", "SCOPE", "PATH", "DESCRIPTION")
    rows = [
        (
            _printable(skill.command),
            skill.scope,
            _printable(display_path(skill.path)),
            _printable(_first_line(skill.description)),
        )
        for skill in catalog.skills
    ]
    lines = []
    if rows:
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(3)]
        for row in [header, *rows]:
            lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])
    else:
        lines.append("no skills found")
    if catalog.diagnostics:
        lines.append("")
        lines.extend(format_diagnostic(d) for d in catalog.diagnostics)
    lines.append("")
    lines.append(summary(catalog))
    return "\n".join(lines) + "\n"


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def prompt_block(catalog: Catalog) -> str:
    """The catalog as the model sees it: per skill its name, description, SKILL.md path and slash command.

    Never the body and never the optional fields. `<`, `>` and `&` in any value are escaped, so no
    description can close the block early.
    """
    lines = ["<available_skills>"]
    for skill in catalog.skills:
        lines += [
            "<skill>",
            f"<name>{_xml_text(skill.name)}</name>",
            f"<description>{_xml_text(skill.description)}</description>",
            f"<location>{_xml_text(skill.path)}</location>",
            f"<command>{_xml_text(skill.command)}</command>",
            "</skill>",
        ]
    lines.append("</available_skills>")
    return "\n".join(lines) + "\n"


# --- the verb table ------------------------------------------------------------------------------------------


class Verb(NamedTuple):
    """One subcommand: its name, one-line help, how it adds its options, and what runs it."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def _configure_check(parser: argparse.ArgumentParser) -> None:
    add_catalog_options(parser)
    parser.add_argument(
        "--format",
        choices=("text", "json", "sarif", "github"),
        default="text",
        help="text: `path:line:col: severity code message` (summary on stderr); json: the catalog's "
        "diagnostics; sarif: SARIF 2.1.0; github: GitHub Actions annotations (default: text)",
    )


def _configure_catalog(parser: argparse.ArgumentParser) -> None:
    add_catalog_options(parser)
    parser.add_argument(
        "--format",
        choices=("json", "text", "prompt"),
        default="json",
        help="json: the catalog snapshot; text: a table of skills, then diagnostics; prompt: the block the "
        "model sees (default: json)",
    )


# --- activation verbs: the same JSON as the server's workspace/executeCommand routes -------------------------


def cmd_commands(args: argparse.Namespace) -> int:
    from .skills.activation import command_catalog

    print_json(command_catalog(load_catalog(args)))
    return EXIT_OK


def cmd_invoke(args: argparse.Namespace) -> int:
    from .skills.activation import invoke
    from .skills.catalog import reload_summary

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
    from .skills.errors import Refused

    skill = load_catalog(args).skill(args.name.removeprefix("/skill:").removeprefix("/"))
    if skill is None:
        raise Refused(f"no skill named `{args.name}` in the catalog: run `{PROG} commands` to list them")
    return skill


def cmd_resources(args: argparse.Namespace) -> int:
    from .skills.resources import list_resources

    skill = _catalog_skill(args)
    print_json(list_resources(skill.name, os.path.dirname(skill.path)))
    return EXIT_OK


def cmd_read(args: argparse.Namespace) -> int:
    from .skills.resources import read_resource

    skill = _catalog_skill(args)
    print_json(read_resource(skill.name, os.path.dirname(skill.path), args.resource, args.offset, args.limit))
    return EXIT_OK


def _configure_commands(parser: argparse.ArgumentParser) -> None:
    add_catalog_options(parser)


def _configure_invoke(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("command", metavar="COMMAND", help="a slash command (`/demo`, `/skill:model`) or a skill name")
    parser.add_argument("arguments", metavar="ARGUMENTS", nargs="?", default="", help="text passed to the skill as is")
    parser.add_argument(
        "--user", action="store_true", help="print the user activation (intent and model input) instead of the model's"
    )
    add_catalog_options(parser, workspace_positional=False)


def _configure_resources(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the skill's name")
    add_catalog_options(parser, workspace_positional=False)


def _configure_read(parser: argparse.ArgumentParser) -> None:
    from .skills.limits import DEFAULT_READ_LIMIT

    parser.add_argument("name", metavar="NAME", help="the skill's name")
    parser.add_argument(
        "resource", metavar="RESOURCE", nargs="?", default="SKILL.md", help="a path inside the skill (default: SKILL.md)"
    )
    parser.add_argument("--offset", type=int, default=0, help="the first byte to read (default: 0)")
    parser.add_argument(
        "--limit", type=int, default=DEFAULT_READ_LIMIT, help="bytes to read; pages are at most 65,536 (default: 16,384)"
    )
    add_catalog_options(parser, workspace_positional=False)


VERBS: list[Verb] = [
    Verb(
        "check",
        "validate every skill under the roots and print the diagnostics (exit 1 on an error)",
        _configure_check,
        cmd_check,
    ),
    Verb("catalog", "print the skill catalog the model and the command menu see", _configure_catalog, cmd_catalog),
    Verb("commands", "list the session's commands (built-ins, then skills), as commands.catalog", _configure_commands, cmd_commands),
    Verb("invoke", "activate a skill as commands.invoke would (model mode, or --user)", _configure_invoke, cmd_invoke),
    Verb("resources", "list a skill's resource files, as skills.resources", _configure_resources, cmd_resources),
    Verb("read", "read one bounded page of a skill's file, as skills.read", _configure_read, cmd_read),
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Discover and validate Agent Skills (SKILL.md) the way Albedo does.",
        epilog="Exit status: 0 ok, 1 `check` found an error, 2 usage error.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    for verb in VERBS:
        sub = verbs.add_parser(verb.name, help=verb.help, description=verb.help)
        verb.configure(sub)
        sub.set_defaults(run=verb.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except UsageError as exc:
        parser.exit(EXIT_USAGE, f"{PROG}: error: {exc}\n")
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, without a second error when Python flushes stdout.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FINDINGS
    except Exception as exc:
        from .skills.errors import SkillsError

        if isinstance(exc, SkillsError):
            print(f"{PROG}: error: {exc}", file=sys.stderr)
            return EXIT_FINDINGS
        raise
    return EXIT_OK  # pragma: no cover - parser.exit does not return


if __name__ == "__main__":
    sys.exit(main())
