"""MCP rows: `albedo-skills mcp` over stdio on the 128-skill tree, beside the language server's
`commands.invoke` in the same run.

    .venv/bin/python benchmarks/mcp.py            # these rows
    .venv/bin/python benchmarks/mcp.py --quick

- process start → `initialize` result: the SDK's import is the most of it (docs/mcp.md, "The library");
- `skills/list`, every page: the entries are built when the catalog is (digests included), so a listing
  only serializes them;
- `prompts/get` cycling through the skills: each call re-reads that skill's `SKILL.md`, as `commands.invoke`
  does, and returns the same activation;
- `commands.invoke` (user mode) over the language server, on the same tree, for comparison;
- the watcher: one look at the disk that finds nothing changed, on the 128-skill tree and on 128 skills of
  512 files each (the catalog's and the listing's bounds), and the share of one core that costs at the wait
  the server now leaves between looks (`watch_seconds`) beside a look every WATCH_SECONDS (what it did before).
A raw newline-delimited JSON-RPC client (the MCP stdio framing), no SDK client in the timing; the watcher's
looks are timed in this process, on the server's own `SkillsFace`.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import subprocess
import time

from common import PYTHON, REPO, TREES, child_env, log  # first: sets sys.path

import generate
from invoke import chat_session
from report import Row, table

MCP = [PYTHON, "-m", "albedo_skills_ls.cli", "mcp"]
WARMUP = 10
WATCH_SECONDS_BEFORE = 1.0  # the watcher looked every second whatever it watched, before `watch_seconds`
ARGUMENTS = "merge these files"


class McpClient:
    """Newline-delimited JSON-RPC over a child's stdin and stdout, with receive timestamps."""

    def __init__(self, proc: asyncio.subprocess.Process, started: float) -> None:
        self.proc, self.started, self._ids = proc, started, itertools.count(1)

    @classmethod
    async def spawn(cls, tree: generate.Tree) -> McpClient:
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            *MCP, "-w", tree.workspace, "--home", tree.home, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=child_env(tree.home),
            limit=64 * 1024 * 1024,
        )
        return cls(proc, started)

    async def request(self, method: str, params: dict) -> tuple[float, dict]:
        """(receive time, result) of one request; notifications in between are skipped."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        ident = next(self._ids)
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}).encode() + b"\n")
        await self.proc.stdin.drain()
        while True:
            line = await self.proc.stdout.readline()
            received = time.perf_counter()
            if not line:
                raise RuntimeError(f"the server ended before answering {method}")
            message = json.loads(line)
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return received, message["result"]

    def notify(self, method: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")

    async def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except asyncio.TimeoutError:
            self.proc.kill()


async def mcp_session(tree: generate.Tree, runs: int) -> tuple[float, list[float], list[float], int]:
    client = await McpClient.spawn(tree)
    try:
        received, _ = await client.request("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "albedo-bench", "version": "0"}})
        started = (received - client.started) * 1000
        client.notify("notifications/initialized")
        listings, gets, served = [], [], 0
        for index in range(WARMUP + runs):
            sent = time.perf_counter()
            cursor, served = None, 0
            while True:
                received, page = await client.request("skills/list", {"cursor": cursor} if cursor else {})
                served += len(page["skills"])
                cursor = page.get("nextCursor")
                if cursor is None:
                    break
            if index >= WARMUP:
                listings.append((received - sent) * 1000)
        _, listed = await client.request("prompts/list", {})
        names = [prompt["name"] for prompt in listed["prompts"]]
        for index in range(WARMUP + runs):
            sent = time.perf_counter()
            received, got = await client.request(
                "prompts/get", {"name": names[index % len(names)], "arguments": {"arguments": ARGUMENTS}})
            assert "<albedo-skill-activation>" in got["messages"][0]["content"]["text"], got
            if index >= WARMUP:
                gets.append((received - sent) * 1000)
        return started, listings, gets, served
    finally:
        await client.close()


def mcp_rows(tree: generate.Tree, quick: bool) -> list[Row]:
    log("mcp over stdio")
    runs, starts = (20, 2) if quick else (200, 10)
    group = "mcp"
    start_samples, listings, gets, served = [], [], [], 0
    for _ in range(starts):
        started, listings, gets, served = asyncio.run(mcp_session(tree, runs))
        start_samples.append(started)
    invokes, _catalogs, _commands = asyncio.run(chat_session(tree, runs))
    return [
        Row(group, "process start → `initialize` result: `albedo-skills mcp`", start_samples,
            note="the MCP SDK's import is most of it"),
        Row(group, f"`skills/list`, every page ({served} skills, digests built with the catalog)", listings),
        Row(group, "`prompts/get` round trip (re-reads that skill's SKILL.md)", gets),
        Row(group, "context: LSP `commands.invoke` (user) round trip, same tree, same run", invokes),
    ]


def bounds_tree(out: str) -> str:
    """The workspace of MAX_CANDIDATES skills of MAX_RESOURCE_FILES files each (written once)."""
    from albedo_skills_ls.skills.core.limits import MAX_CANDIDATES, MAX_RESOURCE_FILES

    workspace = os.path.join(out, "ws")
    done = os.path.join(out, ".complete")
    if not os.path.exists(done):
        for index in range(MAX_CANDIDATES):
            name = f"b{index:03d}"
            skill = os.path.join(workspace, ".agents", "skills", name)
            generate.write(os.path.join(skill, "SKILL.md"),
                           f"---\nname: {name}\ndescription: Holds many references. Use for the benchmark.\n---\n# Body\n")
            for number in range(MAX_RESOURCE_FILES - 1):
                generate.write(os.path.join(skill, "references", f"r{number:03d}.md"), "x\n")
        generate.write(done, "")
    return workspace


# One process per tree: this file is named `mcp`, so in this process `import mcp` would find it, not the SDK.
LOOKS = """
import json, sys, time
from albedo_skills_ls.mcp.server import SkillsFace, watch_seconds
from albedo_skills_ls.skills.catalog.session import SkillsSession
workspace, home, looks = sys.argv[1], sys.argv[2] or None, int(sys.argv[3])
face = SkillsFace(SkillsSession(workspace, home, user_roots=home is not None), lambda message: None)
samples = []
for _ in range(looks):
    started = time.perf_counter()
    assert not face.refresh()
    samples.append((time.perf_counter() - started) * 1000)
print(json.dumps({"samples": samples, "files": face.seen.files, "wait": watch_seconds(face.seen.files)}))
"""


def watcher_rows(tree: generate.Tree, quick: bool) -> list[Row]:
    log("mcp watcher")
    looks = 5 if quick else 20
    rows: list[Row] = []
    for label, workspace, home in (("128-skill tree", tree.workspace, tree.home),
                                   ("128 skills × 512 files", bounds_tree(os.path.join(TREES, "mcp-bounds")), "")):
        done = subprocess.run([PYTHON, "-c", LOOKS, workspace, home, str(looks)], capture_output=True, text=True,
                              check=True, cwd=REPO, env=child_env(home or None))
        ran = json.loads(done.stdout)
        look, wait = statistics.median(ran["samples"]), ran["wait"]
        rows.append(Row("mcp watcher", f"one look, nothing changed: {label} ({ran['files']} files)", ran["samples"],
                        note=f"share of a core: {look / (10 * wait):.1f}% looking every {wait:.1f} s "
                             f"(every {WATCH_SECONDS_BEFORE:.0f} s, as before: {look / (10 * WATCH_SECONDS_BEFORE):.1f}%)"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    tree = generate.generate_tree(os.path.join(TREES, "t128"), 128)
    print(table(mcp_rows(tree, args.quick) + watcher_rows(tree, args.quick)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
