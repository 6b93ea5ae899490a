"""What another language needs of the project's declarations, written from them: one command,
`python -m albedo_skills_ls.generate`, rewrites every derived file (or marked section of a file), and
`--check` says which differ without writing.

The declarations stay in Python, where the server and the command line read them: the settings
(`lsp/settings.py`), the diagnostic codes (`skills/core/codes.py` and the security codes), the agent models
(`skills/hosts/`), the chat defaults and the files and roots the engine knows (`skills/catalog/candidates.py`,
`skills/document/skill_file.py`, `skills/language/mentions.py`). Each output module here renders one
client or one document: `vscode.py` (the extension's `package.json` settings, `src/declared.ts`, its README's
settings table), `editors.py` (the Neovim plugin's `lua/albedo_skills/declared.lua`, the Emacs package's
marked section, the Helix configuration), `docs.py` (the tables of docs/server.md, docs/diagnostics.md, docs/hosts.md); and one derived for speed,
`programs.py` (the expressions of the engine and the command line as compiled programs, for the interpreter
CI runs). A test
(tests/unit/test_generated.py) fails when a committed file differs from what this writes.

Only this command writes; nothing in the server or the command line imports this package.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from . import docs, editors, programs, vscode

# the repository's top folder: the outputs are paths of the source tree, not of an installed package
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# each output: its path in the repository and how to make its new text from its current text
OUTPUTS: tuple[tuple[str, Callable[[str], str]], ...] = (
    *vscode.OUTPUTS,
    *editors.OUTPUTS,
    *docs.OUTPUTS,
    *programs.OUTPUTS,
)


def differences(root: str | None = None) -> dict[str, str]:
    """Each output whose file under `root` (the repository by default) is not what the declarations give: its
    path and its new text."""
    root = REPOSITORY if root is None else root
    changed: dict[str, str] = {}
    for relative, render in OUTPUTS:
        path = os.path.join(root, relative)
        try:
            with open(path, encoding="utf-8", newline="") as handle:
                current = handle.read()
        except FileNotFoundError:  # a wholly generated file not written yet
            current = ""
        wanted = render(current)
        if wanted != current:
            changed[relative] = wanted
    return changed


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--check"]):
        print("usage: python -m albedo_skills_ls.generate [--check]", file=sys.stderr)
        return 2
    changed = differences(REPOSITORY)
    if args == ["--check"]:
        for relative in changed:
            print(f"{relative}: not what the declarations give; run `python -m albedo_skills_ls.generate`")
        return 1 if changed else 0
    for relative, text in changed.items():
        with open(os.path.join(REPOSITORY, relative), "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        print(f"wrote {relative}")
    return 0
