"""The project's verdicts against what the five agents answered on generated trees (fixed seeds), offline.

`recorded_generated.json` holds the normalised answers of the live agents on the tree that `generate.py`
builds from the CI seed (`python scripts/hosts_conformance generated --record`): loads, name, and the
description each agent gives its model. `recorded_generated_links.json` holds the same for a tree of the
`links` shape (`shapes.py`: folders shared between roots by links, linked SKILL.md files, broken links, a
loop, a link out of the workspace; `generated --shape links --seed 801 --count 60 --record`). This test
builds each tree anew from its seed, runs the real `albedo-skills hosts --format json` over it and requires
agreement on every file for every agent.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))

from hosts_conformance import compare, generate, recorded, shapes  # noqa: E402
from hosts_conformance.batch import recorded_path  # noqa: E402
from hosts_conformance.tree import Tree  # noqa: E402
from hosts_conformance.verdict import project_verdict  # noqa: E402

RUNNABLE = ("codex", "claude-code", "gemini-cli", "opencode", "copilot-cli")


@pytest.fixture(scope="module", params=["random", "links"])
def saved(request: pytest.FixtureRequest) -> dict:
    with open(recorded_path(request.param), encoding="utf-8") as found:
        recording = json.load(found)
    assert recording.get("shape", "random") == request.param
    return recording


@pytest.fixture(scope="module")
def built(saved: dict, tmp_path_factory: pytest.TempPathFactory) -> tuple[Tree, dict[str, str]]:
    base = tmp_path_factory.mktemp("generated") / "tree"
    base.mkdir()
    made = generate.build(str(base), saved["seed"], saved["count"], saved.get("shape", "random"))
    tree = Tree(str(base))
    return tree, generate.why_of(made, tree.inventory())


def test_the_seed_builds_the_recorded_tree(saved: dict, built: tuple[Tree, dict[str, str]]) -> None:
    tree, _why = built
    assert sorted(saved["agents"]) == sorted(RUNNABLE)
    for host, found in saved["agents"].items():
        assert sorted(found["skills"]) == tree.inventory(), host


def test_the_generator_draws_every_class(saved: dict, built: tuple[Tree, dict[str, str]]) -> None:
    """The classes the model was fixed for are in the recorded tree, so the test below exercises them."""
    _tree, why = built
    if saved.get("shape") == "links":  # broken links leave no file behind: the kinds are read from the cases
        kinds = {feature for case in shapes.link_cases(saved["seed"], saved["count"]) for feature in case.features}
        assert {f"link={kind}" for kind, _weight in shapes.LINK_KINDS} | {"link=whole-root"} <= kinds
        return
    features = {feature.split("=")[0] + ("=" + feature.split("=")[1] if feature.startswith(("name=", "description=")) else "")
                for text in why.values() for feature in text.split(", ")}
    for wanted in ("name=tilde", "description=empty", "description=flow-list", "name=colon", "crlf",
                   "description-unicode", "disable-model-invocation", "nested"):
        assert any(feature.startswith(wanted) for feature in features), wanted


@pytest.mark.parametrize("host", RUNNABLE)
def test_the_project_agrees_with_the_agent_on_every_generated_file(host: str, saved: dict,
                                                                    built: tuple[Tree, dict[str, str]]) -> None:
    tree, why = built
    project = project_verdict(tree, [host])
    observed = {"agents": {host: saved["agents"][host]}}
    [agreement] = compare.compare_all(observed, project, recorded.load(), same_tree=False, why=why)
    wrong = agreement.disagreements + list(agreement.description_disagreements)
    assert wrong == [], "\n" + "\n".join(d.line() for d in wrong)
    assert agreement.described_total > 0
