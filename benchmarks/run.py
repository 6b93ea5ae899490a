"""Benchmarks against the issue's limits and against the other tools, as one Markdown table.

    .venv/bin/python benchmarks/run.py            # full: medians and p95 over many runs (~3-4 min)
    .venv/bin/python benchmarks/run.py --quick    # smoke check: few runs (~40 s)
    .venv/bin/python benchmarks/run.py --only process   # one group of rows (repeatable)

Run it with the project's interpreter (the one that has albedo_skills_ls, pygls and lsprotocol). The
other tools (`skills-ref`, `agnix`) are installed on first use into their own virtualenv,
benchmarks/.work/venv-tools, so they never touch the project's. Trees are generated afresh (and
deterministically) under benchmarks/.work/trees by benchmarks/generate.py.

Four groups of rows (README.md beside this file says what each row means):
- engine, in this process: plain `time.perf_counter` loops with warm-ups;
- the server over stdio, driven by a raw JSON-RPC client (Content-Length framing over asyncio pipes, no
  pygls client in the timing), next to benchmarks/minimal_server.py started the same way;
- whole processes on the same 128-skill tree: `hyperfine -N` when it is installed, else a perf_counter
  loop around `subprocess.run`;
- chat: what a chat plugin asks the server at each send (`commands.invoke`, `commands.catalog`) over stdio,
  and the gptel transform timed in Emacs (invoke.py).
The full table is printed on stdout (progress on stderr) and also saved to benchmarks/.work/last-run.md.

Each group's rows are built by its own module (engine_rows.py, server_rows.py, process_rows.py, invoke.py) from the
shared pieces: common.py (paths, log, the measured processes' environment), report.py (timing loops, `Row`,
ratios, the table) and rpc.py (the raw JSON-RPC client). This file puts the groups together and prints.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import time

from common import PYCACHE, REPO, TREES, WORK, cpu_model, log, tool_output, version_of  # first: sets sys.path

import generate  # benchmarks/generate.py
from engine_rows import engine_benchmarks
from invoke import chat_rows
from process_rows import TOOLS_VENV, process_rows, tools_bin
from report import table
from server_rows import server_rows

GROUPS = ("engine", "server", "chat", "process")  # the table's groups of rows, in the order they run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmarks against the limits and against other tools.")
    parser.add_argument("--quick", action="store_true", help="a smoke check with few runs")
    parser.add_argument("--no-tools", action="store_true", help="skip skills-ref and agnix")
    parser.add_argument("--only", choices=GROUPS, action="append", default=None,
                        help="run only this group of rows (repeat for more); default: every group")
    args = parser.parse_args(argv)
    quick = args.quick
    scale = 0.1 if quick else 1.0
    wall = time.perf_counter()
    log("generating trees")
    os.makedirs(TREES, exist_ok=True)
    groups = set(args.only or GROUPS)
    sizes = (8, 32, 128) if "engine" in groups else (128,)
    trees = {size: generate.generate_tree(os.path.join(TREES, f"t{size}"), size) for size in sizes}
    tree = trees[128]
    one = thousand = None
    if "process" in groups:  # the start-up and scaling rows: one skill (nothing in the home) and 1,000
        one = generate.generate_tree(os.path.join(TREES, "t1"), 1, home_skills=0)
        thousand = generate.generate_tree(os.path.join(TREES, "t1000"), 1000)

    rows = []
    if "engine" in groups:
        rows += engine_benchmarks(trees, generate.generate_big(os.path.join(TREES, "big")), scale)
    if "server" in groups:
        rows += server_rows(tree, quick)
    if "chat" in groups:
        rows += chat_rows(tree, quick)
    commands: list[str] = []
    tools_problem: str | None = "not run (--only)"
    slowest_imports: list[tuple[int, str]] = []
    if "process" in groups:
        process = process_rows(tree, quick, args.no_tools, one, thousand)
        rows += process.rows
        commands, tools_problem, slowest_imports = process.commands, process.tools_problem, process.slowest_imports

    # --- print
    hyperfine = shutil.which("hyperfine")
    lines = [
        f"## Benchmarks ({'quick' if quick else 'full'} run, {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z})",
        "",
        f"- machine: {cpu_model()}, {os.cpu_count()} logical cores, {platform.system()} {platform.release()}",
        f"- Python {platform.python_version()} ({platform.python_implementation()}), pygls {version_of('pygls')}, "
        f"lsprotocol {version_of('lsprotocol')}, ruamel.yaml {version_of('ruamel.yaml')}, "
        f"ruamel.yaml.clibz {version_of('ruamel.yaml.clibz')}, albedo-skills-ls {version_of('albedo-skills-ls')}",
    ]
    if tools_problem is None:
        tool_versions = tool_output([tools_bin("python"), "-c",
                                     "import importlib.metadata as m; print('skills-ref', m.version('skills-ref'), '/ agnix', m.version('agnix'))"])
        lines.append(f"- other tools: {tool_versions} (`{tool_output([tools_bin('agnix'), '--version'])}`, "
                     f"`agentskills --version`: {tool_output([tools_bin('agentskills'), '--version'])}), in {os.path.relpath(TOOLS_VENV, REPO)}")
    lines += [
        "- timing: engine rows `time.perf_counter` loops after warm-ups; server rows a raw JSON-RPC client "
        "(receive time of the message); process rows "
        + (f"`{tool_output([hyperfine, '--version'])} -N`" if hyperfine else "a `subprocess.run` perf_counter loop")
        + " in interleaved rounds; every measured Python process runs with a warm bytecode cache "
        f"(PYTHONPYCACHEPREFIX={os.path.relpath(PYCACHE, REPO)}, PYTHONDONTWRITEBYTECODE unset) unless a row says not",
        f"- trees from benchmarks/generate.py (seeded) in {os.path.relpath(TREES, REPO)}; "
        f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())} (other work on the machine inflates "
        "process and server rows; engine rows are steadier)",
        "",
        table(rows),
        "",
        "Commands (WS = " + os.path.relpath(tree.workspace, REPO) + ", HOME = " + os.path.relpath(tree.home, REPO) + "):",
        "",
        *[f"- {command}" for command in commands],
        "",
        "Slowest imports of `albedo-skills check` (`python -X importtime`, cumulative):",
        "",
        *[f"- {name}: {micros / 1000:.1f} ms" for micros, name in slowest_imports],
        "",
        f"_total benchmark time {time.perf_counter() - wall:.0f} s_",
    ]
    report = "\n".join(lines)
    print(report)
    with open(os.path.join(WORK, "last-run.md"), "w", encoding="utf-8") as handle:
        handle.write(report + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
