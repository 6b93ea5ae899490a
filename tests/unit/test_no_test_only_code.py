"""Every function, class and method of the package is used by the program (docs/design.md#13-the-code): one
that only a test calls is a second path nobody runs, and a reader cannot tell it is not the real one.

Read with `ast`: each top-level `def`/`class` of the package and each method must be named somewhere outside
the tests (the package, the scripts, the benchmarks, `pyproject.toml`'s entry points), as a name, an
attribute or a string (a table of names). Not counted: dunder methods, functions registered by a decorator
(`@server.feature(...)`: the decorator is their use), and the methods below that a library calls by its
own name.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

from tracked_files import tracked

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "albedo_skills_ls/"
# methods a library calls, named as it names them
LIBRARY_CALLBACKS = {
    "filter": "logging.Filter: the logging module calls it for each record",
    "emit": "logging.Handler: the logging module calls it for each record",
    "_fill_text": "argparse.HelpFormatter: argparse calls it to lay out a help text",
}
PLAIN_DECORATORS = {"property", "staticmethod", "classmethod", "cached_property"}
WORD = re.compile(r"\w+")


def definitions(tree: ast.Module) -> list[tuple[str, int]]:
    """(name, line) of the top-level functions and classes and of the classes' methods a use must name."""
    found = []

    def counted(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
        names = {
            (decorator.func if isinstance(decorator, ast.Call) else decorator).__dict__.get("id")
            or (decorator.func if isinstance(decorator, ast.Call) else decorator).__dict__.get("attr")
            for decorator in node.decorator_list
        }
        return not (names - PLAIN_DECORATORS) and not node.name.startswith("__")

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and counted(node):
            found.append((node.name, node.lineno))
        if isinstance(node, ast.ClassDef):
            found += [
                (method.name, method.lineno)
                for method in node.body
                if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef))
                and counted(method)
                and method.name not in LIBRARY_CALLBACKS
            ]
    return found


def uses(tree: ast.Module) -> Counter[str]:
    """Every name, attribute and word-like string a file mentions."""
    found: Counter[str] = Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found[node.id] += 1
        elif isinstance(node, ast.Attribute):
            found[node.attr] += 1
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and WORD.fullmatch(node.value):
            found[node.value] += 1
    return found


def unused_outside_tests(sources: dict[str, str], entry_points: str) -> list[str]:
    trees = {name: ast.parse(text, name) for name, text in sources.items()}
    used: Counter[str] = Counter(WORD.findall(entry_points))
    for name, tree in trees.items():
        if not name.startswith("tests/"):
            used.update(uses(tree))
    return [
        f"{name}:{line}: {defined} is used by no program code"
        for name, tree in trees.items()
        if name.startswith(PACKAGE)
        for defined, line in definitions(tree)
        if used[defined] == 0
    ]


def test_no_function_is_used_only_by_tests():
    sources = {path.relative_to(REPO).as_posix(): path.read_text(encoding="utf-8") for path in tracked(REPO, ".py")}
    found = unused_outside_tests(sources, (REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert found == [], "remove it, or use it where the program needs it:\n" + "\n".join(found)


def test_the_check_finds_a_function_only_a_test_calls():
    sources = {
        "albedo_skills_ls/m.py": (
            "def used():\n    pass\n\ndef only_tested():\n    pass\n\n"
            "class Shape:\n    @property\n    def area(self):\n        return 1\n    def emit(self, record):\n        pass\n\n"
            "@server.feature('x')\ndef handler():\n    pass\n"
        ),
        "albedo_skills_ls/n.py": "from .m import used, Shape\nused()\nShape()\n",
        "tests/test_m.py": "from albedo_skills_ls.m import only_tested\nonly_tested()\nShape().area\n",
    }
    assert unused_outside_tests(sources, "") == [
        "albedo_skills_ls/m.py:4: only_tested is used by no program code",
        "albedo_skills_ls/m.py:9: area is used by no program code",
    ]
    assert unused_outside_tests(sources, 'x = "albedo_skills_ls.m:only_tested"') == [
        "albedo_skills_ls/m.py:9: area is used by no program code",
    ]
