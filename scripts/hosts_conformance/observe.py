"""Run each agent's own listing over a tree (inside the namespace) and normalise the answers.

The result, for each agent: its version, how many runs, the seconds each took, and for every inventory
file either `{"loads", "name", "said"}` or, when runs disagreed, `{"outcomes": [{"loads", "name"}, ...],
"said"}`. It holds only our fixture's paths and names and the agents' short messages about them.
"""

from __future__ import annotations

import os
import tempfile
import time

from . import run_claude, run_codex, run_copilot, run_gemini, run_opencode
from .agents import Agent
from .seen import Entry, Seen
from .tree import PathMap, Tree

RUNNERS = {"codex": run_codex, "claude-code": run_claude, "gemini-cli": run_gemini, "opencode": run_opencode,
           "copilot-cli": run_copilot}
# Agents whose answer can change from one run to the next, with the runs a live check makes of each
# (`--runs` sets more, for a recording). OpenCode picks a different copy of a duplicate name from one run to
# the next: three runs showed a flip on the fixture in every series tried. Gemini CLI's winner between two
# copies in one root follows the order of an unsorted glob: it flipped once in about ten runs, so one live
# run is kept and the recorded runs carry the evidence. The other agents gave one answer every time.
RUNS = {"opencode": 3, "gemini-cli": 1}
NOT_LISTED = Entry(loads=False, name=None, said=None, description=None)


def observe_agent(agent: Agent, tree: Tree, inventory: list[str], runs: int | None = None) -> dict:
    """Run one agent `runs` times on its own copy of the tree (agents write into HOME)."""
    count = (runs or RUNS[agent.id]) if agent.id in RUNS else 1
    runner = RUNNERS[agent.id]
    each: list[Seen] = []
    seconds: list[float] = []
    with tempfile.TemporaryDirectory(prefix=f"conformance-{agent.id}-") as scratch_root:
        # One copy for all runs, as a person starting the agent again would have: the first run sets up the
        # agent's state in HOME (OpenCode's database), the later ones start from it.
        copy = tree.copy_to(os.path.join(scratch_root, "tree"))
        paths = PathMap(copy, inventory)
        for number in range(count):
            scratch = os.path.join(scratch_root, f"io{number}")
            os.makedirs(scratch)
            started = time.monotonic()
            seen = runner.observe(agent, copy, paths, scratch)
            seconds.append(round(time.monotonic() - started, 2))
            each.append({rel: _relative(entry, copy.base) for rel, entry in seen.items()})
    return {"version": agent.version, "runs": count, "seconds": seconds, "skills": merge(each, inventory)}


def merge(each: list[Seen], inventory: list[str]) -> dict[str, dict]:
    merged: dict[str, dict] = {}
    for rel in inventory:
        entries = [seen.get(rel, NOT_LISTED) for seen in each]
        outcomes: list[dict] = []
        for entry in entries:
            outcome = {"loads": entry["loads"], "name": entry["name"]}
            if entry.get("description") is not None:
                outcome["description"] = entry["description"]
            if outcome not in outcomes:
                outcomes.append(outcome)
        said = next((entry["said"] for entry in entries if entry["said"]), None)
        merged[rel] = (outcomes[0] if len(outcomes) == 1 else {"outcomes": outcomes}) | {"said": said}
    return merged


def _relative(entry: Entry, base: str) -> Entry:
    """Messages name the scratch copy's absolute paths: write them relative to the tree, so that runs in
    different folders compare and nothing of this machine is recorded."""
    said = entry["said"]
    if said:
        said = said.replace(base + os.sep, "")
    return Entry(loads=entry["loads"], name=entry["name"], said=said, description=entry.get("description"))
