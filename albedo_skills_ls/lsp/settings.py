"""The `albedoSkills` settings: typed, validated, with documented defaults.

Values come from `initializationOptions` and `workspace/configuration`. An invalid value is reported (the
caller shows it with `window/showMessage`) and its default is used instead; the other values still apply.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

SECTION = "albedoSkills"

# Chat buffers out of the box: our own language id, Markdown chat files, and the filetypes of popular
# Neovim chat plugins (CodeCompanion, Avante, CopilotChat, gp.nvim).
DEFAULT_CHAT_LANGUAGE_IDS = ("albedo-chat", "markdown.chat", "codecompanion", "AvanteInput", "copilot-chat", "gp_chat")
DEFAULT_CHAT_FILE_PATTERNS = ("*.chat.md",)
DEFAULT_BUILTIN_COMMANDS = ("help", "model", "reload")
LOG_LEVELS = ("error", "warning", "info", "debug")


@dataclass(frozen=True)
class Settings:
    enable: bool = True
    user_roots: bool = True
    home: str | None = None
    auto_reload: bool = True
    builtin_commands: tuple[str, ...] = DEFAULT_BUILTIN_COMMANDS
    chat_language_ids: tuple[str, ...] = DEFAULT_CHAT_LANGUAGE_IDS
    chat_file_patterns: tuple[str, ...] = DEFAULT_CHAT_FILE_PATTERNS
    log_level: str = "info"
    # other agents whose refusals become diagnostics (skills/hosts/ ids); none by default: no new noise
    hosts: tuple[str, ...] = ()
    # skills as a language: each editor feature can be turned off
    rename: bool = True
    references: bool = True
    workspace_symbols: bool = True
    code_lens: bool = True
    inlay_hints: bool = True
    folding: bool = True
    problems: tuple[str, ...] = field(default=(), compare=False)

    def discovery_key(self) -> tuple[Any, ...]:
        """The settings that change what discovery finds: a change to any of them means a reload."""
        return (self.user_roots, self.home, self.builtin_commands)


# setting name (as written by users) -> (field, validator)
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


def _level(value: Any) -> str:
    if value not in LOG_LEVELS:
        raise ValueError(f"expected one of {', '.join(LOG_LEVELS)}")
    return value


_KEYS = {
    "enable": ("enable", _bool),
    "userRoots": ("user_roots", _bool),
    "home": ("home", _path),
    "autoReload": ("auto_reload", _bool),
    "builtinCommands": ("builtin_commands", _commands),
    "chat.languageIds": ("chat_language_ids", _names),
    "chat.filePatterns": ("chat_file_patterns", _names),
    "logLevel": ("log_level", _level),
    "hosts": ("hosts", _hosts),
    "rename": ("rename", _bool),
    "references": ("references", _bool),
    "workspaceSymbols": ("workspace_symbols", _bool),
    "codeLens": ("code_lens", _bool),
    "inlayHints": ("inlay_hints", _bool),
    "folding": ("folding", _bool),
}


def _flatten(raw: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """`{"chat": {"languageIds": [...]}}` and `{"chat.languageIds": [...]}` mean the same."""
    flat: dict[str, Any] = {}
    for key, value in raw.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and name not in _KEYS:
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
        if any(key in _KEYS or key == "chat" for key in options):
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
        known = _KEYS.get(name)
        if known is None:
            problems.append(f"`{SECTION}.{name}` is not a setting of this server; it is ignored")
            continue
        attribute, validate = known
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
