"""Activation: `commands.catalog`, `skills.refused` and `commands.invoke` (docs/design.md#5-commands).

Everything reads one `Catalog` passed in by the caller, so a request that races a reload is answered from
one snapshot. Invoking a skill re-reads its `SKILL.md` and refuses when its identity changed since that
snapshot. Nothing here executes, imports, fetches or writes anything.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable

from ..resources.confinement import confined_folder
from ..core.errors import InvalidArguments, Refused, require_unicode
from ..document.frontmatter import read_text
from ..catalog.session import placement
from ..core.model import ERROR, Catalog, CommandArgument, CommandEntry, Skill
from ..document.rules import check_frontmatter
from ..document.skill_file import SKILL_FILE, read_skill_bytes

MODES = ("model", "user")
ACTIVATION_OPEN = "<albedo-skill-activation>"
ACTIVATION_CLOSE = "</albedo-skill-activation>"

BUILTIN_DESCRIPTIONS = {
    "help": "List the available commands and skills.",
    "model": "Show or switch the model (handled by the Albedo client).",
    "reload": "Re-run skill discovery and swap the catalog in place (`/reload session`).",
}
RELOAD_ARGUMENTS = ("", "session")

SKILL_ARGUMENT = CommandArgument("arguments", "string", False, "Free text handed to the skill exactly as typed.")
RELOAD_SCOPE_ARGUMENT = CommandArgument(
    "scope", "string", False, "`session`: re-run discovery and swap this session's catalog.", ("session",)
)


def builtin_arguments(name: str) -> tuple[CommandArgument, ...]:
    return (RELOAD_SCOPE_ARGUMENT,) if name == "reload" else ()


# The entries of the last snapshot asked about. A snapshot never changes, so neither do its entries; chat
# completion, hover and diagnostics ask for the same snapshot's entries at every keystroke. Holding one
# snapshot keeps at most one superseded catalog alive.
_last_entries: tuple[Catalog | None, tuple[CommandEntry, ...]] = (None, ())


def command_entries(catalog: Catalog) -> tuple[CommandEntry, ...]:
    """Built-ins first (in setting order), then skills in catalog order. Skills also carry `path` and `scope`."""
    global _last_entries
    last_catalog, entries = _last_entries
    if last_catalog is catalog:
        return entries
    skill_arguments = (SKILL_ARGUMENT,)
    entries = tuple(
        CommandEntry(
            f"/{name}",
            name,
            "builtin",
            BUILTIN_DESCRIPTIONS.get(name, f"Built-in command `/{name}` of the Albedo client."),
            builtin_arguments(name),
        )
        for name in catalog.builtins
    ) + tuple(
        CommandEntry(skill.command, skill.name, "skill", skill.description, skill_arguments, skill.path, skill.scope)
        for skill in catalog.skills
    )
    _last_entries = (catalog, entries)  # one assignment: a concurrent reader sees the old pair or the new
    return entries


def command_catalog(catalog: Catalog) -> list[dict[str, Any]]:
    """`commands.catalog` as JSON (the server route and `albedo-skills commands`)."""
    return list(map(CommandEntry.to_json, command_entries(catalog)))


def refused_skills(catalog: Catalog) -> list[dict[str, Any]]:
    """The skill folders of the snapshot that hold a `SKILL.md` with an error and are not in the catalog, in
    root precedence order then by folder: `{name, path, scope, code, reason}`, `name` being the folder's (what
    other agents list it as) and `reason` the first error's message. A copy hidden by a collision without an
    error of its own is not refused: it is hidden. From the same snapshot as `commands.catalog`, so a menu
    built from both agrees with itself whatever diagnostics the editor has been sent so far."""
    in_catalog = {skill.path for skill in catalog.skills}
    refused = []
    for path, found in catalog.file_diagnostics.items():
        where = placement(catalog, path)
        errors = [d for d in found if d.severity == ERROR]
        if where is None or path in in_catalog or not errors:
            continue
        first = min(errors, key=lambda d: d.sort_key)
        refused.append((where.root_index, where.folder_name, {
            "name": where.folder_name, "path": path, "scope": where.scope, "code": first.code, "reason": first.message,
        }))
    return [entry for _index, _folder, entry in sorted(refused, key=lambda item: item[:2])]


def resolve(catalog: Catalog, command: str) -> Skill | str:
    """A slash command as the catalog shows it (`/demo`, `/skill:model`) or a bare skill name, to the skill
    it names, or to the built-in's name. Raises Refused for anything unknown."""
    if not isinstance(command, str) or not command.strip():
        raise InvalidArguments("`command` must be a slash command such as `/demo` or a skill name")
    text = command.strip()
    if text.startswith("/skill:"):
        skill = catalog.skill(text.removeprefix("/skill:"))
    elif text.startswith("/"):
        name = text[1:]
        if name in catalog.builtins:
            return name
        skill = next((s for s in catalog.skills if s.command == text), None)
    else:
        skill = catalog.skill(text)
        if skill is None and text in catalog.builtins:
            return text
    if skill is None:
        raise Refused(
            f"unknown command `{text}`: call commands.catalog for the available commands, "
            "or skills.reload if the skill was added since"
        )
    return skill


def invoke(
    catalog: Catalog,
    command: str,
    arguments: str = "",
    mode: str = "model",
    reload: Callable[[], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Run one command. Skills: `model` mode returns the activation, `user` mode the turn to submit.
    Built-ins say what they do (`/reload` runs `reload`, when the caller provides it)."""
    if not isinstance(arguments, str):
        raise InvalidArguments("`arguments` must be a string (use \"\" for none)")
    require_unicode("`arguments`", arguments)
    if isinstance(command, str):
        require_unicode("`command`", command)
    if mode not in MODES:
        raise InvalidArguments(f"`mode` must be \"model\" or \"user\", not {mode!r}")
    target = resolve(catalog, command)
    if isinstance(target, str):
        return invoke_builtin(catalog, target, arguments, reload)
    skill = target
    fresh = reread(skill)
    if mode == "model":
        return {
            "name": skill.name,
            "description": skill.description,
            "source": skill.path,
            "arguments": arguments,
            "instructions": fresh,
        }
    typed = command.strip() if command.strip().startswith("/") else skill.command
    return {
        "intent": f"{typed} {arguments}" if arguments else typed,
        "input": activation_input(skill, arguments, fresh),
    }


def invoke_builtin(
    catalog: Catalog, name: str, arguments: str, reload: Callable[[], dict[str, Any]] | None
) -> dict[str, Any]:
    if name == "reload":
        if arguments.strip() not in RELOAD_ARGUMENTS:
            raise InvalidArguments("`/reload` takes no argument or `session`")
        if reload is None:
            raise Refused("`/reload` needs a running session: call skills.reload")
        return {"command": "/reload", "kind": "builtin", "result": reload()}
    if name == "help":
        return {
            "command": "/help",
            "kind": "builtin",
            "result": [
                {"command": entry.command, "description": entry.description}
                for entry in command_entries(catalog)
            ],
        }
    return {
        "command": f"/{name}",
        "kind": "builtin",
        "result": None,
        "message": f"`/{name}` is a built-in command of the Albedo client; this server has nothing to run for it",
    }


def reread(skill: Skill) -> str:
    """The skill's body, after checking that its folder still resolves inside its skills root and that its
    identity still matches the snapshot."""
    folder = confined_folder(skill.folder, skill.root)[1]
    data, _info, problem = read_skill_bytes(os.path.join(folder, SKILL_FILE), folder)
    stale = (
        f"skill `{skill.name}` changed on disk since the catalog was built ({{why}}): "
        "run skills.reload (or `/reload session`) and try again"
    )
    if data is None:
        raise Refused(stale.format(why=problem.message if problem else "it is gone"))
    text = read_text(data, skill.path)
    parsed = check_frontmatter(text, skill.path, os.path.basename(skill.folder))
    if not parsed.valid:
        raise Refused(stale.format(why=f"{SKILL_FILE} is now invalid"))
    if parsed.name != skill.name:
        raise Refused(stale.format(why=f"its name is now `{parsed.name}`"))
    if (parsed.description or "").removesuffix("\n") != skill.description:
        raise Refused(stale.format(why="its description changed"))
    return text.body


def _json_for_block(value: dict[str, Any]) -> str:
    """One-line JSON that cannot contain the closing delimiter: `<`, `>` and `&` are escaped, and so are the
    line breaks `json.dumps` leaves raw (U+0085, U+2028, U+2029), so the JSON stays one line for any reader
    that splits lines by Unicode rules (`str.splitlines`). These characters occur only inside strings."""
    encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("\x85", "\\u0085"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        encoded = encoded.replace(raw, escaped)
    return encoded


def activation_input(skill: Skill, arguments: str, instructions: str) -> str:
    """The model input of a user activation: the activation as one JSON object between delimiter lines."""
    payload = {"name": skill.name, "source": skill.path, "arguments": arguments, "instructions": instructions}
    return (
        f"The user activated the skill `{skill.name}` with {skill.command}. "
        "Follow its instructions with the given arguments.\n"
        f"{ACTIVATION_OPEN}\n{_json_for_block(payload)}\n{ACTIVATION_CLOSE}"
    )
