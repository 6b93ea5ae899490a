"""The README as a newcomer reads it: the product first, a real excerpt of its output, then exactly the two
commands; the light test command beside the full one; every document reachable from one index.

The excerpt is checked against what the first command prints today, so it cannot drift from the program.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from cli_helpers import REPO, run_cli

README = REPO / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
ELIDED = "…"  # an excerpt line standing for lines left out


def text() -> str:
    return README.read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The body of the `## HEADING` section, up to the next `## ` heading."""
    found = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text(), re.MULTILINE | re.DOTALL)
    assert found, f"README.md has no `## {heading}` section"
    return found.group(1)


def commands(block: str) -> list[str]:
    """The command lines of a shell block: comments after `#` and blank lines left out."""
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]


def test_the_readme_opens_with_the_product_then_its_output_then_the_two_commands():
    readme = text()
    assert readme.startswith("# albedo-skills-ls\n\n")
    opening = readme[: readme.index("\n## ")]
    blocks = FENCE.findall(opening)
    assert [language for language, _ in blocks] == ["text"], "before the first section: one output example only"
    prose = opening[len("# albedo-skills-ls\n\n"): opening.index("```")]
    assert "Agent Skills" in prose and "SKILL.md" in prose  # what it is, before anything is run
    first_heading = re.search(r"^## (.+)$", readme, re.MULTILINE).group(1)
    assert first_heading == "Two commands"
    (language, block), *_ = FENCE.findall(section("Two commands"))
    assert language == "sh"
    first, second = commands(block)  # exactly two
    assert first.startswith("python3 -m venv .venv && ") and "/albedo-skills catalog " in first
    assert second == "bash scripts/test.sh"


def test_the_output_excerpt_is_what_the_first_command_prints():
    first = commands(FENCE.findall(section("Two commands"))[0][1])[0]
    program, *arguments = shlex.split(first.rsplit(" && ", 1)[1])
    assert program == ".venv/bin/albedo-skills"
    done = run_cli(*arguments, cwd=REPO)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.decode("utf-8").splitlines()
    excerpt = FENCE.findall(text()[: text().index("\n## ")])[0][1].splitlines()
    shown = [line for line in excerpt if line != ELIDED]
    assert len(shown) >= 5
    # every line of the excerpt is a line the command prints, in the same order
    position = 0
    for line in shown:
        assert line in printed[position:], f"the README shows a line the first command does not print:\n{line}"
        position = printed.index(line, position) + 1


def test_the_light_test_command_sits_beside_the_full_one():
    (language, block), *_ = FENCE.findall(section("Tests"))
    assert language == "sh"
    assert commands(block) == ["bash scripts/test.sh", "bash scripts/test.sh --light"]
    assert "bash scripts/test.sh --light" not in commands(FENCE.findall(section("Two commands"))[0][1])


def test_every_document_is_linked_from_the_documentation_index():
    index = section("Documentation")
    linked = set(re.findall(r"\]\(([^)#]+)\)", index))
    documents = {path.relative_to(REPO).as_posix() for path in (REPO / "docs").glob("*.md")}
    documents |= {path.relative_to(REPO).as_posix() for path in (REPO / "doc").iterdir()}
    documents |= {"ARCHITECTURE.md", "vscode-extension/README.md", "benchmarks/README.md", "docs/cli.md"}
    assert documents - linked == set()
    assert "`doc/`" in index and "`docs/`" in index  # why two folders


def test_no_sentence_is_true_only_on_the_machines_it_was_developed_on():
    readme = text()
    for phrase in ("../shared", "shared/test-deps", "shared 2-core", "this machine"):
        assert phrase not in readme, phrase
