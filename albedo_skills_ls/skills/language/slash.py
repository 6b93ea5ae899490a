"""Slash commands in chat buffers: where a `/command` can be typed, what it names, and unknown ones.

A chat buffer is a sequence of messages; a slash command is recognised only at the start of a message,
which here means the start of a line after optional spaces or tabs (docs/design.md#6-the-editor-faces). A `/` inside
a word or a path (`and/or`, `src/x`, `日本 /x`) is text, and so is a token that continues as a path
(`/usr/bin/env`), and so is anything inside a fenced code block (```` ``` ```` or `~~~`).

Everything reads the one `Catalog` snapshot the caller passes and the entries of `commands.catalog`
(`activation.command_entries`), so completion, hover and diagnostics agree with what `commands.invoke`
accepts. Positions are 0-based lines and code-point characters, as everywhere in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..core import codes
from ..activation.commands import command_entries
from ..core import programs
from ..document.frontmatter import lines_of
from ..document.markdown_spans import fenced_lines
from ..core.model import Catalog, CommandEntry, Diagnostic, Range
from .unknown_commands import Commands, check_text, commands_of

# A command token at a message start: `/` and what follows up to white space; a second `/` makes it a path.
_TOKEN = programs.compile(r"^([ \t]*)(/[^\s/]*)(?=\s|$)")
_TYPING_COMMAND = programs.compile(r"^[ \t]*(/[^\s/]*)$")
_TYPING_ARGUMENT = programs.compile(r"^([ \t]*)(/[^\s/]+)[ \t]+(\S*)$")


@dataclass(frozen=True, slots=True)
class CommandUse:
    """A `/command` typed at the start of a message: the token as typed and where it is."""

    command: str
    range: Range


@dataclass(frozen=True, slots=True)
class Typing:
    """What is being typed at a cursor in a chat buffer.

    `kind` "command": a `/command` whose typed part spans `replace` (from the `/` to the cursor).
    `kind` "argument": the argument of `command`; `replace` spans its typed part.
    """

    kind: Literal["command", "argument"]
    command: str
    prefix: str
    replace: Range


def _in_fence(lines: list[str], line: int) -> bool:
    return line in fenced_lines(lines[: line + 1])


def typing_at(text: str, line: int, character: int) -> Typing | None:
    """What a completion at (line, character) would complete, or None when it is not a slash command."""
    lines = lines_of(text)
    if line < 0 or line > len(lines) or _in_fence(lines, line):
        return None
    current = lines[line].rstrip("\r\n") if line < len(lines) else ""
    before = current[: max(0, min(character, len(current)))]
    typed = _TYPING_COMMAND.match(before)
    if typed:
        start = typed.start(1)
        return Typing("command", typed.group(1), typed.group(1)[1:], Range.of(line, start, line, len(before)))
    argument = _TYPING_ARGUMENT.match(before)
    if argument:
        start = argument.start(3)
        return Typing("argument", argument.group(2), argument.group(3), Range.of(line, start, line, len(before)))
    return None


def command_uses(text: str) -> list[CommandUse]:
    """Every `/command` at the start of a message (outside fenced code), in document order."""
    lines = lines_of(text)
    fenced = fenced_lines(lines)
    found: list[CommandUse] = []
    for number, raw in enumerate(lines):
        if number in fenced:
            continue
        match = _TOKEN.match(raw.rstrip("\r\n"))
        if match and len(match.group(2)) > 1:
            found.append(CommandUse(match.group(2), Range.of(number, match.start(2), number, match.end(2))))
    return found


def use_at(text: str, line: int, character: int) -> CommandUse | None:
    """The `/command` under the cursor, if the cursor is on one at a message start."""
    for use in command_uses_on_line(text, line):
        if use.range.start.character <= character <= use.range.end.character:
            return use
    return None


def command_uses_on_line(text: str, line: int) -> list[CommandUse]:
    lines = lines_of(text)
    if not 0 <= line < len(lines) or _in_fence(lines, line):
        return []
    match = _TOKEN.match(lines[line].rstrip("\r\n"))
    if not match or len(match.group(2)) <= 1:
        return []
    return [CommandUse(match.group(2), Range.of(line, match.start(2), line, match.end(2)))]


def entry_for(catalog: Catalog, command: str) -> CommandEntry | None:
    """The `commands.catalog` entry a typed `/command` runs: its catalog command, or `/skill:NAME` for
    any skill (as `commands.invoke` accepts)."""
    return _entry_in(command_entries(catalog), command)


def _entry_in(entries: tuple[CommandEntry, ...], command: str) -> CommandEntry | None:
    for entry in entries:
        if entry.command == command:
            return entry
    if command.startswith("/skill:"):
        name = command.removeprefix("/skill:")
        for entry in entries:
            if entry.kind == "skill" and entry.name == name:
                return entry
    return None


def check_chat(catalog: Catalog, path: str, text: str, commands: Commands | None = None) -> tuple[Diagnostic, ...]:
    """A chat buffer's findings: `command-unknown` (warning) for each `/word` standing alone that is one edit
    from a command (`unknown_commands.py`; `commands`: the catalog's, indexed by the caller, else here), and
    `unknown-command` (information) for each `/command` at a message start that the catalog lacks and that no
    `command-unknown` already names."""
    entries = command_entries(catalog)
    near = check_text(commands or commands_of(catalog), path, text)
    found = [unknown.diagnostic for unknown in near]
    named = {unknown.diagnostic.range.start for unknown in near}
    for use in command_uses(text):
        if _entry_in(entries, use.command) is not None or use.range.start in named:
            continue
        found.append(
            codes.UNKNOWN_COMMAND.at(
                path,
                f"unknown command `{use.command}`: check commands.catalog for the available commands, or "
                "reload (`/reload session`) if the skill was added since",
                use.range,
            )
        )
    return tuple(sorted(found, key=lambda diagnostic: diagnostic.sort_key))


def argument_values(entry: CommandEntry) -> list[str]:
    """The values a command's first argument can take, when the catalog lists them (`/reload session`)."""
    return list(entry.arguments[0].values or ()) if entry.arguments else []


def source_of(entry: CommandEntry) -> str:
    """`built-in`, or the skill's `SKILL.md` path."""
    return entry.path or "built-in"


def detail_of(entry: CommandEntry) -> str:
    """A one-line detail: `builtin`, or the skill's scope and `SKILL.md` path."""
    if entry.kind == "builtin":
        return "builtin"
    return f"{entry.scope or 'skill'} skill · {entry.path or ''}"


def describe(entry: CommandEntry) -> str:
    """Markdown for a hover on a command: its description, its arguments and where it comes from."""
    parts = [f"**{entry.command}** ({'built-in command' if entry.kind == 'builtin' else 'skill'})"]
    if entry.description:
        parts.append(entry.description)
    for argument in entry.arguments:
        values = argument.values
        shown = f" (one of {', '.join(f'`{v}`' for v in values)})" if values else ""
        parts.append(f"*argument* `{argument.name}`{shown}: {argument.description}")
    source = source_of(entry)
    parts.append("Source: built-in" if source == "built-in" else f"Source: `{source}` ({entry.scope})")
    return "\n\n".join(parts)
