"""The registry of diagnostic codes agrees with the engine, the tests and docs/diagnostics.md (which
`python -m albedo_skills_ls.generate` writes from it: tests/unit/test_generated.py).

Adding a rule means adding its code to skills/core/codes.py, emitting it from the rule, testing it, and
regenerating the docs; each test here fails when one of those is missing.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from albedo_skills_ls.skills.core import codes
from albedo_skills_ls.skills.authoring.fixes import quick_fixes
from albedo_skills_ls.skills.catalog.discovery import discover
from albedo_skills_ls.skills.language.unknown_commands import commands_of
from albedo_skills_ls.skills.core.codes import CODES, FIXABLE
from albedo_skills_ls.skills.core.model import SEVERITY_RANK

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "albedo_skills_ls"
REGENERATE = "regenerate it: python -m albedo_skills_ls.generate"


def test_every_code_has_its_row_and_anchor_in_the_docs() -> None:
    text = (REPO / codes.DOCS_PATH).read_text(encoding="utf-8")
    missing = [
        entry.id for entry in CODES.values()
        if f'| <a id="{entry.id}"></a>`{entry.id}` | {entry.severity} |' not in text
    ]
    assert missing == [], REGENERATE


def test_every_entry_is_complete() -> None:
    for entry in CODES.values():
        assert entry.severity in SEVERITY_RANK, entry.id
        assert entry.summary.endswith(".") and "\n" not in entry.summary, entry.id
        assert entry.when and entry.help.endswith("."), entry.id


def test_only_the_registry_builds_diagnostics() -> None:
    """Rules emit registry entries (`CODE.at(...)`); a `Diagnostic(...)` call elsewhere could carry any string."""
    builders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "skills" / "core" / "codes.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                engine_value = isinstance(func, ast.Name) or (  # not lsprotocol's `types.Diagnostic`
                    isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "model"
                )
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name == "Diagnostic" and engine_value:
                    builders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert builders == []


FIXABLE_EXAMPLES = {
    "name-mismatch": "---\nname: other\ndescription: Does things.\n---\n",
    "name-invalid": "---\nname: Demo_Skill\ndescription: Does things.\n---\n",
    "field-unknown": "---\nname: demo\ndesciption: Does things.\n---\n",
    "frontmatter-missing": "# Demo\n",
    "allowed-tools-list": "---\nname: demo\ndescription: Does things.\nallowed-tools: [Read, Grep]\n---\n",
    "reference-missing": "---\nname: demo\ndescription: Does things.\n---\nSee [g](reference/guide.md).\n",
    "yaml-unquoted-colon": "---\nname: demo\ndescription: Use this: when asked.\n---\n",
    "command-unknown": "---\nname: demo\ndescription: Does things.\n---\nRun /demoo first.\n",
    "license-file-missing": "---\nname: demo\ndescription: Does things.\nlicense: see license.txt\n---\n",
}


def test_the_fixable_set_is_what_quick_fixes_answer(tmp_path: Path) -> None:
    path = str(tmp_path / "demo" / "SKILL.md")
    (tmp_path / "demo" / "references").mkdir(parents=True)
    (tmp_path / "demo" / "references" / "guide.md").write_text("# Guide\n")  # the near miss a fix uses
    (tmp_path / "demo" / "LICENSE.txt").write_text("terms\n")  # the license's near miss
    assert set(FIXABLE_EXAMPLES) == FIXABLE
    skill = tmp_path / "ws/.agents/skills/demo/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(FIXABLE_EXAMPLES["name-mismatch"].replace("other", "demo"))
    commands = commands_of(discover(str(tmp_path / "ws"), str(tmp_path / "home"), user_roots=False))
    for code, text in FIXABLE_EXAMPLES.items():
        assert code in {fix.diagnostic.code for fix in quick_fixes(path, text, commands)}, code
    # diagnostics of codes outside the set get no fix
    unfixable = "---\nname: demo\nname: demo\nmodel: x\n---\n"
    assert quick_fixes(path, unfixable) == []


def _codes_emitted_by_the_unit_suite(tmp_path: Path) -> set[str]:
    """Run tests/unit (without these parity tests) in a child pytest that writes the codes it recorded."""
    out = tmp_path / "emitted.json"
    env = {**os.environ, "ALBEDO_SKILLS_TEST_EMITTED_CODES_FILE": str(out)}
    child = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not codes_parity",
         str(REPO / "tests" / "unit")],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=1800,
    )
    # the child's failures are reported by the tests themselves; here only its record matters
    assert out.exists(), child.stdout[-4000:] + child.stderr[-4000:]
    return set(json.loads(out.read_text()))


@pytest.mark.codes_parity
def test_every_emitted_code_is_registered(emitted_codes) -> None:
    assert emitted_codes.codes - set(CODES) == set(), "add these codes to albedo_skills_ls/skills/core/codes.py"


@pytest.mark.codes_parity
def test_every_registered_code_is_emitted_by_some_test(emitted_codes, tmp_path: Path) -> None:
    emitted = set(emitted_codes.codes)
    if not emitted_codes.whole_unit_suite:
        emitted |= _codes_emitted_by_the_unit_suite(tmp_path)
    assert emitted - set(CODES) == set(), "add these codes to albedo_skills_ls/skills/core/codes.py"
    assert set(CODES) - emitted == set(), "write a test that makes the engine emit these codes"
