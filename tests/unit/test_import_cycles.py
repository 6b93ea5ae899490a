"""No import cycle outside the package either (docs/design.md#13-the-code): the scripts, the benchmarks, the
tests' helpers and the VS Code extension's TypeScript. (The package itself: tests/unit/test_import_layers.py, whose graph reader and
cycle finder this file reuses.) A type-only TypeScript import counts: it is erased at run time, but a reader
still meets two modules that each need the other."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from test_import_layers import find_cycle, imports_of
from tracked_files import tracked

REPO = Path(__file__).resolve().parents[2]
SCRIPT_PACKAGES = [REPO / "scripts" / "hosts_conformance"]
EXTENSION_SOURCES = REPO / "vscode-extension" / "src"

# `import ... from './x'`, `import './x'`, `export ... from '../y'`: relative specifiers only (the rest are
# packages). Anchored at a line start and free of nested quantifiers: linear in the line.
TS_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"\n]*?['"](\.{1,2}/[^'"\n]+)['"]""", re.MULTILINE)


def python_graph(package: Path) -> dict[str, set[str]]:
    """The import graph of a script package whose modules import each other both relatively and by the
    package's name (the scripts put their folder on `sys.path`)."""
    name = package.name
    modules = {}
    for path in sorted(package.glob("*.py")):
        module = name if path.stem == "__init__" else f"{name}.{path.stem}"
        modules[module] = str(path)
    names = set(modules)
    return {module: imports_of(module, path, names) for module, path in modules.items()}


def folder_graph(root: Path) -> dict[str, set[str]]:
    """The import graph of the Python files under `root` that run with their own folder, or `root`, on
    `sys.path` (the benchmarks, the scripts, the tests' helpers): a module is named by its path from `root`
    (`lsp/harness.py` is `lsp.harness`), and an import names a module of its own folder first."""
    files = {".".join(path.relative_to(root).with_suffix("").parts): path for path in tracked(root, ".py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        folder = name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                named = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                named = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.ImportFrom):  # relative: from the file's folder, `level - 1` up
                base = folder.split(".")[: len(folder.split(".")) - (node.level - 1)] if folder else []
                prefix = ".".join([*base, node.module] if node.module else base)
                named = [prefix, *(f"{prefix}.{alias.name}".lstrip(".") for alias in node.names)]
            else:
                continue
            for target in named:
                for candidate in (f"{folder}.{target}" if folder else target, target):
                    if candidate in files and candidate != name:
                        targets.add(candidate)
                        break
        graph[name] = targets
    return graph


def ts_graph(sources: Path) -> dict[str, set[str]]:
    files = {path.relative_to(sources).as_posix(): path for path in tracked(sources, ".ts")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        targets = set()
        for specifier in TS_IMPORT.findall(path.read_text(encoding="utf-8")):
            resolved = os.path.normpath(os.path.join(os.path.dirname(name), specifier)).replace(os.sep, "/")
            for candidate in (f"{resolved}.ts", f"{resolved}/index.ts", resolved):
                if candidate in files:
                    targets.add(candidate)
                    break
        graph[name] = targets
    return graph


def test_the_script_packages_have_no_import_cycle():
    for package in SCRIPT_PACKAGES:
        graph = python_graph(package)
        assert len(graph) > 5, f"{package}: the graph reader found too few modules"
        cycle = find_cycle(graph)
        assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


FOLDERS = [REPO / "benchmarks", REPO / "scripts", REPO / "tests"]


def test_the_benchmarks_scripts_and_tests_have_no_import_cycle():
    for root in FOLDERS:
        graph = folder_graph(root)
        assert sum(map(len, graph.values())) > 0 or root.name == "scripts", f"{root}: the reader found no import"
        cycle = find_cycle(graph)
        assert cycle is None, f"import cycle under {root.name}/: " + " -> ".join(cycle or [])


def test_the_extension_has_no_import_cycle():
    graph = ts_graph(EXTENSION_SOURCES)
    assert graph["extension.ts"], "the TypeScript import reader found nothing in extension.ts"
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_readers_see_lazy_python_and_type_only_typescript_imports(tmp_path):
    package = tmp_path / "tool"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text("from tool import helpers\n")
    (package / "helpers.py").write_text("def f():\n    from .__main__ import g\n")
    assert find_cycle(python_graph(package)) == ["tool.__main__", "tool.helpers", "tool.__main__"]

    tests = tmp_path / "tests"
    (tests / "lsp").mkdir(parents=True)
    (tests / "lsp" / "__init__.py").write_text("")
    (tests / "lsp" / "harness.py").write_text("from .guard import bound\n")
    (tests / "lsp" / "guard.py").write_text("def bound():\n    import helpers\n")
    (tests / "helpers.py").write_text("from lsp.harness import start\n")
    assert find_cycle(folder_graph(tests)) == ["helpers", "lsp.harness", "lsp.guard", "helpers"]

    sources = tmp_path / "src"
    (sources / "chat").mkdir(parents=True)
    (sources / "view.ts").write_text("import * as vscode from 'vscode';\nimport { support } from './support';\n")
    (sources / "support.ts").write_text("import type { Source } from './view';\nexport const support = 1;\n")
    (sources / "chat" / "index.ts").write_text("export { support } from '../support';\n")
    graph = ts_graph(sources)
    assert graph == {"chat/index.ts": {"support.ts"}, "support.ts": {"view.ts"}, "view.ts": {"support.ts"}}
    assert find_cycle(graph) == ["support.ts", "view.ts", "support.ts"]
