"""Chat rows: what a chat plugin asks the running server at each send, over stdio, 128 skills.

    .venv/bin/python benchmarks/invoke.py            # these rows alone (run.py prints them with the rest)
    .venv/bin/python benchmarks/invoke.py --quick

- `commands.invoke` in user mode (`workspace/executeCommand`), the call that turns `/NAME arguments` into the
  activation; each call names the next skill of the catalog, so the server re-reads a different SKILL.md
  each time, as it does for every invoke;
- `commands.catalog`, which the gptel transform asks once per send to tell skills from other `/` words;
- the gptel transform itself, timed in Emacs (benchmarks/gptel_hook.el) on gptel's prompt copy of a chat of
  1 and of 8 skill turns: the requests, the wait, the rewrite; with eglot's default event log (eglot
  pretty-prints every message into it) and without it (`eglot-events-buffer-size` 0). It needs Emacs with
  Debian's eglot, compat and markdown-mode, and the pinned gptel (tests/clients/pinned.py); without them the
  rows say so.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

from common import HERE, REPO, TREES, child_env, log  # first: sets sys.path

import generate
from report import Row, goal_ms, table
from rpc import OURS, RpcClient, initialize_params, server_env

INVOKE_GOAL_MS = 5  # the goal for the median round trip (docs/performance.md)
WARMUP = 10
ARGUMENTS = "merge these files"
ELPA = "/usr/share/emacs/site-lisp/elpa"
EMACS_GUARD_SECONDS = 300  # only a hang guard for the Emacs run


async def execute(client: RpcClient, command: str, arguments: list) -> tuple[float, object]:
    """(round trip in ms, result) of one `workspace/executeCommand`."""
    sent = time.perf_counter()
    received, result = await client.request("workspace/executeCommand", {"command": command, "arguments": arguments})
    return (received - sent) * 1000, result


async def chat_session(tree: generate.Tree, runs: int) -> tuple[list[float], list[float], list[str]]:
    """One server on the tree: `runs` invokes (after warm-ups) cycling through the skills, then `runs`
    catalogs. Returns both sample lists and the skills' commands."""
    client = await RpcClient.spawn(OURS, tree.workspace, server_env(tree.home))
    try:
        await client.request("initialize", initialize_params(tree.workspace, tree.home))
        ready = client.expect(lambda m: m.get("method") == "albedoSkills/catalogChanged")
        client.notify("initialized", {})
        await asyncio.wait_for(ready, 60)
        _, catalog = await execute(client, "commands.catalog", [])
        commands = [entry["command"] for entry in catalog if entry["kind"] == "skill"]
        invokes, catalogs = [], []
        for index in range(WARMUP + runs):
            elapsed, result = await execute(client, "commands.invoke", [commands[index % len(commands)], ARGUMENTS, "user"])
            assert "<albedo-skill-activation>" in result["input"], result
            if index >= WARMUP:
                invokes.append(elapsed)
        for index in range(WARMUP + runs):
            elapsed, _ = await execute(client, "commands.catalog", [])
            if index >= WARMUP:
                catalogs.append(elapsed)
        return invokes, catalogs, commands
    finally:
        await client.close()


def gptel_load_path() -> tuple[list[str], str]:
    """Emacs's load path for the hook (repository, eglot, compat, markdown-mode, gptel), or why there is none."""
    folders = [REPO]
    for package in ("eglot", "compat", "markdown-mode"):
        found = sorted(p for p in os.listdir(ELPA) if p.startswith(f"{package}-")) if os.path.isdir(ELPA) else []
        if not found:
            return [], f"n/a (no Debian elpa-{package})"
        folders.append(os.path.join(ELPA, found[-1]))
    sys.path.insert(0, os.path.join(REPO, "tests", "clients"))
    try:
        from pinned import plugin_dir

        folders.append(str(plugin_dir("gptel")))
    except Exception as exc:  # the pinned copy is missing offline: the row says so
        return [], f"n/a (no pinned gptel: {exc})"
    return folders, ""


def gptel_hook_samples(tree: generate.Tree, commands: list[str], runs: int, events_log: bool
                       ) -> tuple[dict[str, list[float]], str]:
    """Milliseconds per send of the gptel transform in Emacs, keyed by case ("1", "8", "1-fresh")."""
    emacs = shutil.which("emacs")
    if not emacs:
        return {}, "n/a (no emacs)"
    load_path, problem = gptel_load_path()
    if problem:
        return {}, problem
    params = os.path.join(TREES, "gptel-hook.json")
    with open(params, "w", encoding="utf-8") as handle:
        json.dump({"load_path": load_path, "cmd": OURS, "commands": commands[:8], "runs": runs, "warmup": WARMUP,
                   "events_log": events_log}, handle)
    env = {**child_env(tree.home), "ALBEDO_BENCH_PARAMS": params}
    done = subprocess.run([emacs, "-Q", "--batch", "-l", os.path.join(HERE, "gptel_hook.el")], cwd=tree.workspace,
                          env=env, capture_output=True, text=True, timeout=EMACS_GUARD_SECONDS)
    try:
        result = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {}, f"n/a (Emacs printed no result: {done.stderr.strip()[-300:]})"
    if "error" in result:
        return {}, f"n/a ({result['error']})"
    return result, ""


def chat_rows(tree: generate.Tree, quick: bool) -> list[Row]:
    """The chat group of the table, on the 128-skill tree."""
    log("chat: commands.invoke and commands.catalog over stdio")
    runs = 30 if quick else 300
    invokes, catalogs, commands = asyncio.run(chat_session(tree, runs))
    group = "chat"
    rows = [
        goal_ms(Row(group, f"`commands.invoke` round trip (user mode, 128 skills, {len(commands)} cycled)", invokes,
                    note="workspace/executeCommand over stdio; re-reads the skill's SKILL.md"), INVOKE_GOAL_MS),
        Row(group, "`commands.catalog` round trip (128 skills)", catalogs, note="the gptel transform asks it ahead, after each catalog change"),
    ]
    cases = {"1": "1 skill turn in the chat", "8": "8 skill turns in the chat",
             "1-fresh": "1 skill turn, catalog fetched (first send after a change)"}
    for events_log in (True, False):
        log(f"chat: the gptel transform in Emacs, eglot's event log {'on' if events_log else 'off'}")
        hook, problem = gptel_hook_samples(tree, commands, 10 if quick else 100, events_log)
        log_note = "eglot's event log on (default)" if events_log else "`eglot-events-buffer-size` 0"
        for case, what in cases.items():
            name = f"gptel transform per send (Emacs 28), {what}, {log_note}"
            rows.append(Row(group, name, value=problem) if problem else
                        Row(group, name, hook[case], note="requests + wait + rewrite, timed in Emacs"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The chat rows: commands.invoke over stdio and the gptel hook.")
    parser.add_argument("--quick", action="store_true", help="a smoke check with few runs")
    args = parser.parse_args(argv)
    os.makedirs(TREES, exist_ok=True)
    tree = generate.generate_tree(os.path.join(TREES, "t128"), 128)
    rows = chat_rows(tree, args.quick)
    print(table(rows))
    for row in rows:
        if row.samples:
            log(f"{row.name}: median {statistics.median(row.samples):.3f} ms over {len(row.samples)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
