"""No diagnostic code is spelled as a string outside the registry (docs/design.md#13-the-code): a rule passes
the registry's entry (`codes.SYMLINK_ESCAPE`), so a search for a code finds every place that emits it, and a
misspelt code cannot exist. The check reads the package, the scripts and the benchmarks (the tests spell codes
on purpose: they say what the person must see)."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import albedo_skills_ls
from albedo_skills_ls.skills.core import codes, security_codes  # noqa: F401  (registers the security codes)
from albedo_skills_ls.skills.resources import listing as resource_listing
from albedo_skills_ls.skills.resources.listing import list_resources
from tracked_files import tracked

PACKAGE = Path(albedo_skills_ls.__file__).parent
REPO = PACKAGE.parent
READ = (PACKAGE, REPO / "scripts", REPO / "benchmarks")
REGISTRY = {PACKAGE / "skills" / "core" / "codes.py", PACKAGE / "skills" / "core" / "security_codes.py"}
# Three codes are plain words that also name other things (`"encoding"` is a key of `skills.read`'s
# answer): those count only where code is chosen, a call's argument or a comparison's operand. A code with
# a hyphen is a code wherever it is written.
PLAIN_WORDS = frozenset(code for code in codes.CODES if "-" not in code)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are statements on their own: docstrings, which may name a code."""
    return {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


def spelled_codes(source: str) -> list[tuple[int, str]]:
    """Code ids written as string literals outside docstrings and comments, with their line numbers."""
    tree = ast.parse(source)
    prose = _docstrings(tree)
    chosen: set[int] = set()  # constants where code is chosen
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            chosen.update(id(operand) for operand in [*node.args, *(keyword.value for keyword in node.keywords)])
        elif isinstance(node, ast.Compare):
            chosen.update(id(operand) for operand in [node.left, *node.comparators])
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in codes.CODES and id(node) not in prose
        and (node.value not in PLAIN_WORDS or id(node) in chosen)
    )


def test_no_code_is_spelled_outside_the_registry():
    spelled = [
        f"{path.relative_to(REPO)}:{line}: {code!r}"
        for root in READ
        for path in tracked(root, ".py")
        if path not in REGISTRY
        for line, code in spelled_codes(path.read_text(encoding="utf-8"))
    ]
    assert spelled == [], "use the registry's entry (codes.NAME) instead:\n" + "\n".join(spelled)


def test_the_check_sees_a_spelled_code():
    assert spelled_codes('warn(path, "symlink-escape", "text")\nif d.code == "collision": pass\n') == [
        (1, "symlink-escape"),
        (2, "collision"),
    ]
    assert spelled_codes('what = {"resource-loop": "a loop"}.get(note["code"])\n') == [(1, "resource-loop")]
    assert spelled_codes('LIMITS = ("diagnostic-limit",)\nx = [ "name-mismatch" ]\n') == [
        (1, "diagnostic-limit"),
        (2, "name-mismatch"),
    ]
    # a docstring may name a code; a plain word that is data (a key read, a value) is not a code
    assert spelled_codes('"""Emits `symlink-escape`."""\nresult = {"encoding": "utf-8", "unreadable": 1}\n') == []
    assert spelled_codes('__all__ = ["collision"]\nmode = "encoding"\n') == []


def test_a_folder_that_turns_into_an_escaping_link_mid_listing_is_reported(tmp_path, monkeypatch):
    """The listing re-resolves each folder just before scanning it; one that now resolves outside the skill
    is reported with the registry's `symlink-escape` (softened to a warning: one skipped entry)."""
    root = tmp_path / "skills"
    folder = root / "demo"
    (folder / "references").mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: demo\ndescription: d\n---\n")
    (folder / "references" / "a.md").write_text("a")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secret.md").write_text("s")
    swapped = folder / "references"
    enter = resource_listing._Walk._enter

    def enter_then_swap(self, queued, queue):
        # the folder was examined as a folder and queued; before its scan it is swapped for a link out
        enter(self, queued, queue)
        if queued.rel == "references":
            (swapped / "a.md").unlink()
            swapped.rmdir()
            swapped.symlink_to(elsewhere)

    monkeypatch.setattr(resource_listing._Walk, "_enter", enter_then_swap)
    result = list_resources("demo", str(folder), discovery_root=str(root))
    assert result["resources"] == ["SKILL.md"]
    (escape,) = result["diagnostics"]
    assert escape["code"] == codes.SYMLINK_ESCAPE.id and escape["severity"] == "warning"
    assert escape["path"] == str(swapped)
    assert f"now resolves outside the skill folder (to {os.path.realpath(elsewhere)})" in escape["message"]


# The extension cannot import the registry: where its TypeScript names a code (compares a diagnostic's code,
# or keys a table by code), the code must be one the registry holds, so a renamed code fails here.
EXTENSION_SOURCES = REPO / "vscode-extension" / "src"
TS_CODE_COMPARED = re.compile(r"\bcode\s*[!=]==?\s*'([^'\n]+)'")
TS_CODE_TABLE = re.compile(r"^export const NATIVE_TWINS\b[^\n]*\{\n(.*?)^\};", re.MULTILINE | re.DOTALL)
TS_TABLE_KEY = re.compile(r"^\s*'([^'\n]+)':", re.MULTILINE)
TS_TYPEOF = re.compile(r"\btypeof\s+[\w.?]+")  # `typeof diagnostic.code === 'object'` asks a type, not a code


def extension_codes(source: str) -> list[str]:
    """The codes a TypeScript file names: compared with a diagnostic's code, or keys of the code tables."""
    named = TS_CODE_COMPARED.findall(TS_TYPEOF.sub("", source))
    for table in TS_CODE_TABLE.findall(source):
        named += TS_TABLE_KEY.findall(table)
    return named


def test_the_extension_names_only_registered_codes():
    named = {
        f"{path.relative_to(EXTENSION_SOURCES)}: {code}"
        for path in tracked(EXTENSION_SOURCES, ".ts")
        if "test" not in path.relative_to(EXTENSION_SOURCES).parts
        for code in extension_codes(path.read_text(encoding="utf-8"))
    }
    assert len(named) >= 5, f"the reader found too few codes in the extension: {sorted(named)}"
    unknown = sorted(entry for entry in named if entry.split(": ", 1)[1] not in codes.CODES)
    assert unknown == [], "not a code of skills/core/codes.py:\n" + "\n".join(unknown)


def test_the_extension_reader_sees_comparisons_and_tables():
    source = (
        "if (diagnostic.code === 'collision') {}\n"
        "if (d.code !== 'name-mismatch') {}\n"
        "const kind = typeof diagnostic.code === 'object' ? 1 : 2;\n"
        "export const NATIVE_TWINS: Readonly<Record<string, RegExp>> = {\n"
        "  'name-missing': /x/,\n  'no-such-code': /y/,\n};\n"
        "const other = { 'not-a-code': 1 };\n"
    )
    assert extension_codes(source) == ["collision", "name-mismatch", "name-missing", "no-such-code"]
