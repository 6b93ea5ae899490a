"""The grammars loaded from their wheels' compiled modules, without the packages' own start-up
(security/grammars.py): the same grammar as the package's, and the package's own import where the layout
differs or the package is missing."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from albedo_skills_ls.skills.security.grammars import binding

GRAMMARS = {
    "tree_sitter_bash": ("language",),
    "tree_sitter_javascript": ("language",),
    "tree_sitter_typescript": ("language_typescript", "language_tsx"),
}


def in_fresh_interpreter(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("package", list(GRAMMARS))
def test_the_binding_alone_is_the_packages_grammar_without_its_start_up(package):
    functions = GRAMMARS[package]
    out = in_fresh_interpreter(f"""
        import sys
        from tree_sitter import Language
        from albedo_skills_ls.skills.security.grammars import binding
        grammar = binding({package!r})
        loaded = [Language(getattr(grammar, name)()) for name in {functions!r}]
        package_ran = {package!r} in sys.modules
        resources = "importlib.resources" in sys.modules
        import {package} as whole  # the package imported afterwards takes the same compiled module
        same = all(Language(getattr(whole, name)()) == made for name, made in zip({functions!r}, loaded))
        print(package_ran, resources, same, grammar is sys.modules[{package!r} + "._binding"])
    """)
    assert out == "False False True True"


def test_an_imported_package_is_used_as_it_is():
    import tree_sitter_bash

    assert binding("tree_sitter_bash") is tree_sitter_bash


def test_a_package_without_a_compiled_binding_is_imported_as_usual(tmp_path, monkeypatch):
    (tmp_path / "grammar_elsewhere").mkdir()
    (tmp_path / "grammar_elsewhere" / "__init__.py").write_text("def language():\n    return 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "grammar_elsewhere", raising=False)
    assert binding("grammar_elsewhere").language() == 42
    assert "grammar_elsewhere" in sys.modules


def test_a_missing_grammar_is_an_import_error():
    with pytest.raises(ImportError):
        binding("tree_sitter_no_such_grammar")
