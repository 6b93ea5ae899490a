"""The catalog budgets the project predicts against what Codex and Claude Code gave their model when run.

`recorded_budgets.json` holds, for catalogs of 10, 100 and 300 skills at one description length each, how
many skills each agent showed its model with the whole description, cut (and to how many characters), by
name alone and not at all (`python scripts/hosts_conformance budgets`). This test builds the same catalogs
anew and requires the real `albedo-skills hosts` to give the same counts and the same shortest and longest
cut (Codex shares its token budget out a character at a time, so its cuts differ by up to 4 between skills).
"""

from __future__ import annotations

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))

from hosts_conformance import budgets, generate  # noqa: E402
from hosts_conformance.tree import Tree  # noqa: E402
from hosts_conformance.verdict import project_verdict  # noqa: E402

RECORDED = os.path.join(os.path.dirname(__file__), "recorded_budgets.json")
with open(RECORDED, encoding="utf-8") as saved:
    SAVED = json.load(saved)


@pytest.mark.parametrize("catalog", [(10, 1000), (100, 400), (300, 100)], ids=lambda c: f"{c[0]}x{c[1]}")
def test_the_prediction_matches_what_the_agents_showed_their_model(tmp_path, catalog):
    count, length = catalog
    generate.build_catalog(str(tmp_path), count, length)
    project = project_verdict(Tree(str(tmp_path)), list(SAVED["versions"]))
    for host, version in SAVED["versions"].items():
        assert project[host]["version"] == version
        measured = next(entry["measured"] for entry in SAVED["catalogs"]
                        if (entry["agent"], entry["skills"], entry["description"]) == (host, count, length))
        root = ".agents/skills" if host == "codex" else ".claude/skills"
        said = {path: (verdict["description_seen"] if verdict["loads"] else None)
                for path, verdict in project[host]["skills"].items() if f"/{root}/" in path}
        predicted = budgets.shape(said, length)
        for key in ("whole", "cut", "name only", "not shown"):
            assert predicted[key] == measured[key], (host, key, predicted, measured)
        assert predicted["cut to"] == measured["cut to"], (host, predicted, measured)
