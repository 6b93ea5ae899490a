"""ARCHITECTURE.md names every module of the package and every source file of the VS Code extension, so the
map cannot go stale: a module added without its line fails here, and so does a line naming a module that is
gone.

A module is named in backticks by its path under its root (`lsp/server.py`, `skills/hosts/codex.py`,
`src/chat/turns.ts`; a package by its folder, `skills/hosts/`), or by any shorter tail of that path that no
other module shares (`hosts/codex.py`, `winners.py`, `chat/turns.ts`).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROOTS = {"albedo_skills_ls": "*.py", "vscode-extension/src": "*.ts"}
CODE = re.compile(r"`([^`\s]+)`")


def modules(repo: Path) -> dict[str, str]:
    """Each module's path under its root (`lsp/server.py`; a package: `skills/hosts/`), to its root."""
    found = {}
    for root, pattern in ROOTS.items():
        base = repo / root
        for path in sorted(base.rglob(pattern)):
            relative = path.relative_to(base).as_posix()
            if path.name == "__init__.py":
                relative = relative[: -len("__init__.py")] or "./"
            if relative == "./":
                continue  # the package itself: the whole file is about it
            found[relative] = root
    return found


def named(text: str) -> set[str]:
    """Every backticked token, with an `albedo_skills_ls/` or `vscode-extension/` prefix also taken off."""
    tokens = set()
    for token in CODE.findall(text):
        tokens.add(token)
        for prefix in ("albedo_skills_ls/", "vscode-extension/"):
            if token.startswith(prefix):
                tokens.add(token[len(prefix):])
    return tokens


def resolve(token: str, relatives: list[str]) -> str | None:
    """The one module a backticked token names: its exact path, else the only path it is a tail of."""
    if token.startswith("src/"):
        token = token[len("src/"):]
    if token in relatives:
        return token
    if token.endswith("/__init__.py") and token[: -len("__init__.py")] in relatives:
        return token[: -len("__init__.py")]
    tails = [relative for relative in relatives if relative.endswith("/" + token)]
    return tails[0] if len(tails) == 1 else None


def unmapped(repo: Path) -> list[str]:
    found = modules(repo)
    relatives = list(found)
    tokens = named((repo / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    mapped = {resolve(token, relatives) for token in tokens}
    return [f"{root}/{relative}" for relative, root in found.items() if relative not in mapped]


def stale(repo: Path) -> list[str]:
    """Backticked module paths in ARCHITECTURE.md (with a folder of the package or the extension) that name no
    module any more."""
    found = modules(repo)
    relatives = list(found)
    folders = {part for relative in relatives for part in relative.split("/")[:-1]} | {"src"}
    text = (repo / "ARCHITECTURE.md").read_text(encoding="utf-8")
    gone = []
    for token in named(text):
        if not re.fullmatch(r"[\w/]+/[\w.]+\.(?:py|ts)", token) or token.split("/")[0] not in folders:
            continue
        bare = token.removeprefix("src/")
        package = bare.endswith("/__init__.py") and bare[: -len("__init__.py")] in relatives
        if not package and not any(r == bare or r.endswith("/" + bare) for r in relatives):
            gone.append(token)
    return sorted(gone)


def test_every_module_has_its_line():
    missing = unmapped(REPO)
    assert not missing, "ARCHITECTURE.md does not name these modules (add a line saying what each does):\n" + (
        "\n".join(missing)
    )


def test_no_line_names_a_module_that_is_gone():
    assert stale(REPO) == []


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    for root in ROOTS:
        shutil.copytree(REPO / root, copy / root, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    shutil.copy(REPO / "ARCHITECTURE.md", copy / "ARCHITECTURE.md")
    return copy


def test_a_module_added_without_a_line_fails(tmp_path):
    copy = _copy(tmp_path)
    assert unmapped(copy) == []
    (copy / "albedo_skills_ls" / "lsp" / "rename_helpers.py").write_text('"""New."""\n')
    (copy / "vscode-extension" / "src" / "chat" / "history.ts").write_text("export {};\n")
    # a file name another module already has: its path is needed, the bare name is not enough
    (copy / "albedo_skills_ls" / "cli" / "hover.py").write_text('"""New."""\n')
    assert unmapped(copy) == [
        "albedo_skills_ls/cli/hover.py",
        "albedo_skills_ls/lsp/rename_helpers.py",
        "vscode-extension/src/chat/history.ts",
    ]
    with (copy / "ARCHITECTURE.md").open("a", encoding="utf-8") as handle:
        handle.write("\n`lsp/rename_helpers.py`, `cli/hover.py` and `src/chat/history.ts`: new.\n")
    assert unmapped(copy) == []


def test_a_line_for_a_removed_module_fails(tmp_path):
    copy = _copy(tmp_path)
    assert stale(copy) == []
    (copy / "albedo_skills_ls" / "skills" / "catalog" / "session.py").unlink()
    (copy / "vscode-extension" / "src" / "chat" / "turns.ts").unlink()
    assert stale(copy) == ["catalog/session.py", "chat/turns.ts"]
