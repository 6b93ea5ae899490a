"""The server's setting defaults and the VS Code extension's configuration schema say the same thing.

The defaults are written three times (lsp/settings.py, package.json, launch.ts); this test ties the first two
together and the extension's own test ties the last two, so none can drift alone.
"""

import json
from pathlib import Path

from albedo_skills_ls.lsp.settings import _KEYS, Settings

PACKAGE = Path(__file__).resolve().parents[2] / "vscode-extension" / "package.json"


def test_package_json_defaults_equal_the_servers():
    configuration = json.loads(PACKAGE.read_text(encoding="utf-8"))["contributes"]["configuration"]
    properties = (configuration if isinstance(configuration, dict) else configuration[0])["properties"]
    server_defaults = Settings()
    compared = []
    for name, (attribute, _validate) in _KEYS.items():
        schema_default = properties[f"albedoSkills.{name}"]["default"]
        expected = getattr(server_defaults, attribute)
        if isinstance(expected, tuple):
            expected = list(expected)
        if expected is None:  # `home`: unset means the user's home; the schema writes it as ""
            expected = ""
        assert schema_default == expected, name
        compared.append(name)
    assert len(compared) == len(_KEYS) == 15
