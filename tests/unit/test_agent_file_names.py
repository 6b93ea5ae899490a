"""The agents' instruction files the VS Code extension sends to the server are the server's own list.

The server decides what an `AGENTS.md`, `CLAUDE.md` or `GEMINI.md` buffer gets (lsp/documents.py `kind_of`)
from skills/language/mentions.py `AGENT_INSTRUCTION_FILES`; the extension selects the documents it sends
before any server runs, so it keeps a copy (`settings.ts`). The Neovim plugin's copy is compared in Neovim
(tests/clients/test_client_defaults.py).
"""

import ast
import re
from pathlib import Path

from albedo_skills_ls.skills.language.mentions import AGENT_INSTRUCTION_FILES

SETTINGS_TS = Path(__file__).resolve().parents[2] / "vscode-extension" / "src" / "settings.ts"
DECLARATION = re.compile(r"export const AGENT_INSTRUCTION_FILES: readonly string\[\] = (\[[^\]]*\]);")


def test_the_extensions_copy_is_the_servers_list():
    (found,) = DECLARATION.findall(SETTINGS_TS.read_text(encoding="utf-8"))
    assert ast.literal_eval(found) == list(AGENT_INSTRUCTION_FILES)
