"""The VS Code extension's part: `package.json`'s settings (`contributes.configuration.properties`), the
extension's `src/declared.ts` (the settings' types, defaults and shapes, and the engine's names the client
needs), and the settings table of its README."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from ..lsp.server import CATALOG_CHANGED
from ..lsp.settings import EDITOR_SETTINGS, SECTION, SETTINGS, Setting, default_of, shape_of
from ..skills.catalog.candidates import USER_ROOTS, WORKSPACE_ROOTS
from ..skills.core.limits import MAX_NAME_CHARS
from ..skills.document.rules import NAME_PATTERN
from ..skills.document.skill_file import SKILL_FILE
from ..skills.language.mentions import AGENT_INSTRUCTION_FILES
from .sections import DECLARATIONS, header, replace_section

DECLARED = (*SETTINGS.values(), *EDITOR_SETTINGS)


def _property(setting: Setting, order: int) -> dict[str, Any]:
    entry = {**shape_of(setting), "default": default_of(setting), "scope": setting.scope, "order": order}
    if setting.enum_descriptions:
        entry["enumDescriptions"] = list(setting.enum_descriptions)
    entry["markdownDescription"] = setting.description
    return entry


def package_json(current: str) -> str:
    """package.json with its configuration properties written from the declarations, in their order (JSON
    holds no comment: docs/design.md says this part is generated)."""
    manifest = json.loads(current)
    properties = {f"{SECTION}.{setting.key}": _property(setting, order) for order, setting in enumerate(DECLARED)}
    manifest["contributes"]["configuration"]["properties"] = properties
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def _ts(value: Any) -> str:
    """A TypeScript literal in the extension's style (single quotes)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_ts(item) for item in value) + "]"
    raise TypeError(f"no TypeScript literal for {value!r}")


def _type_of(setting: Setting) -> str:
    shape = shape_of(setting)
    if shape["type"] == "boolean":
        return "boolean"
    if shape["type"] == "array":
        return "string[]"
    if "enum" in shape:
        return " | ".join(_ts(choice) for choice in shape["enum"])
    return "string"


def _kind_of(setting: Setting) -> str:
    shape = shape_of(setting)
    if shape["type"] == "array":
        return "names"
    if "enum" in shape:
        return "choice"
    return shape["type"]


def _tree(settings: list[Setting], leaf: Callable[[Setting], str]) -> dict[str, Any]:
    """The settings by dotted key as nested objects (`chat.languageIds` under `chat`), each leaf rendered."""
    tree: dict[str, Any] = {}
    for setting in settings:
        *groups, name = setting.key.split(".")
        node = tree
        for group in groups:
            node = node.setdefault(group, {})
        node[name] = leaf(setting)
    return tree


def _render(tree: dict[str, Any], indent: str, end: str) -> list[str]:
    lines: list[str] = []
    for key, value in tree.items():
        if isinstance(value, dict):
            lines += [f"{indent}{key}: {{", *_render(value, indent + "  ", end), f"{indent}}}{end}"]
        else:
            lines.append(f"{indent}{key}: {value}{end}")
    return lines


def declared_ts(_current: str) -> str:
    server = list(SETTINGS.values())
    editor = list(EDITOR_SETTINGS)
    entries = []
    for setting in DECLARED:
        shape = shape_of(setting)
        choices = f", choices: {_ts(shape['enum'])}" if "enum" in shape and shape["type"] == "string" else ""
        entries.append(f"  {{ key: {_ts(setting.key)}, kind: {_ts(_kind_of(setting))}, expected: {_ts(setting.expected)}, "
                       f"server: {_ts(setting.attribute is not None)}{choices} }},")
    lines = [
        header("//", DECLARATIONS).rstrip("\n"),
        "",
        "/** Every setting lives under this section. */",
        f"export const SECTION = {_ts(SECTION)};",
        "/** The file that makes a folder a skill. */",
        f"export const SKILL_FILE = {_ts(SKILL_FILE)};",
        "/** The server's notification after each discovery. */",
        f"export const CATALOG_CHANGED = {_ts(CATALOG_CHANGED)};",
        "/** The workspace's skill roots and the user's (under the home folder), in the order discovery reads them. */",
        f"export const WORKSPACE_ROOTS: readonly string[] = {_ts([relative for relative, _ in WORKSPACE_ROOTS])};",
        f"export const USER_ROOTS: readonly string[] = {_ts([relative for relative, _ in USER_ROOTS])};",
        "/** The agents' instruction files, by name in any folder: the server checks the `/commands` they mention. */",
        f"export const AGENT_INSTRUCTION_FILES: readonly string[] = {_ts(list(AGENT_INSTRUCTION_FILES))};",
        "/** A skill's name: at most this many characters, of this shape (the engine's `name` rule). */",
        f"export const MAX_NAME_CHARS = {MAX_NAME_CHARS};",
        f"export const NAME_PATTERN = {_name_pattern_ts()};",
        "",
        "/** The settings the server reads, exactly as it receives them under `initializationOptions.albedoSkills`. */",
        "export interface ServerSettings {",
        *_render(_tree(server, _type_of), "  ", ";"),
        "}",
        "",
        "/** The server's settings plus the ones only the extension reads (how to start the server, Copilot's locations). */",
        "export interface ExtensionSettings extends ServerSettings {",
        *_render(_tree(editor, _type_of), "  ", ";"),
        "}",
        "",
        "/** The defaults, a new object each time. */",
        "export function defaultSettings(): ExtensionSettings {",
        "  return {",
        *_render(_tree(list(DECLARED), lambda s: _ts(default_of(s))), "    ", ","),
        "  };",
        "}",
        "",
        "/** How a value is checked: its kind, a valid value in words, whether the server reads it. */",
        "export interface DeclaredSetting {",
        "  key: string;",
        "  kind: 'boolean' | 'string' | 'names' | 'choice';",
        "  expected: string;",
        "  server: boolean;",
        "  choices?: readonly string[];",
        "}",
        "",
        "export const SETTINGS = [",
        *entries,
        "] as const satisfies readonly DeclaredSetting[];",
        "",
        "/** Every key of the section, dotted, as `WorkspaceConfiguration.get` takes them. */",
        "export type SettingKey = (typeof SETTINGS)[number]['key'];",
        "export const SETTING_KEYS: readonly SettingKey[] = SETTINGS.map((setting) => setting.key);",
        "",
    ]
    return "\n".join(lines)


def _name_pattern_ts() -> str:
    """The engine's name pattern (anchored by `match` and `\\Z`) as a JavaScript regular expression literal:
    the pattern holds only classes, groups and quantifiers both engines read alike."""
    body = NAME_PATTERN.pattern.removesuffix("\\Z")
    if body == NAME_PATTERN.pattern or re.search(r"[/\\]|\(\?[^:]", body):
        raise ValueError(f"NAME_PATTERN {NAME_PATTERN.pattern!r} cannot be written as a JavaScript literal as is")
    return f"/^{body}$/"


def _shown(value: Any) -> str:
    return "`" + json.dumps(value, ensure_ascii=False) + "`"


def plain(description: str) -> str:
    """A description as a Markdown page shows it: VS Code's `#section.key#` links become the key."""
    return re.sub(r"`#(?:albedoSkills\.)?([\w.]+)#`", r"`\1`", description)


def readme_table(current: str) -> str:
    rows = ["| setting | default | what it does |", "| --- | --- | --- |"]
    rows += [f"| `{SECTION}.{setting.key}` | {_shown(default_of(setting))} | {plain(setting.description)} |"
             for setting in DECLARED]
    return replace_section(current, "settings", "<!-- -->", "albedo_skills_ls/lsp/settings.py", "\n".join(rows) + "\n")


OUTPUTS = (
    ("vscode-extension/package.json", package_json),
    ("vscode-extension/src/declared.ts", declared_ts),
    ("vscode-extension/README.md", readme_table),
)
