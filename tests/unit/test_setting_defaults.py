"""One declaration per setting: VS Code's configuration schema says what `lsp/settings.py` declares.

`lsp/settings.py` declares each server setting once (name, JSON type, default). `package.json`'s
`contributes.configuration` must carry exactly those settings with the same type, items, enum and default,
plus the extension's own launch settings, which the server never sees. The extension's `settings.ts`
defaults are compared with package.json by its own test (`src/test/launch.test.ts`), so no copy can drift
alone (docs/design.md#12-settings-one-declaration).
"""

import copy
import json
from pathlib import Path

import pytest

from albedo_skills_ls.lsp.settings import SETTINGS, schema

PACKAGE = Path(__file__).resolve().parents[2] / "vscode-extension" / "package.json"
# Settings only the extension reads: how to start the server, and what it adds to VS Code's own settings.
EXTENSION_ONLY = {
    "albedoSkills.server.path",
    "albedoSkills.server.pythonPath",
    "albedoSkills.server.importStrategy",
    "albedoSkills.copilotSkillLocations",
}
COMPARED = ("type", "items", "enum", "uniqueItems", "default")


def properties_of(manifest: dict) -> dict:
    configuration = manifest["contributes"]["configuration"]
    return (configuration if isinstance(configuration, dict) else configuration[0])["properties"]


def disagreements(properties: dict) -> list[str]:
    declared = schema()
    found = []
    contributed = {key for key in properties if key not in EXTENSION_ONLY}
    for key in sorted(contributed - declared.keys()):
        found.append(f"{key}: in package.json, not a server setting (lsp/settings.py SETTINGS)")
    for key in sorted(declared.keys() - contributed):
        found.append(f"{key}: a server setting missing from package.json")
    for key in sorted(declared.keys() & contributed):
        for field in COMPARED:
            if properties[key].get(field) != declared[key].get(field):
                found.append(f"{key}.{field}: package.json {properties[key].get(field)!r}, server {declared[key].get(field)!r}")
    return found


def test_package_json_declares_the_servers_settings_as_the_server_does():
    properties = properties_of(json.loads(PACKAGE.read_text(encoding="utf-8")))
    assert disagreements(properties) == []
    assert len(SETTINGS) == 18


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda p: p["albedoSkills.logLevel"].update(default="debug"), "albedoSkills.logLevel.default"),
        (lambda p: p["albedoSkills.enable"].update(type="string"), "albedoSkills.enable.type"),
        (lambda p: p["albedoSkills.hosts"]["items"]["enum"].pop(), "albedoSkills.hosts.items"),
        (lambda p: p.pop("albedoSkills.autoReload"), "albedoSkills.autoReload: a server setting missing"),
        (lambda p: p.update({"albedoSkills.extra": {"type": "boolean"}}), "albedoSkills.extra: in package.json"),
    ],
)
def test_each_disagreement_is_found(change, expected):
    properties = copy.deepcopy(properties_of(json.loads(PACKAGE.read_text(encoding="utf-8"))))
    change(properties)
    (found,) = disagreements(properties)
    assert found.startswith(expected)
