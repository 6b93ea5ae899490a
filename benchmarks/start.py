"""Process start to `initialize` result only, with many interleaved starts: the server rows of run.py that
a busy machine blurs most, on their own, and optionally against another checkout (a before/after).

    .venv/bin/python benchmarks/start.py                      # ours and the minimal pygls server, 30 starts each
    .venv/bin/python benchmarks/start.py --baseline DIR       # ... and DIR's albedo_skills_ls (e.g. main)
    .venv/bin/python benchmarks/start.py --starts 60
    .venv/bin/python benchmarks/start.py --baseline DIR --first-diagnostics   # ... on 128 skills, to the first
                                                    # `publishDiagnostics` after `initialized` as well

`--baseline DIR` runs `python -m albedo_skills_ls` with PYTHONPATH=DIR, so DIR's package is imported in
place of this checkout's, with the same interpreter, pygls and lsprotocol; make DIR with
`git worktree add /tmp/base main` or `git archive main | tar -x -C /tmp/base`.

Every round starts each server once, in an order that rotates from round to round, so load that comes and
goes on the machine falls on all of them alike; one untimed round first warms the page and bytecode caches.
Prints a Markdown table: medians, p95, minima, the CPU each process used up to its answer, its resident
memory then, and the ratios: of the medians, the median of the per-round ratios (each a pair of starts
moments apart), and of the minima.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import generate  # noqa: E402  (benchmarks/generate.py)
from common import TREES, log  # noqa: E402  (benchmarks/common.py)
from report import Row, paired_ratios, ratio_row, table  # noqa: E402  (benchmarks/report.py)
from rpc import MINIMAL, OURS, RpcClient, cpu_ms, initialize_params, server_env, vm_rss_mib  # noqa: E402


# wall ms, CPU ms, resident MiB (at the `initialize` result), ms from spawn to the first `publishDiagnostics`
Samples = tuple[list[float], list[float], list[float], list[float]]
MINIMAL_NAME = "minimal pygls"  # publishes nothing: timed to its `initialize` result only
CATALOG_WAIT_SECONDS = 120  # a hang guard on the server's first catalog, not a speed requirement


async def start_once(argv: list[str], env: dict[str, str], workspace: str, home: str, first_diagnostics: bool
                     ) -> tuple[float, float | None, float | None, float | None]:
    """(ms from spawn to the `initialize` result, CPU ms the process had used by then, its VmRSS in MiB, and
    with `first_diagnostics` the ms from spawn to the first `publishDiagnostics` once `initialized` is sent:
    what a person waits for after the editor opens)."""
    client = await RpcClient.spawn(argv, workspace, env)
    try:
        received, _ = await client.request("initialize", initialize_params(workspace, home))
        answered = (received - client.started) * 1000, cpu_ms(client.proc.pid), vm_rss_mib(client.proc.pid)
        first = None
        if first_diagnostics:
            published = client.expect(lambda m: m.get("method") == "textDocument/publishDiagnostics")
            client.notify("initialized", {})
            arrived, _ = await asyncio.wait_for(published, CATALOG_WAIT_SECONDS)
            first = (arrived - client.started) * 1000
        return (*answered, first)
    finally:
        await client.close()


async def measure(servers: dict[str, tuple[list[str], dict[str, str]]], starts: int, workspace: str, home: str,
                  first_diagnostics: bool = False) -> dict[str, Samples]:
    results: dict[str, Samples] = {name: ([], [], [], []) for name in servers}
    names = list(servers)
    for index in range(starts + 1):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            argv, env = servers[name]
            measured = await start_once(argv, env, workspace, home, first_diagnostics and name != MINIMAL_NAME)
            if index:  # round 0 warms the caches
                for samples, value in zip(results[name], measured):
                    if value is not None:
                        samples.append(value)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Process start to `initialize` result, interleaved.")
    parser.add_argument("--starts", type=int, default=30, help="timed starts of each server (default 30)")
    parser.add_argument("--baseline", metavar="DIR", help="also start DIR's albedo_skills_ls (PYTHONPATH=DIR)")
    parser.add_argument("--first-diagnostics", action="store_true",
                        help="on the 128-skill tree, also time the start to the first publishDiagnostics")
    args = parser.parse_args(argv)

    size = 128 if args.first_diagnostics else 8
    tree = generate.generate_tree(os.path.join(TREES, f"t{size}"), size)
    env = server_env(tree.home)
    servers = {"ours": (OURS, env), MINIMAL_NAME: (MINIMAL, env)}
    if args.baseline:
        baseline = os.path.abspath(args.baseline)
        servers["baseline"] = (OURS, {**env, "PYTHONPATH": baseline})
    log(f"{args.starts} interleaved starts of {', '.join(servers)}")
    results = asyncio.run(measure(servers, args.starts, tree.workspace, tree.home, args.first_diagnostics))

    group = "start"
    wall = {name: Row(group, f"start → `initialize` result: {name}", samples) for name, (samples, *_) in results.items()}
    cpu = {name: Row(group, f"CPU up to the `initialize` result: {name}", samples)
           for name, (_, samples, *_) in results.items()}
    rss = [Row(group, f"resident memory (VmRSS) at the `initialize` result: {name}",
                   value=f"{statistics.median(samples):.1f} MiB" if samples else "n/a",
                   note=f"max {max(samples):.1f} MiB" if samples else "")
           for name, (_, _, samples, _) in results.items()]
    first = {name: Row(group, f"start → first `publishDiagnostics` ({size} skills): {name}", samples)
             for name, (*_, samples) in results.items() if samples}
    rows = [*wall.values(), *cpu.values(), *rss, *first.values()]
    pairs = [("ours", "minimal pygls", 1.05)] + ([("ours", "baseline", None)] if args.baseline else [])
    for ours, theirs, limit in pairs:
        rows.append(ratio_row(group, f"{ours} / {theirs}, wall", wall[ours], wall[theirs], limit,
                                  note=paired_ratios(wall[ours], wall[theirs])))
        rows.append(ratio_row(group, f"{ours} / {theirs}, CPU", cpu[ours], cpu[theirs], None,
                                  note=paired_ratios(cpu[ours], cpu[theirs])))
        if ours in first and theirs in first:
            rows.append(ratio_row(group, f"{ours} / {theirs}, to the first diagnostics", first[ours], first[theirs],
                                  None, note=paired_ratios(first[ours], first[theirs])))
    if args.baseline:
        print(f"baseline: PYTHONPATH={os.path.abspath(args.baseline)}")
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
