"""The `albedoSkills` settings, declared once: each one's name, type and default are here and nowhere else
(docs/design.md#12-settings-one-declaration).

`Settings` holds the values and their defaults; `SETTINGS` names each as users write it, with its JSON type
and its validator. VS Code's `package.json` (`contributes.configuration`) is checked against `schema()` by
tests/unit/test_setting_defaults.py; the Neovim and Emacs clients send only what the person set, so the
server's defaults apply. Values come from `initializationOptions` and `workspace/configuration`. An invalid
value is reported (the caller shows it with `window/showMessage`) and its default is used instead; the
other values still apply.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, NamedTuple

from ..skills.catalog.discovery import DEFAULT_BUILTINS
from ..skills.language.mentions import DEFAULT_CHAT_PATTERNS

SECTION = "albedoSkills"

# Chat buffers out of the box: our own language id, Markdown chat files, and the filetypes of popular
# Neovim chat plugins (CodeCompanion, Avante, CopilotChat, gp.nvim). The default built-in commands and chat
# file patterns are the engine's, which the command line uses too.
DEFAULT_CHAT_LANGUAGE_IDS = ("albedo-chat", "markdown.chat", "codecompanion", "AvanteInput", "copilot-chat", "gp_chat")
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


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


def _path(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError("expected a path string")
    return value


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise ValueError("expected a list of non-empty strings")
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
        raise ValueError(f"expected one of {', '.join(LOG_LEVELS)}")
    return value


class Setting(NamedTuple):
    key: str  # as users write it, under `albedoSkills` (`chat.languageIds`)
    attribute: str  # the field of `Settings` holding its value and its default
    validate: Callable[[Any], Any]  # the value as written -> the value held; ValueError says what is wrong
    schema: dict[str, Any]  # its JSON schema, without the default (that is the field's)


_NAMES = {"type": "array", "items": {"type": "string"}}


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


SETTINGS: dict[str, Setting] = {
    setting.key: setting
    for setting in (
        Setting("enable", "enable", _bool, {"type": "boolean"}),
        Setting("userRoots", "user_roots", _bool, {"type": "boolean"}),
        Setting("home", "home", _path, {"type": "string"}),
        Setting("autoReload", "auto_reload", _bool, {"type": "boolean"}),
        Setting("builtinCommands", "builtin_commands", _commands, _NAMES),
        Setting("chat.languageIds", "chat_language_ids", _names, _NAMES),
        Setting("chat.filePatterns", "chat_file_patterns", _names, _NAMES),
        Setting("logLevel", "log_level", _level, {"type": "string", "enum": list(LOG_LEVELS)}),
        Setting("hosts", "hosts", _hosts, {}),  # its schema names the agents: `schema()` asks the registry
        Setting("security.enable", "security", _bool, {"type": "boolean"}),
        # its schema names the security codes: `schema()` asks the registry
        Setting("security.disabledCodes", "security_disabled_codes", _security_codes, {}),
        # skills as a language: each editor feature can be turned off
        Setting("rename", "rename", _bool, {"type": "boolean"}),
        Setting("references", "references", _bool, {"type": "boolean"}),
        Setting("workspaceSymbols", "workspace_symbols", _bool, {"type": "boolean"}),
        Setting("codeLens", "code_lens", _bool, {"type": "boolean"}),
        Setting("inlayHints", "inlay_hints", _bool, {"type": "boolean"}),
        Setting("folding", "folding", _bool, {"type": "boolean"}),
        Setting("selectionRanges", "selection_ranges", _bool, {"type": "boolean"}),
    )
}

_GROUPS = {key.split(".", 1)[0] for key in SETTINGS if "." in key}  # `chat`, `security`: objects of settings


def default_of(setting: Setting) -> Any:
    """The setting's default as JSON writes it (`home`: unset is the empty string)."""
    value = next(f.default for f in fields(Settings) if f.name == setting.attribute)
    if isinstance(value, tuple):
        return list(value)
    return "" if value is None else value


def schema() -> dict[str, dict[str, Any]]:
    """Every server setting as a `contributes.configuration` property: type, items, enum and default."""
    properties = {}
    for setting in SETTINGS.values():
        shape = _REGISTRY_SCHEMAS[setting.key]() if setting.key in _REGISTRY_SCHEMAS else setting.schema
        properties[f"{SECTION}.{setting.key}"] = {**shape, "default": default_of(setting)}
    return properties


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
            changes[attribute] = next(f.default for f in fields(Settings) if f.name == attribute)
            continue
        try:
            changes[attribute] = validate(value)
        except ValueError as exc:
            default = next(f.default for f in fields(Settings) if f.name == attribute)
            changes[attribute] = default
            problems.append(f"`{SECTION}.{name}` is invalid ({exc}, got {value!r}); using the default {default!r}")
    return replace(current, **changes, problems=tuple(problems))
