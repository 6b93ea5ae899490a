"""The project's per-agent verdicts against what the agents themselves answered on the same fixture.

`recorded_observations.json` holds the normalised answers of Codex, Claude Code, Gemini CLI, OpenCode and
Copilot CLI (pinned versions), run for real and offline by `scripts/hosts_conformance record`. This test
builds the same fixture anew, runs the real `albedo-skills hosts --format json` over it and requires the
same verdict (loads or not, and the name) for every file of every agent: no network, no agent needed.
The live run (`scripts/hosts_conformance live`, a step of scripts/test.sh) compares the agents themselves.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))

from hosts_conformance import compare, fixture, recorded  # noqa: E402
from hosts_conformance.tree import Tree  # noqa: E402
from hosts_conformance.verdict import project_verdict  # noqa: E402

RUNNABLE = ("codex", "claude-code", "gemini-cli", "opencode", "copilot-cli")


@pytest.fixture(scope="module")
def saved() -> dict:
    return recorded.load()


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    base = tmp_path_factory.mktemp("conformance") / "fixture"
    base.mkdir()
    fixture.build(str(base))
    return Tree(str(base))


@pytest.fixture(scope="module")
def project(tree: Tree) -> dict:
    return project_verdict(tree, list(RUNNABLE))


def test_the_recording_is_of_this_fixture_and_every_runnable_agent(saved: dict, tree: Tree) -> None:
    assert saved["fixture"] == recorded.fixture_digest(), "fixture.py changed: run `scripts/hosts_conformance record`"
    assert sorted(saved["agents"]) == sorted(RUNNABLE)
    assert saved["network_isolated"] is True
    inventory = tree.inventory()
    assert inventory == sorted(case.path for case in fixture.cases())
    for host, found in saved["agents"].items():
        assert sorted(found["skills"]) == inventory, host


@pytest.mark.parametrize("host", RUNNABLE)
def test_the_project_agrees_with_the_agent_on_every_file(host: str, saved: dict, project: dict) -> None:
    observed = saved["agents"][host]
    assert project[host]["version"] == observed["version"]
    agreement = compare.compare_host(host, observed, project[host]["skills"], compare.varied_paths(observed))
    assert agreement.disagreements == [], "\n" + "\n".join(d.line() for d in agreement.disagreements)
    assert agreement.agreed == agreement.total == len(fixture.cases())


def test_an_agent_whose_choice_varied_is_called_not_deterministic(saved: dict, project: dict) -> None:
    """OpenCode's winner between two copies of one name changed between runs: the project says so."""
    varied = compare.varied_paths(saved["agents"]["opencode"])
    assert "project/.agents/skills/xroot/SKILL.md" in varied
    for path in varied:
        assert "not deterministic" in project["opencode"]["skills"][path]["reason"]


def test_a_wrong_verdict_is_a_disagreement(saved: dict, project: dict) -> None:
    """The comparison itself can fail: flip one verdict and one file disagrees, naming its case."""
    skills = {path: dict(verdict) for path, verdict in project["codex"]["skills"].items()}
    path = "project/.agents/skills/a-nodesc/SKILL.md"
    skills[path] |= {"loads": True, "name": "a-nodesc", "reason": None}
    agreement = compare.compare_host("codex", saved["agents"]["codex"], skills)
    assert [d.path for d in agreement.disagreements] == [path]
    assert "no description" in agreement.disagreements[0].line()
    assert "missing field `description`" in agreement.disagreements[0].line()
