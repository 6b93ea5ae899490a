"""Other agents' verdicts (`skills/hosts/`): how long one report takes, all thirteen agents, on the benchmarks'
128-skill tree and on the walk's bound (512 skill files), as medians over several runs.

    .venv/bin/python benchmarks/hosts.py [--runs N]

It prints one Markdown table; docs/hosts.md quotes it. The trees are generated afresh (seeded) under
benchmarks/.work/trees/.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import time

from common import TREES, cpu_model, log
from generate import generate_tree

from albedo_skills_ls.skills import hosts
from albedo_skills_ls.skills.core import limits
from albedo_skills_ls.skills.catalog.discovery import discover


def _median_ms(action, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _mirrored(tree, copies: int) -> None:
    """Copy the workspace's skills into `.claude/skills` and `.github/skills` too, as a project published to
    several agents does, until the walk holds `copies` times as many files."""
    source = os.path.join(tree.workspace, ".agents", "skills")
    for relative in (".claude/skills", ".github/skills", ".gemini/skills")[: copies - 1]:
        shutil.copytree(source, os.path.join(tree.workspace, relative))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    rows = []
    for label, copies in (("128 skills in .agents/skills", 1), ("the same in four roots (512 files, the bound)", 4)):
        tree = generate_tree(os.path.join(TREES, f"hosts-{copies}"), skills=128)
        _mirrored(tree, copies)
        found = hosts.report(tree.workspace, tree.home)
        log(f"{label}: {len(found.files)} files, truncated: {found.truncated}")
        report_ms = _median_ms(lambda: hosts.report(tree.workspace, tree.home), args.runs)
        discovery_ms = _median_ms(lambda: discover(tree.workspace, tree.home), args.runs)
        rows.append((label, len(found.files), report_ms, discovery_ms))
    print(f"Machine: {cpu_model()}; {args.runs} runs each; bound {limits.MAX_HOST_SKILL_FILES} files\n")
    print("| tree | files judged | report, 13 agents (median ms) | Albedo's cold discovery (median ms) | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for label, files, report_ms, discovery_ms in rows:
        print(f"| {label} | {files} | {report_ms:.1f} | {discovery_ms:.1f} | {report_ms / discovery_ms:.1f}× |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
