"""Every name is imported from the module that defines it (docs/design.md#13-the-code): no module passes on
another's names (a re-export shim), so a search for a name finds its one definition, and a split moves every
caller instead of leaving the old module answering for the new one.

Read from the source with `ast`, in every tracked Python file (the package, the tests, the scripts, the
benchmarks): `from M import n`, where M is a module of the package, needs `n` defined in M at its top level
(a `def`, a `class`, an assignment) or to be a submodule of M; `m.n`, where `m` names such a module, needs
the same. Reading a module's imported name in order to patch it where it is looked up (a test's
`monkeypatch.setattr(m, "n", ...)`, a benchmark's `m.os.scandir = ...`) is not a re-export and is allowed.
A module's `__all__` names only what it defines.

One exception: `albedo_skills_ls.cli:main` is the console script `pyproject.toml` publishes, so the package
`albedo_skills_ls/cli/__init__.py` imports `main` from `app.py` for the script, and that name may be
imported from the package. Every entry point is read from `pyproject.toml`; nothing else is exempt.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from test_import_layers import _resolve, module_names
from tracked_files import tracked

REPO = Path(__file__).resolve().parents[2]
MODULE_ATTRIBUTES = {"__file__", "__name__", "__doc__", "__spec__", "__path__", "__dict__"}


def top_level_definitions(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names the module defines, names it imports) at its top level, also under `if`/`try`/`with`/`for`."""
    defined: set[str] = set()
    imported: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                defined.update(name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For)):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                visit(getattr(node, "finalbody", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return defined, imported


def entry_points(pyproject: Path) -> set[tuple[str, str]]:
    """(module, name) of every console script `pyproject.toml` publishes."""
    scripts = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"].get("scripts", {})
    return {tuple(target.split(":", 1)) for target in scripts.values()}  # type: ignore[misc]


def dotted_name(relative: Path) -> tuple[str, bool]:
    """A file's module name as the package's modules import it, and whether it is a package's `__init__`."""
    parts = list(relative.with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def patched(tree: ast.Module) -> set[tuple[str, str]]:
    """(module alias, name) pairs the file patches: `monkeypatch.setattr(alias, "name", ...)`."""
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "setattr"
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and isinstance(node.args[1], ast.Constant)
        ):
            found.add((node.args[0].id, node.args[1].value))
    return found


def reexports(root: Path, files: list[str], modules: dict[str, str], published: set[tuple[str, str]]) -> list[str]:
    trees = {module: ast.parse(Path(path).read_text(encoding="utf-8"), path) for module, path in modules.items()}
    tops = {module: top_level_definitions(tree) for module, tree in trees.items()}

    def offers(module: str, name: str) -> bool:
        return f"{module}.{name}" in modules or name in tops[module][0] or (module, name) in published

    found = []
    for name in files:
        me, is_package = dotted_name(Path(name))
        tree = ast.parse((root / name).read_text(encoding="utf-8"), name)
        aliases: dict[str, str] = {}  # a local name -> the package module it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = _resolve(me, is_package, node.level, node.module)
                if source not in modules:
                    continue
                for alias in node.names:
                    if f"{source}.{alias.name}" in modules:
                        aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
                    elif not offers(source, alias.name):
                        found.append(f"{name}:{node.lineno}: imports {alias.name} from {source}, which does not define it")
            elif isinstance(node, ast.Import):
                aliases.update({alias.asname: alias.name for alias in node.names if alias.asname and alias.name in modules})
        patches = patched(tree)
        stdlib = set()  # `m.os`: a standard module the file reaches through the module, to patch it there
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases):
                continue
            module = aliases[node.value.id]
            if node.attr in MODULE_ATTRIBUTES:  # every module has them: `m.__file__` re-exports nothing
                continue
            if offers(module, node.attr) or (node.value.id, node.attr) in patches or node.attr in stdlib:
                continue
            if node.attr in tops[module][1] and not _is_from_import(trees[module], node.attr):
                stdlib.add(node.attr)
                continue
            found.append(f"{name}:{node.lineno}: {node.value.id}.{node.attr}: {module} does not define {node.attr}")
        if me in tops:
            for node in tree.body:
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                    for item in ast.literal_eval(node.value):
                        if not offers(me, item):
                            found.append(f"{name}:{node.lineno}: __all__ names {item}, which {me} does not define")
    return found


def _is_from_import(tree: ast.Module, name: str) -> bool:
    """Whether `name` came into the module by `from X import name` (a value) rather than `import name`."""
    return any(
        isinstance(node, ast.ImportFrom) and any((alias.asname or alias.name) == name for alias in node.names)
        for node in tree.body
    )


def test_every_name_is_imported_from_the_module_that_defines_it():
    modules = {name: path for name, path in module_names().items()}
    files = [path.relative_to(REPO).as_posix() for path in tracked(REPO, ".py")]
    found = reexports(REPO, files, modules, entry_points(REPO / "pyproject.toml"))
    assert found == [], "import each name from its defining module:\n" + "\n".join(found)


def test_the_check_finds_each_kind_of_reexport(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from .app import main\nfrom .home import helper\n")
    (package / "app.py").write_text("def main():\n    pass\n")
    (package / "home.py").write_text("def helper():\n    pass\n")
    (package / "shim.py").write_text(
        "import os\nfrom .home import helper\n__all__ = ['helper', 'own']\nif True:\n    own = 1\n"
    )
    (package / "user.py").write_text(
        "from . import shim\nfrom .shim import helper, own\nfrom .home import helper as h\nshim.helper()\nshim.os.sep\n"
        "def test(monkeypatch):\n    monkeypatch.setattr(shim, 'helper', None)\n"
    )
    (package / "caller.py").write_text("from pkg import main, helper\n")
    modules = {
        "pkg": str(package / "__init__.py"),
        **{f"pkg.{name}": str(package / f"{name}.py") for name in ("app", "home", "shim", "user", "caller")},
    }
    files = [str(Path(path).relative_to(tmp_path)) for path in modules.values()]
    found = reexports(tmp_path, files, modules, {("pkg", "main")})
    assert sorted(found) == sorted([
        "pkg/shim.py:3: __all__ names helper, which pkg.shim does not define",
        "pkg/user.py:2: imports helper from pkg.shim, which does not define it",
        "pkg/caller.py:1: imports helper from pkg, which does not define it",
    ]), "\n".join(found)
    # the attribute read `shim.helper()` is allowed only because the file patches `shim.helper`
    (package / "user.py").write_text("from . import shim\nshim.helper()\n")
    assert reexports(tmp_path, ["pkg/user.py"], modules, set()) == [
        "pkg/user.py:2: shim.helper: pkg.shim does not define helper"
    ]
