"""The live agents over generated trees (`generate.py`): one tree per seed, every agent, every file compared.

    python scripts/hosts_conformance generated --seed 1 --seeds 10 --count 300

runs seeds 1..10, each a tree of about 300 random skills. For each agent it prints the files that agree (loads
and name) and the descriptions that agree, then every disagreement with the features of its file, then how
often each feature appears among the disagreements (the class to look at first). `live` runs one small
fixed-seed batch (`CI_SEED`, `CI_COUNT`) after the fixture, so CI exercises the same path in a few minutes.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections import Counter

from . import agents, compare, generate, recorded, sandbox
from .tree import Tree

CI_SEED = 20261203
CI_COUNT = 80  # skills in the CI batch: every agent runs once (OpenCode three times) in well under a minute
RECORDED_PATH = os.path.join(os.path.dirname(recorded.RECORDED_PATH), "recorded_generated.json")


def recorded_path(shape: str) -> str:
    """Where `--record` writes a shape's first tree: `RECORDED_PATH` for the random trees, else beside it."""
    return RECORDED_PATH if shape == "random" else RECORDED_PATH.replace(".json", f"_{shape}.json")


def run_generated(first_seed: int, seeds: int, count: int, ids: list[str], runs: int | None,
                  out: str | None = None, record: bool = False, shape: str = "random") -> int:
    """Run the agents over `seeds` generated trees of `shape` (`generate.build`); `record`: write the first
    tree's observations to `recorded_path(shape)`, for the offline tests (test_generated_recorded.py)."""
    from .verdict import project_verdict

    prefix = sandbox.isolation_command()
    if prefix is None:
        print("GENERATED BATCH NOT RUN: this machine cannot make a loopback-only network namespace")
        return 0
    ready = [agent_id for agent_id in ids if agents.is_cached(agents.BY_ID[agent_id])]
    if not ready:
        print("GENERATED BATCH NOT RUN: none of the pinned agents is cached")
        return 0
    saved = recorded.load()
    totals: dict[str, list[int]] = {}
    wrong: list[compare.Disagreement] = []
    files = 0
    for seed in range(first_seed, first_seed + seeds):
        with tempfile.TemporaryDirectory(prefix=f"conformance-generated-{seed}-") as folder:
            base = os.path.join(folder, "tree")
            os.makedirs(base)
            made = generate.build(base, seed, count, shape)
            tree = Tree(base)
            inventory = tree.inventory()  # the SKILL.md files as seen through their roots, links included
            why = generate.why_of(made, inventory)
            project = project_verdict(tree, ready)
            started = time.monotonic()
            observed = sandbox.observe_isolated(tree, ready, prefix, os.path.join(folder, "observed.json"), runs)
            results = compare.compare_all(observed, project, saved, same_tree=False, why=why)
            if record and seed == first_seed:
                observed.update(seed=seed, count=count, shape=shape,
                                recorded_on=time.strftime("%Y-%m-%d", time.gmtime()))
                with open(recorded_path(shape), "w", encoding="utf-8") as written:
                    json.dump(observed, written, indent=1, sort_keys=True, ensure_ascii=False)
                    written.write("\n")
        files += len(inventory)
        print(f"seed {seed}: {len(inventory)} files, agents ran in {time.monotonic() - started:.1f} s")
        for each in results:
            counts = totals.setdefault(f"{each.host} {each.version}", [0, 0, 0, 0])
            for index, value in enumerate((each.agreed, each.total, each.described_agreed, each.described_total)):
                counts[index] += value
            wrong += each.disagreements + list(each.description_disagreements)
    print(f"\n{files} generated files ({shape}), seeds {first_seed}..{first_seed + seeds - 1}:")
    for host, (agreed, total, described, compared) in totals.items():
        print(f"  {host}: loads and name {agreed}/{total} ({_share(agreed, total)}); "
              f"description seen {described}/{compared} ({_share(described, compared)})")
    for disagreement in wrong:
        print(disagreement.line())
    features = Counter(feature for each in wrong for feature in (each.why or "").split(", ") if feature)
    if features:
        print("features of the files that disagree: " + ", ".join(f"{name} {count}" for name, count in
                                                                  features.most_common(12)))
    if out:
        with open(out, "w", encoding="utf-8") as summary:
            json.dump({"files": files, "seeds": [first_seed, first_seed + seeds - 1], "count": count, "shape": shape,
                       "agents": totals, "disagreements": [each._asdict() for each in wrong]}, summary, indent=1)
    return 1 if wrong else 0


def _share(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.2f}%" if whole else "none compared"
