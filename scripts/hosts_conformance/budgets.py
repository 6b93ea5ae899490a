"""Catalog budgets as the agents apply them, measured: what Codex and Claude Code show their model of a
catalog of 10, 100 and 300 skills at several description lengths, beside the project's prediction.

    python scripts/hosts_conformance budgets [--summary FILE]

For each catalog and agent it counts the skills shown with their whole description, cut (and to how many
characters), by name alone ("") and not at all, as the agent sent them (Codex's `debug prompt-input`, the
request Claude Code sends the fake model), and the same counts from `albedo-skills hosts`.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter

from . import agents, compare, generate, sandbox
from .tree import Tree

CATALOGS = ((10, 1000), (100, 100), (100, 400), (100, 1000), (300, 100), (300, 400))
MEASURED = ("codex", "claude-code")


def shape(descriptions: dict[str, str | None], full: int) -> dict[str, object]:
    """Counts of whole / cut / name-only / not shown, and the cut lengths seen (min..max)."""
    counts: Counter[str] = Counter()
    cuts: list[int] = []
    for text in descriptions.values():
        if text is None:
            counts["not shown"] += 1
        elif text == "":
            counts["name only"] += 1
        elif len(text) >= full:
            counts["whole"] += 1
        else:
            counts["cut"] += 1
            cuts.append(len(text))
    return {**{key: counts[key] for key in ("whole", "cut", "name only", "not shown")},
            "cut to": [min(cuts), max(cuts)] if cuts else None}


def run_budgets(out: str | None) -> int:
    from .verdict import project_verdict

    prefix = sandbox.isolation_command()
    ready = [agent_id for agent_id in MEASURED if agents.is_cached(agents.BY_ID[agent_id])]
    if prefix is None or not ready:
        print("BUDGETS NOT MEASURED: no network namespace, or neither Codex nor Claude Code is cached")
        return 0
    found = []
    wrong = 0
    for count, length in CATALOGS:
        with tempfile.TemporaryDirectory(prefix="conformance-budget-") as folder:
            made = generate.build_catalog(folder, count, length)
            tree = Tree(folder)
            project = project_verdict(tree, ready)
            observed = sandbox.observe_isolated(tree, ready, prefix, os.path.join(folder, "observed.json"), None)
        for host in ready:
            root = ".agents/skills" if host == "codex" else ".claude/skills"
            paths = [case.path for case in made if f"/{root}/" in case.path]
            seen = {path: (entry.get("description") if entry.get("loads") else None)
                    for path, entry in observed["agents"][host]["skills"].items() if path in paths}
            said = {path: (verdict["description_seen"] if verdict["loads"] else None)
                    for path, verdict in project[host]["skills"].items() if path in paths}
            measured, predicted = shape(seen, length), shape(said, length)
            agree = sum(compare.same_text(seen[path], said[path]) for path in paths)
            wrong += len(paths) - agree
            found.append({"agent": host, "skills": count, "description": length, "measured": measured,
                          "predicted": predicted, "same description": f"{agree}/{len(paths)}"})
            print(f"{host} {count} skills × {length} characters: measured {measured}; predicted {predicted}; "
                  f"the same description for {agree}/{len(paths)}")
    if out:
        with open(out, "w", encoding="utf-8") as summary:
            json.dump(found, summary, indent=1)
    return 1 if wrong else 0
