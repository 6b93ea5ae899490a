"""Names are found by search (docs/design.md#13-the-code): no function or attribute is reached through a name
built at run time (`getattr(verbs, f"run_{name}")`), so a search for `run_check` finds whoever calls it. The
verbs are dispatched by an explicit table (`cli/options.py`, `Verb.load`).

Read with `ast` over the package, the scripts and the benchmarks: the name given to `getattr`, `hasattr`,
`setattr`, `delattr` or `operator.attrgetter`, or used as a key of `globals()`, `locals()` or `vars()`, may be a
literal or a variable holding one from a table, never an f-string, a concatenation, `%` or `.format()`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import albedo_skills_ls
from tracked_files import tracked

PACKAGE = Path(albedo_skills_ls.__file__).parent
READ = (PACKAGE, PACKAGE.parent / "scripts", PACKAGE.parent / "benchmarks")
BY_NAME = {"getattr", "hasattr", "setattr", "delattr", "attrgetter"}
NAMESPACES = {"globals", "locals", "vars"}


def built(node: ast.AST) -> bool:
    """A string put together at run time."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"


def callee(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def names_built(source: str) -> list[int]:
    """Lines where an attribute or a global is reached through a name built at run time."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and callee(node) in BY_NAME:
            arguments = node.args[1:2] if callee(node) != "attrgetter" else node.args
            if any(built(argument) for argument in arguments):
                found.append(node.lineno)
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Call)
            and callee(node.value) in NAMESPACES
            and built(node.slice)
        ):
            found.append(node.lineno)
    return sorted(found)


def test_no_name_is_built_at_run_time():
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for root in READ
        for path in tracked(root, ".py")
        for line in names_built(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "dispatch through an explicit table instead:\n" + "\n".join(found)


def test_the_check_sees_each_way_of_building_a_name():
    source = (
        'f = getattr(verbs, f"run_{name}")\n'
        'g = getattr(verbs, "run_" + name)\n'
        'h = hasattr(verbs, "configure_%s" % name)\n'
        'i = attrgetter("run_{}".format(name))(verbs)\n'
        'j = globals()[f"run_{name}"]\n'
        'k = getattr(verbs, "run_check")\n'
        'l = getattr(item, field)\n'
    )
    assert names_built(source) == [1, 2, 3, 4, 5]
