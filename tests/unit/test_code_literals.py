"""No diagnostic code is spelled as a string outside the registry (docs/design.md#13-the-code): a rule passes
the registry's entry (`codes.SYMLINK_ESCAPE`), so a search for a code finds every place that emits it, and a
misspelt code cannot exist."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import albedo_skills_ls
from albedo_skills_ls.skills import codes
from albedo_skills_ls.skills.resource_listing import list_resources

PACKAGE = Path(albedo_skills_ls.__file__).parent


def spelled_codes(source: str) -> list[tuple[int, str]]:
    """Code ids written as literals where code is chosen: a call's argument, or a comparison's operand."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            operands = [*node.args, *(keyword.value for keyword in node.keywords)]
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        else:
            continue
        found += [
            (operand.lineno, operand.value)
            for operand in operands
            if isinstance(operand, ast.Constant) and operand.value in codes.CODES
        ]
    return found


def test_no_code_is_spelled_outside_the_registry():
    spelled = [
        f"{path.relative_to(PACKAGE)}:{line}: {code!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != PACKAGE / "skills" / "codes.py"
        for line, code in spelled_codes(path.read_text(encoding="utf-8"))
    ]
    assert spelled == [], "use the registry's entry (codes.NAME) instead:\n" + "\n".join(spelled)


def test_the_check_sees_a_spelled_code():
    assert spelled_codes('warn(path, "symlink-escape", "text")\nif d.code == "collision": pass\n') == [
        (1, "symlink-escape"),
        (2, "collision"),
    ]
    assert spelled_codes('__all__ = ["collision"]\nresult = {"encoding": "utf-8"}\n') == []


def test_a_folder_that_turns_into_an_escaping_link_mid_listing_is_reported(tmp_path, monkeypatch):
    """The listing re-resolves each folder just before scanning it; one that now resolves outside the skill
    is reported with the registry's `symlink-escape` (softened to a warning: one skipped entry)."""
    root = tmp_path / "skills"
    folder = root / "demo"
    (folder / "references").mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: demo\ndescription: d\n---\n")
    (folder / "references" / "a.md").write_text("a")
    real = os.path.realpath
    swapped = str(folder / "references")

    def realpath(path, *args, **kwargs):
        # the folder was examined as a folder, then swapped for a link to /elsewhere before its scan
        return "/elsewhere" if str(path) == swapped else real(path, *args, **kwargs)

    monkeypatch.setattr("albedo_skills_ls.skills.resource_listing.os.path.realpath", realpath)
    result = list_resources("demo", str(folder), discovery_root=str(root))
    assert result["resources"] == ["SKILL.md"]
    (escape,) = result["diagnostics"]
    assert escape["code"] == codes.SYMLINK_ESCAPE.id and escape["severity"] == "warning"
    assert escape["path"] == swapped and "now resolves outside the skill folder (to /elsewhere)" in escape["message"]
