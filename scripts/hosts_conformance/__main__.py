"""Conformance of the project's per-agent verdicts with the agents themselves, run for real.

    python scripts/hosts_conformance live        install (or take from the cache) each pinned agent, run its
                                                 own skill listing offline over the fixture, compare
    python scripts/hosts_conformance record      the same, then write the recorded observations
    python scripts/hosts_conformance recorded    compare the recorded observations (no agent, no network)
    python scripts/hosts_conformance collections GIT_DIR...   the live agents over public skill collections
    python scripts/hosts_conformance generated --seed N --seeds K --count C   the live agents over K random
                                                 trees of about C skills each (batch.py)
    python scripts/hosts_conformance budgets     Codex's and Claude Code's catalog budgets measured at 10, 100
                                                 and 300 skills against the prediction (budgets.py)

`live` exits 1 on any disagreement. When no agent is cached and none can be installed (offline), or the
machine has no network namespace, it compares the recorded observations instead and says so.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

if __package__ in (None, ""):  # run as `python scripts/hosts_conformance`
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "hosts_conformance"

from hosts_conformance import agents, compare, fixture, recorded, sandbox  # noqa: E402
from hosts_conformance.tree import Tree  # noqa: E402


def _fixture_tree(folder: str) -> Tree:
    base = os.path.join(folder, "fixture")
    os.makedirs(base)
    fixture.build(base)
    return Tree(base)


def _child_observe(argv: list[str]) -> int:
    """Inside the namespace: bring loopback up, refuse to run unless isolated, observe, write JSON."""
    parser = argparse.ArgumentParser(prog="_observe")
    parser.add_argument("base")
    parser.add_argument("out")
    parser.add_argument("ids", nargs="+")
    parser.add_argument("--runs", type=int)
    args = parser.parse_args(argv)
    from hosts_conformance.observe import observe_agent

    sandbox.bring_loopback_up()
    if not sandbox.network_is_isolated():
        print("refusing to run the agents: this namespace has a network interface besides lo", file=sys.stderr)
        return 2
    tree = Tree(args.base)
    inventory = tree.inventory()
    found = {"fixture": recorded.fixture_digest(), "network_isolated": True, "agents": {}}

    def one(agent_id: str) -> dict:
        agent = agents.BY_ID[agent_id]
        started = time.monotonic()
        seen = observe_agent(agent, tree, inventory, args.runs)
        each = ", ".join(f"{seconds:.1f}" for seconds in seen["seconds"])
        print(f"ran {agent_id} {agent.version}: {time.monotonic() - started:.1f} s (each run: {each} s)",
              file=sys.stderr)
        return seen

    # The agents share nothing (each has its own copy of the tree and its own fake model port), and most
    # of a run is start-up waiting on the disk: side by side, the step takes about the slowest agent's time.
    with ThreadPoolExecutor(max_workers=len(args.ids)) as pool:
        for agent_id, seen in zip(args.ids, pool.map(one, args.ids)):
            found["agents"][agent_id] = seen
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(found, out)
    return 0


def _compare_recorded(note: str | None) -> int:
    from hosts_conformance.verdict import project_verdict

    if note:
        print(note)
    saved = recorded.load()
    if saved["fixture"] != recorded.fixture_digest():
        print("the recorded observations were made on another fixture: run `record` with the agents")
        return 1
    with tempfile.TemporaryDirectory(prefix="conformance-") as folder:
        tree = _fixture_tree(folder)
        project = project_verdict(tree, list(saved["agents"]))
    results = compare.compare_all(saved, project, saved)
    print("recorded observations (" + ", ".join(f"{host} {found['version']}" for host, found in saved["agents"].items())
          + ") against the project's verdict:")
    print(compare.report(results))
    return 1 if any(result.disagreements for result in results) else 0


def _live(ids: list[str], record: bool, install: bool, runs: int | None) -> int:
    from hosts_conformance.verdict import project_verdict

    prefix = sandbox.isolation_command()
    if prefix is None:
        return _compare_recorded("LIVE AGENTS NOT RUN: this machine cannot make a loopback-only network namespace "
                                 "(unshare -n / -rn refused); comparing the recorded observations instead.")
    ready, missing = [], []
    offline = None
    if install and not all(agents.is_cached(agents.BY_ID[agent_id]) for agent_id in ids):
        offline = agents.registry_reachable()
    for agent_id in ids:
        got = agents.ensure(agents.BY_ID[agent_id], install=install, offline=offline)
        took = f" in {got.seconds:.1f} s" if got.seconds else ""
        print(f"{agent_id} {got.agent.version}: {got.note}{took}")
        (ready if got.ok else missing).append(got)
    if install:
        _say_newer(ids)
    if not ready:
        why = offline or "; ".join(f"{m.agent.id}: {m.note}" for m in missing)
        return _compare_recorded(f"LIVE AGENTS NOT RUN: none of the pinned agents is cached and none could be "
                                 f"installed ({why}); comparing the recorded observations instead.")
    if missing and record:
        print("not recording: every agent must run for a recorded file")
        return 1
    with tempfile.TemporaryDirectory(prefix="conformance-") as folder:
        tree = _fixture_tree(folder)
        project = project_verdict(tree, [got.agent.id for got in ready])
        started = time.monotonic()
        observations = sandbox.observe_isolated(tree, [got.agent.id for got in ready], prefix,
                                         os.path.join(folder, "observations.json"), runs)
        print(f"agents ran in {time.monotonic() - started:.1f} s (offline, loopback only)")
    saved = recorded.load() if os.path.exists(recorded.RECORDED_PATH) else None
    results = compare.compare_all(observations, project, saved)
    print(compare.report(results))
    if missing:
        print("NOT RUN LIVE: " + "; ".join(f"{m.agent.id}: {m.note}" for m in missing))
    if saved is not None and not record:
        _say_drift(observations, saved)
    if record:
        observations["recorded_on"] = time.strftime("%Y-%m-%d", time.gmtime())
        recorded.write(recorded.merged(observations, saved))
        print(f"wrote {os.path.relpath(recorded.RECORDED_PATH)}")
        return 1 if any(result.disagreements for result in results) else 0
    from hosts_conformance.batch import CI_COUNT, CI_SEED, run_generated

    # The fixture holds the cases written down; a fixed-seed generated batch holds the ones nobody wrote.
    print(f"generated batch (seed {CI_SEED}, {CI_COUNT} skills):")
    batch = run_generated(CI_SEED, 1, CI_COUNT, [got.agent.id for got in ready], runs)
    return 1 if any(result.disagreements for result in results) or batch else 0


def _say_newer(ids: list[str]) -> None:
    """Name each agent whose newest npm release is not the pinned one: a bump is the version in its model's
    `run_here(...)` line, then `record` and a `generated` batch."""
    unreachable = agents.registry_reachable()
    if unreachable is not None:
        print(f"newer releases not checked: {unreachable}")
        return
    for agent_id in ids:
        agent = agents.BY_ID[agent_id]
        newest = agents.newest_release(agent)
        if newest is not None and newest != agent.version:
            print(f"NEWER RELEASE: {agent.package} {newest} is out (pinned: {agent.version}); pin it in "
                  f"albedo_skills_ls/skills/hosts/{agent_id.replace('-', '_')}.py, then run `record` and `generated`")


def _say_drift(observations: dict, saved: dict) -> None:
    """Where the live agents now answer differently from the recorded file (it is never rewritten here)."""
    for host, found in observations["agents"].items():
        old = saved["agents"].get(host)
        if old is None or old["version"] != found["version"]:
            continue
        changed = [path for path, seen in found["skills"].items()
                   if {k: v for k, v in seen.items() if k in ("loads", "name")} !=
                   {k: v for k, v in old["skills"].get(path, {}).items() if k in ("loads", "name")}
                   and not ("outcomes" in seen or "outcomes" in old["skills"].get(path, {}))]
        for path in changed:
            print(f"note: {host} answered {path} differently from the recorded observations "
                  "(the recorded file is left as it is; run `record` to refresh it)")


def main(argv: list[str]) -> int:
    if argv[:1] == ["_observe"]:
        return _child_observe(argv[1:])
    parser = argparse.ArgumentParser(prog="hosts_conformance", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["live", "record", "recorded", "collections", "generated", "budgets"])
    parser.add_argument("dirs", nargs="*", help="collections: git directories of public skill collections")
    parser.add_argument("--agent", action="append", choices=[agent.id for agent in agents.AGENTS],
                        help="only this agent (repeatable); default all")
    parser.add_argument("--no-install", action="store_true", help="use cached agents only")
    parser.add_argument("--runs", type=int, help="runs of an agent whose answers vary (OpenCode; default 3); the others run once")
    parser.add_argument("--seed", type=int, default=None, help="generated: the first seed (default: the CI seed)")
    parser.add_argument("--seeds", type=int, default=1, help="generated: how many trees, one per seed")
    parser.add_argument("--count", type=int, default=None, help="generated: skills per tree")
    parser.add_argument("--shape", default="random", choices=["random", "retry", "links"],
                        help="generated: random skills (default), or a focused shape of shapes.py")
    parser.add_argument("--summary", help="generated: write the figures and disagreements to this JSON file")
    parser.add_argument("--record", action="store_true",
                        help="generated: write the first tree's observations for the offline test")
    args = parser.parse_args(argv)
    ids = args.agent or [agent.id for agent in agents.AGENTS]
    if args.mode == "budgets":
        from hosts_conformance.budgets import run_budgets

        return run_budgets(args.summary)
    if args.mode == "generated":
        from hosts_conformance.batch import CI_COUNT, CI_SEED, run_generated

        return run_generated(CI_SEED if args.seed is None else args.seed, args.seeds, args.count or CI_COUNT, ids,
                             args.runs, args.summary, args.record, args.shape)
    if args.mode == "recorded":
        return _compare_recorded(None)
    if args.mode == "collections":
        from hosts_conformance.collections import run_collections

        return run_collections(args.dirs, ids, args.runs)
    return _live(ids, record=args.mode == "record", install=not args.no_install, runs=args.runs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
