"""The `albedoSkills` settings, declared once: each one's name, type, default, description and the editors
that read it are here and nowhere else (docs/design.md#12-settings-one-declaration).

`Settings` holds the values and their defaults; `SETTINGS` declares each server setting as users write it,
with its JSON type, its validator and its description; `EDITOR_SETTINGS` the section's settings only the VS
Code extension reads. `python -m albedo_skills_ls.generate` writes every other copy from them (VS Code's
`package.json` and `src/declared.ts`, the Neovim plugin's defaults, the settings tables in the docs), and a
test fails when a generated file differs from what the command writes. Values come from
`initializationOptions` and `workspace/configuration`. An invalid value is reported (the caller shows it
with `window/showMessage`) and its default is used instead; the other values still apply.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, Iterable, NamedTuple

from ..skills.catalog.candidates import USER_ROOTS, WORKSPACE_ROOTS
from ..skills.catalog.discovery import DEFAULT_BUILTINS
from ..skills.language.mentions import AGENT_INSTRUCTION_FILES, DEFAULT_CHAT_PATTERNS

SECTION = "albedoSkills"

# Chat buffers out of the box: our own language id, Markdown chat files, and the filetypes of popular
# Neovim chat plugins (CodeCompanion, Avante, CopilotChat, gp.nvim). The default built-in commands and chat
# file patterns are the engine's, which the command line uses too.
OWN_CHAT_LANGUAGE_ID = "albedo-chat"  # the language id this project's own chat buffers carry (VS Code, Emacs)
DEFAULT_CHAT_LANGUAGE_IDS = (OWN_CHAT_LANGUAGE_ID, "markdown.chat", "codecompanion", "AvanteInput", "copilot-chat", "gp_chat")
LOG_LEVELS = ("error", "warning", "info", "debug")


@dataclass(frozen=True)
class Settings:
    enable: bool = True
    user_roots: bool = True
    home: str | None = None
    auto_reload: bool = True
    builtin_commands: tuple[str, ...] = DEFAULT_BUILTINS
    chat_language_ids: tuple[str, ...] = DEFAULT_CHAT_LANGUAGE_IDS
    chat_file_patterns: tuple[str, ...] = DEFAULT_CHAT_PATTERNS
    log_level: str = "info"
    # other agents whose refusals become diagnostics (skills/hosts/ ids); none by default: no new noise
    hosts: tuple[str, ...] = ()
    # the security reading of the workspace's skills (and of any open SKILL.md or bundled file), and the
    # security codes turned off within it
    security: bool = True
    security_disabled_codes: tuple[str, ...] = ()
    # the files' own albedo-skills-ignore markers honoured (off to audit a skill someone else wrote)
    security_inline_ignores: bool = True
    # skills as a language: each editor feature can be turned off
    rename: bool = True
    references: bool = True
    workspace_symbols: bool = True
    code_lens: bool = True
    inlay_hints: bool = True
    folding: bool = True
    selection_ranges: bool = True
    problems: tuple[str, ...] = field(default=(), compare=False)

    def discovery_key(self) -> tuple[Any, ...]:
        """The settings that change what discovery finds: a change to any of them means a reload."""
        return (self.user_roots, self.home, self.builtin_commands)

    def inline_key(self) -> tuple[Any, ...]:
        """The settings a code lens or an inlay hint reads: the switches, the chosen agents (their figures),
        and what finds the skills and their mentions (the counts)."""
        return (self.enable, self.code_lens, self.inlay_hints, self.hosts, self.chat_file_patterns, self.discovery_key())

    def home_folder(self) -> str:
        """The home whose user roots are read: the `home` setting, else the process's home directory."""
        return os.path.abspath(self.home or os.path.expanduser("~"))


# A validator raises a bare ValueError for a value of the wrong shape (the message then says what the setting
# declares as `expected`), or one with its own message when it can say more (which names are unknown).


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError
    return value


def _path(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError
    return value


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise ValueError
    return tuple(dict.fromkeys(value))


def _commands(value: Any) -> tuple[str, ...]:
    names = _names(value)
    return tuple(name.removeprefix("/") for name in names)


def _hosts(value: Any) -> tuple[str, ...]:
    from ..skills.hosts import HOST_IDS

    names = _names(value)
    unknown = [name for name in names if name not in HOST_IDS]
    if unknown:
        raise ValueError(f"unknown agent {', '.join(unknown)}; expected ids among {', '.join(HOST_IDS)}")
    return names


def _security_codes(value: Any) -> tuple[str, ...]:
    from ..skills.security.review import security_codes

    names = _names(value)
    known = security_codes()
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(f"unknown security code {', '.join(unknown)}; expected codes among {', '.join(known)}")
    return names


def _level(value: Any) -> str:
    if value not in LOG_LEVELS:
        raise ValueError
    return value


class Setting(NamedTuple):
    """One setting of the `albedoSkills` section, declared once. Everything else that names it — VS Code's
    `package.json` and `src/declared.ts`, the Neovim plugin's defaults, the settings tables of docs/server.md
    and of the extension's README — is written from this by `python -m albedo_skills_ls.generate`."""

    key: str  # as users write it, under `albedoSkills` (`chat.languageIds`)
    attribute: str | None  # the field of `Settings` holding its value and default; None: only an editor reads it
    validate: Callable[[Any], Any] | None  # value as written -> value held; a ValueError says what is wrong
    schema: dict[str, Any]  # its JSON schema, without the default (a server setting's is its field's)
    expected: str  # a valid value, in words: the server's and the extension's messages both say it
    description: str  # Markdown, as the settings editor and the docs show it
    scope: str = "resource"  # VS Code's configuration scope (who may set it: user, workspace, folder, machine)
    # the editors whose plugin reads the value itself, before any server runs (which buffers get a server):
    # their defaults are generated into the plugin
    clients: frozenset[str] = frozenset()
    editor_default: Any = None  # the default of a setting only an editor reads
    enum_descriptions: tuple[str, ...] = ()


_NAMES = {"type": "array", "items": {"type": "string"}}
_SWITCH = {"type": "boolean"}
_NEOVIM = frozenset({"neovim"})


def _host_names() -> dict[str, Any]:
    from ..skills.hosts import HOST_IDS

    return {"type": "array", "items": {"type": "string", "enum": list(HOST_IDS)}, "uniqueItems": True}


def _security_code_names() -> dict[str, Any]:
    from ..skills.security.review import security_codes

    return {"type": "array", "items": {"type": "string", "enum": list(security_codes())}, "uniqueItems": True}


# settings whose allowed values come from a registry (the agents, the security codes), asked when needed
_REGISTRY_SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "hosts": _host_names,
    "security.disabledCodes": _security_code_names,
}


def _listed(folders: Iterable[str], home: bool = False) -> str:
    spelled = [f"`{'~/' if home else ''}{folder}`" for folder in folders]
    return ", ".join(spelled[:-1]) + f" and {spelled[-1]}" if len(spelled) > 1 else spelled[0]


_WORKSPACE_ROOTS = [relative for relative, _scope in WORKSPACE_ROOTS]
_USER_ROOTS = [relative for relative, _scope in USER_ROOTS]
_RESTARTS = "Changing this restarts the server."

SETTINGS: dict[str, Setting] = {
    setting.key: setting
    for setting in (
        Setting("enable", "enable", _bool, _SWITCH, "true or false",
                "Turn the skills features on or off: diagnostics, completion, hover, links, code actions and "
                "commands go away together and come back together (after a fresh discovery), without a restart."),
        Setting("userRoots", "user_roots", _bool, _SWITCH, "true or false",
                f"Also discover the user's skills in {_listed(_USER_ROOTS, home=True)}, after the workspace's "
                f"{_listed(_WORKSPACE_ROOTS)}.", clients=_NEOVIM),
        Setting("home", "home", _path, {"type": "string"}, "a path (string)",
                "The home folder whose user skill roots are read (for tests and unusual setups). Empty: the server "
                "process's home folder.",
                scope="machine-overridable", clients=_NEOVIM),
        Setting("autoReload", "auto_reload", _bool, _SWITCH, "true or false",
                "Rebuild the catalog when a `SKILL.md` is created, changed or deleted on disk. Off: changes on disk "
                "take effect on **Albedo Skills: Reload Skills** (the server's `skills.reload`)."),
        Setting("builtinCommands", "builtin_commands", _commands, _NAMES, "a list of non-empty strings",
                "Built-in slash commands, without the `/`. They always win: a skill with one of these names is "
                "reachable as `/skill:NAME`."),
        Setting("chat.languageIds", "chat_language_ids", _names, _NAMES, "a list of non-empty strings",
                "Language ids of chat buffers, where typing `/` at the start of a line offers the slash commands: "
                "ours, and the chat filetypes of CodeCompanion, Avante, CopilotChat.nvim and gp.nvim. " + _RESTARTS,
                clients=_NEOVIM),
        Setting("chat.filePatterns", "chat_file_patterns", _names, _NAMES, "a list of non-empty strings",
                "Glob patterns of chat buffers' file names (`fnmatch`; a pattern without `/` matches the name in any "
                "folder). "
                + _RESTARTS, clients=_NEOVIM),
        Setting("logLevel", "log_level", _level, {"type": "string", "enum": list(LOG_LEVELS)},
                f"one of {', '.join(LOG_LEVELS)}",
                "How much the language server logs (`window/logMessage`; in VS Code the **Albedo Skills** output "
                "channel, whose own level, **Developer: Set Log Level...**, filters what is shown and at **Trace** "
                "also shows the protocol messages).", scope="window",
                enum_descriptions=("Only errors", "Errors and warnings", "Errors, warnings and information",
                                   "Everything, for troubleshooting")),
        # its schema names the agents: `schema()` asks the registry
        Setting("hosts", "hosts", _hosts, {}, "a list of agent ids",
                "Other agents whose refusals of a skill become problems (`host-skipped`, `host-not-seen`, "
                "`host-budget`), for example `[\"codex\", \"claude-code\"]`. Empty: none. Albedo's own findings "
                "never change; hover the opening `---` of a SKILL.md for every agent's verdict. See docs/hosts.md."),
        Setting("security.enable", "security", _bool, _SWITCH, "true or false",
                "The security reading: problems on the workspace's skills (`SKILL.md` and every file a skill "
                "bundles) for what they would have the model or a script do (download and run code, read "
                "credentials, hidden text...), and on any open `SKILL.md`. Hover a finding for what to check. Off: "
                "no `security-*` problem. See docs/security.md."),
        # its schema names the security codes: `schema()` asks the registry
        Setting("security.disabledCodes", "security_disabled_codes", _security_codes, {}, "a list of security codes",
                "Security codes turned off, for example `[\"security-broad-tools\"]`. To silence one finding "
                "instead, put `<!-- albedo-skills-ignore CODE: reason -->` (`# albedo-skills-ignore CODE: reason` "
                "in a script) on the line above it."),
        Setting("security.inlineIgnores", "security_inline_ignores", _bool, _SWITCH, "true or false",
                "Honour the `albedo-skills-ignore` markers in the skills' own files. Off: every finding is shown, "
                "markers or not, to audit a skill you did not write (its author wrote its markers too), as "
                "`albedo-skills check --no-inline-ignores` does."),
        # skills as a language: each editor feature can be turned off
        Setting("rename", "rename", _bool, _SWITCH, "true or false",
                "Rename a skill everywhere (F2 on its `name:` or on a `/name`, or renaming its folder in the "
                "Explorer; `textDocument/rename`, `prepareRename`, `workspace/willRenameFiles`): the folder, `name:`, "
                "every `/name`, `skills:` entry and link into the folder in the workspace, and its mirror links in "
                "other agents' folders. See docs/rename.md."),
        Setting("references", "references", _bool, _SWITCH, "true or false",
                "Find All References (`textDocument/references`) on a skill's `name:` or a `/name`: every mention in "
                "skills, agent files ("
                f"{_listed(AGENT_INSTRUCTION_FILES)}, agent `skills:` lists), chat files and mirror links."),
        Setting("workspaceSymbols", "workspace_symbols", _bool, _SWITCH, "true or false",
                "Go to Symbol in Workspace (`workspace/symbol`) lists every skill of every root by a subsequence of "
                "its name or description; hidden copies are marked. A query sent during the first discovery waits "
                "for it."),
        Setting("codeLens", "code_lens", _bool, _SWITCH, "true or false",
                "On a SKILL.md's `name:`: how many places use the skill, and with `#albedoSkills.hosts#` how many of "
                "those agents load it."),
        Setting("inlayHints", "inlay_hints", _bool, _SWITCH, "true or false",
                "After `description:`: its length against the 1,024 limit, and where a chosen agent "
                "(`#albedoSkills.hosts#`) cuts it."),
        Setting("folding", "folding", _bool, _SWITCH, "true or false",
                "Folding ranges for a SKILL.md's frontmatter and body sections."),
        Setting("selectionRanges", "selection_ranges", _bool, _SWITCH, "true or false",
                "Expand Selection (`textDocument/selectionRange`) in a SKILL.md or a chat buffer: word, value, "
                "field, frontmatter; or word, line, paragraph, section, body."),
    )
}

_VSCODE = frozenset({"vscode"})
_IMPORT_STRATEGIES = ("useBundled", "fromEnvironment")

# Settings of the section only the VS Code extension reads (how to start the server, what it adds to VS Code's
# own settings): the server never receives them.
EDITOR_SETTINGS: tuple[Setting, ...] = (
    Setting("copilotSkillLocations", None, None, _SWITCH, "true or false",
            f"Add Albedo's skill roots ({_listed(_WORKSPACE_ROOTS)}, and with `#albedoSkills.userRoots#` "
            f"{_listed(_USER_ROOTS, home=True)}) to VS Code's own `#chat.agentSkillsLocations#` in your user "
            "settings, so Copilot's skills and its chat `/` menu list them too. **Deprecated by VS Code:** from "
            "1.139 VS Code marks `chat.agentSkillsLocations` as to be removed in a future release. A location you "
            "set to `false` stays off; turning this off removes the `.albedo` and `.prime` ones it added. Nothing "
            "happens on a VS Code without that setting (1.96 has none).",
            scope="application", clients=_VSCODE, editor_default=False),
    Setting("server.path", None, None, _NAMES, "a list of non-empty strings (the command and its arguments)",
            "The command that starts the language server, and its arguments, for example "
            "`[\"/opt/tools/bin/albedo-skills-ls\"]` or `[\"uvx\", \"albedo-skills-ls\"]`; it overrides every "
            "other way of starting it. `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~` are "
            "expanded. Empty: see `#albedoSkills.server.importStrategy#`. " + _RESTARTS,
            scope="machine-overridable", clients=_VSCODE, editor_default=()),
    Setting("server.pythonPath", None, None, {"type": "string"}, "a path (string)",
            "The Python interpreter that runs the server: with `#albedoSkills.server.importStrategy#` `useBundled` "
            "(the default) any Python 3.11 or newer runs the server bundled with the extension; with "
            "`fromEnvironment` it must have `albedo-skills-ls` installed (`python -m albedo_skills_ls`). A relative "
            "path such as `.venv/bin/python` is taken from the first workspace folder. Empty: the Python "
            "extension's interpreter, else the first Python 3.11 or newer found on PATH or where the usual "
            "installers put one (`py -3` on Windows; Homebrew, python.org and pyenv on macOS). Used when "
            "`#albedoSkills.server.path#` is empty. " + _RESTARTS,
            scope="machine-overridable", clients=_VSCODE, editor_default=""),
    Setting("server.importStrategy", None, None, {"type": "string", "enum": list(_IMPORT_STRATEGIES)},
            f"one of {', '.join(_IMPORT_STRATEGIES)}",
            "Which copy of the language server runs. `#albedoSkills.server.path#` overrides both. In a remote "
            "window (SSH, WSL, containers, a browser VS Code) set the `server.*` settings in the **Remote** "
            "settings. " + _RESTARTS,
            scope="machine-overridable", clients=_VSCODE, editor_default="useBundled",
            enum_descriptions=(
                "Run the server shipped inside the extension, with `#albedoSkills.server.pythonPath#`, the Python "
                "extension's interpreter, or the first Python 3.11 or newer found (`python3`, `py -3` on Windows): "
                "nothing to install.",
                "Run the `albedo-skills-ls` installed in that interpreter (`python -m albedo_skills_ls`), or on "
                "`PATH` when no interpreter is set.",
            )),
)

_GROUPS = {key.split(".", 1)[0] for key in SETTINGS if "." in key}  # `chat`, `security`: objects of settings


def _field_default(attribute: str) -> Any:
    """The default the `Settings` field declares."""
    return next(f.default for f in fields(Settings) if f.name == attribute)


def default_of(setting: Setting) -> Any:
    """The setting's default as JSON writes it (`home`: unset is the empty string)."""
    value = setting.editor_default if setting.attribute is None else _field_default(setting.attribute)
    if isinstance(value, tuple):
        return list(value)
    return "" if value is None else value


def shape_of(setting: Setting) -> dict[str, Any]:
    """The setting's JSON schema without its default: type, items, enum (a registry's names asked now)."""
    return _REGISTRY_SCHEMAS[setting.key]() if setting.key in _REGISTRY_SCHEMAS else setting.schema


def schema() -> dict[str, dict[str, Any]]:
    """Every server setting as a `contributes.configuration` property: type, items, enum and default."""
    return {f"{SECTION}.{setting.key}": {**shape_of(setting), "default": default_of(setting)}
            for setting in SETTINGS.values()}


def _flatten(raw: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """`{"chat": {"languageIds": [...]}}` and `{"chat.languageIds": [...]}` mean the same."""
    flat: dict[str, Any] = {}
    for key, value in raw.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and name not in SETTINGS:
            flat.update(_flatten(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def section_of(options: Any) -> dict[str, Any] | None:
    """The `albedoSkills` object inside initializationOptions or didChangeConfiguration settings."""
    if isinstance(options, dict):
        inner = options.get(SECTION)
        if isinstance(inner, dict):
            return inner
        if any(key in SETTINGS or key in _GROUPS for key in options):
            return options
    return None


def parse(raw: Any, base: Settings | None = None) -> Settings:
    """Apply `raw` (the `albedoSkills` object) over `base`; collect a problem for each invalid value."""
    current = base or Settings()
    if raw is None:
        return replace(current, problems=())
    if not isinstance(raw, dict):
        return replace(current, problems=(f"`{SECTION}` must be an object; using the defaults",))
    changes: dict[str, Any] = {}
    problems: list[str] = []
    for name, value in sorted(_flatten(raw).items()):
        known = SETTINGS.get(name)
        if known is None:
            problems.append(f"`{SECTION}.{name}` is not a setting of this server; it is ignored")
            continue
        attribute, validate = known.attribute, known.validate
        if value is None:
            changes[attribute] = _field_default(attribute)
            continue
        try:
            changes[attribute] = validate(value)
        except ValueError as exc:
            default = changes[attribute] = _field_default(attribute)
            why = str(exc) or f"expected {known.expected}"
            problems.append(f"`{SECTION}.{name}` is invalid ({why}, got {value!r}); using the default {default!r}")
    return replace(current, **changes, problems=tuple(problems))
