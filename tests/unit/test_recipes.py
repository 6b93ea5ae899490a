"""ARCHITECTURE.md's recipes, performed: on a scratch copy of the tree, a new diagnostic code and a new agent
model are added exactly as the recipes say, the generator runs, and the suite's relevant part passes there. The
files that changed are then the ones the recipe names, and no other, so a recipe cannot go stale: a step
that stops being enough fails the scratch suite, and a file that starts needing a hand edit shows up as
missing from the generated set."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HANG_GUARD_SECONDS = 600  # a pytest run of a few test files on the scratch copy: a guard, not a speed goal


@pytest.fixture
def scratch(tmp_path) -> Path:
    """The working tree's files as edited (tracked, and new ones git does not ignore), copied."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=True).stdout
    copy = tmp_path / "tree"
    for name in filter(None, listed.decode().split("\0")):
        source = REPO / name
        if source.is_file() and not source.is_symlink():
            target = copy / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return copy


def run(scratch: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    # the scratch copy's package ahead of the installed (editable) one
    env = {**os.environ, "PYTHONPATH": str(scratch), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *argv], cwd=scratch, env=env, capture_output=True, text=True,
                          timeout=HANG_GUARD_SECONDS, check=False)


def changed_files(scratch: Path) -> set[str]:
    """The files of the scratch copy that differ from the tree's, or are new."""
    found = set()
    for path in scratch.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            relative = path.relative_to(scratch).as_posix()
            original = REPO / relative
            if not original.is_file() or original.read_bytes() != path.read_bytes():
                found.add(relative)
    return found


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path}: the recipe's anchor {old!r} is not there once"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_package_imported_is_the_scratch_copys(scratch):
    done = run(scratch, "-c", "import albedo_skills_ls; print(albedo_skills_ls.__file__)")
    assert done.stdout.strip() == str(scratch / "albedo_skills_ls" / "__init__.py"), done.stderr


RULE_TEST = '''
from albedo_skills_ls.skills.document.rules import check_document

TEXT = "---\\nname: demo\\ndescription: Demo skill with the recipe-marker in it.\\n---\\n# Demo\\n"


def test_the_new_rule_fires_on_its_marker_and_only_there():
    found = check_document(TEXT, "/w/demo/SKILL.md", "demo").diagnostics
    assert [d.code for d in found] == ["recipe-example"]
    assert found[0].range.start.line == 2
    clean = check_document(TEXT.replace("recipe-marker", "marker"), "/w/demo/SKILL.md", "demo").diagnostics
    assert clean == ()
'''


def test_a_new_diagnostic_code_touches_the_registry_its_rule_and_a_test(scratch):
    # 1. the registry
    (scratch / "albedo_skills_ls/skills/core/codes.py").write_text(
        (scratch / "albedo_skills_ls/skills/core/codes.py").read_text(encoding="utf-8")
        + '\nRECIPE_EXAMPLE = register(\n    "recipe-example", WARNING,\n    "The description holds the recipe\'s marker.",\n'
        '    "the description holds `recipe-marker`",\n    "Take the marker out.",\n)\n',
        encoding="utf-8",
    )
    # 2. the rule that sees it
    edit(scratch / "albedo_skills_ls/skills/document/rules.py",
         '    description, description_node = checker.string_field("description")\n',
         '    description, description_node = checker.string_field("description")\n'
         '    if description_node is not None and description and "recipe-marker" in description:\n'
         '        checker.add(codes.RECIPE_EXAMPLE, "the description holds the marker", description_node.range)\n')
    # 3. a test that makes the engine emit it
    (scratch / "tests/unit/test_recipe_rule.py").write_text(RULE_TEST, encoding="utf-8")
    # 4. the generator
    generated = run(scratch, "-m", "albedo_skills_ls.generate")
    assert generated.returncode == 0, generated.stderr
    assert changed_files(scratch) == {
        "albedo_skills_ls/skills/core/codes.py", "albedo_skills_ls/skills/document/rules.py",
        "tests/unit/test_recipe_rule.py", "docs/diagnostics.md",
    }
    assert "`recipe-example`" in (scratch / "docs/diagnostics.md").read_text(encoding="utf-8")
    suite = run(scratch, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/unit/test_recipe_rule.py",
                "tests/unit/test_generated.py", "tests/unit/test_codes.py", "-k",
                "not test_every_registered_code_is_emitted_by_some_test")
    assert suite.returncode == 0, suite.stdout[-3000:] + suite.stderr[-2000:]


AGENT_MODULE = '''"""A made-up agent, added by the recipe test."""

from __future__ import annotations

from .facts import SkillFacts
from .model import LOADS, SKIPPED, Duplicates, HostModel, Verdict, Walk, read_in_source


def judge(facts: SkillFacts) -> Verdict:
    name = facts.string("name")
    return Verdict(LOADS, name, facts.string("description") or "") if name else Verdict(SKIPPED, reason="no name")


MODEL = HostModel(
    id="recipe-agent",
    short="ra",
    label="Recipe Agent",
    evidence=read_in_source("Recipe Agent", "0000000", "(made up by tests/unit/test_recipes.py)"),
    roots=(("workspace", ".recipe/skills"),),
    walk=Walk(max_levels=1),
    duplicates=Duplicates("first"),
    budget=None,
    rules=(),
    judge=judge,
)
'''

AGENT_TEST = '''
from albedo_skills_ls.skills import hosts


def test_the_new_agent_judges_its_own_root(tmp_path):
    folder = tmp_path / "ws" / ".recipe" / "skills" / "demo"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\\nname: demo\\ndescription: Demo.\\n---\\n", encoding="utf-8")
    report = hosts.report(str(tmp_path / "ws"), str(tmp_path / "home"), ("recipe-agent",))
    (entry,) = report.hosts
    assert entry.host.short == "ra"
    assert [verdict.name for verdict in entry.verdicts.values()] == ["demo"]
'''


def test_a_new_agent_model_touches_its_module_the_declaration_and_its_tests(scratch):
    # 1. its module, 2. its line in the declaration, 3. its test
    (scratch / "albedo_skills_ls/skills/hosts/recipe_agent.py").write_text(AGENT_MODULE, encoding="utf-8")
    edit(scratch / "albedo_skills_ls/skills/hosts/__init__.py", '    "claude-upload": "claude_upload",\n',
         '    "claude-upload": "claude_upload",\n    "recipe-agent": "recipe_agent",\n')
    (scratch / "tests/unit/test_recipe_agent.py").write_text(AGENT_TEST, encoding="utf-8")
    # 4. the generator
    generated = run(scratch, "-m", "albedo_skills_ls.generate")
    assert generated.returncode == 0, generated.stderr
    assert changed_files(scratch) == {
        "albedo_skills_ls/skills/hosts/recipe_agent.py", "albedo_skills_ls/skills/hosts/__init__.py",
        "tests/unit/test_recipe_agent.py", "docs/hosts.md", "vscode-extension/package.json", "ARCHITECTURE.md",
    }
    assert "### `recipe-agent`: Recipe Agent" in (scratch / "docs/hosts.md").read_text(encoding="utf-8")
    suite = run(scratch, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/unit/test_recipe_agent.py",
                "tests/unit/test_generated.py", "tests/unit/test_hosts_engine.py", "tests/unit/test_hosts_cli.py",
                "tests/unit/test_architecture_map.py")
    assert suite.returncode == 0, suite.stdout[-3000:] + suite.stderr[-2000:]
    help_text = run(scratch, "-m", "albedo_skills_ls.cli", "hosts", "--help").stdout
    assert "recipe-agent" in help_text.replace("\n", " ")
