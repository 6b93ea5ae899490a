"""Soak the language server: memory over many edits and reloads, requests under reload storms, and the time
to answer after garbage input. Not part of CI (it runs for minutes); its figures go in docs/performance.md.

    .venv/bin/python benchmarks/soak.py                      # 100,000 edits, 1,000 reloads
    .venv/bin/python benchmarks/soak.py --edits 20000 --reloads 200

The server is started over stdio exactly as an editor starts it and driven by benchmarks/rpc.py's raw
JSON-RPC client. RSS is the server process's VmRSS from /proc, read after a request has made the server
drain everything sent before it (a request is answered only after every earlier message was handled).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

from rpc import CLIENT_CAPABILITIES, RpcClient, file_uri, initialize_params  # noqa: E402  (benchmarks/rpc.py)

CATALOG_CHANGED = "albedoSkills/catalogChanged"
SAMPLES = 10  # RSS readings per phase (plus the one before it starts)
BATCH = 200  # messages written before waiting for the pipe to drain


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def skill_text(name: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: A skill for the soak.\n---\n# {name}\n\n{body}\n"


def build_tree(base: str) -> tuple[str, str, str]:
    workspace, home = os.path.join(base, "ws"), os.path.join(base, "home")
    os.makedirs(home)
    for index in range(20):
        folder = os.path.join(workspace, ".agents", "skills", f"skill-{index:02d}")
        os.makedirs(os.path.join(folder, "references"))
        with open(os.path.join(folder, "SKILL.md"), "w", encoding="utf-8") as handle:
            handle.write(skill_text(f"skill-{index:02d}", "See [formats](references/formats.md).\n"))
        with open(os.path.join(folder, "references", "formats.md"), "w", encoding="utf-8") as handle:
            handle.write("# Formats\n")
    return workspace, home, os.path.join(workspace, ".agents", "skills", "skill-00", "SKILL.md")


async def settle(client: RpcClient) -> None:
    """Return once the server handled every message sent so far (requests are answered in order)."""
    await client.request("workspace/executeCommand", {"command": "commands.catalog", "arguments": []})


async def start(workspace: str, home: str) -> RpcClient:
    env = dict(os.environ, HOME=home)
    client = await RpcClient.spawn([sys.executable, "-m", "albedo_skills_ls"], workspace, env)
    params = initialize_params(workspace, home)
    params["capabilities"] = CLIENT_CAPABILITIES
    await client.request("initialize", params)
    ready = client.expect(lambda message: message.get("method") == CATALOG_CHANGED)
    client.notify("initialized", {})
    await asyncio.wait_for(ready, 60)
    client.notes.clear()
    return client


async def edits(client: RpcClient, path: str, count: int) -> list[tuple[int, float]]:
    uri = file_uri(path)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}},
    )
    await settle(client)
    readings = [(0, rss_mib(client.proc.pid))]
    step = max(1, count // SAMPLES)
    for number in range(1, count + 1):
        edited = text + f"\nEdit {number}: keep [formats](references/formats.md) near.\n"
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": number + 1}, "contentChanges": [{"text": edited}]},
        )
        if number % BATCH == 0:
            await client.proc.stdin.drain()
            client.notes.clear()  # the client keeps nothing either: only the server's memory is measured
        if number % step == 0:
            await settle(client)
            readings.append((number, rss_mib(client.proc.pid)))
    return readings


async def reloads(client: RpcClient, count: int) -> list[tuple[int, float]]:
    readings = [(0, rss_mib(client.proc.pid))]
    step = max(1, count // SAMPLES)
    for number in range(1, count + 1):
        await client.request("workspace/executeCommand", {"command": "skills.reload", "arguments": []})
        client.notes.clear()
        if number % step == 0:
            readings.append((number, rss_mib(client.proc.pid)))
    return readings


async def storm(client: RpcClient, workspace: str, seconds: float) -> dict[str, Any]:
    """File events every millisecond or so (each would schedule a reload) while requests keep coming."""
    changed = {"changes": [{"uri": file_uri(os.path.join(workspace, ".agents/skills/skill-01/SKILL.md")), "type": 2}]}
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def events() -> int:
        sent = 0
        while time.perf_counter() < stop:
            client.notify("workspace/didChangeWatchedFiles", changed)
            sent += 1
            await client.proc.stdin.drain()
            await asyncio.sleep(0.001)
        return sent

    async def requests() -> None:
        while time.perf_counter() < stop:
            began = time.perf_counter()
            await client.request("workspace/executeCommand", {"command": "skills.read", "arguments": ["skill-02"]})
            latencies.append((time.perf_counter() - began) * 1000)

    sent, _ = await asyncio.gather(events(), requests())
    latencies.sort()
    return {
        "events": sent,
        "requests": len(latencies),
        "p50": statistics.median(latencies),
        "p95": latencies[int(0.95 * (len(latencies) - 1))],
        "max": latencies[-1],
    }


async def garbage(client: RpcClient) -> dict[str, float]:
    """Well-framed bodies that are not JSON-RPC, then one request: how long until it is answered."""
    answers: dict[str, float] = {}
    for label, body in (
        ("invalid JSON", b"{not json"),
        ("JSON, not JSON-RPC", b'{"hello": [1, 2, 3]}'),
        ("random bytes", bytes(range(256)) * 16),
    ):
        client.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        began = time.perf_counter()
        await settle(client)
        answers[label] = (time.perf_counter() - began) * 1000
    return answers


def table(title: str, readings: list[tuple[int, float]], unit: str) -> str:
    lines = [f"| {title} | {unit} | RSS MiB |", "|---|---|---|"]
    lines += [f"| | {count:,} | {rss:.1f} |" for count, rss in readings]
    growth = readings[-1][1] - readings[0][1]
    lines.append(f"| growth | | {growth:+.1f} |")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=100_000)
    parser.add_argument("--reloads", type=int, default=1_000)
    parser.add_argument("--storm-seconds", type=float, default=5.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="albedo-soak-") as base:
        workspace, home, path = build_tree(base)
        client = await start(workspace, home)
        try:
            began = time.perf_counter()
            edit_readings = await edits(client, path, args.edits)
            edit_seconds = time.perf_counter() - began
            began = time.perf_counter()
            reload_readings = await reloads(client, args.reloads)
            reload_seconds = time.perf_counter() - began
            stormed = await storm(client, workspace, args.storm_seconds)
            answered = await garbage(client)
        finally:
            await client.close()
    print(f"## Soak ({sys.version.split()[0]}, {os.cpu_count()} CPUs)\n")
    print(table("didChange", edit_readings, "edits") + f"\n\n{args.edits:,} edits in {edit_seconds:.1f} s\n")
    print(table("skills.reload", reload_readings, "reloads") + f"\n\n{args.reloads:,} reloads in {reload_seconds:.1f} s\n")
    print(
        f"Reload storm: {stormed['events']:,} file events in {args.storm_seconds:.0f} s, {stormed['requests']:,} "
        f"`skills.read` answered meanwhile: p50 {stormed['p50']:.1f} ms, p95 {stormed['p95']:.1f} ms, "
        f"max {stormed['max']:.1f} ms\n"
    )
    print("Time to answer the next request after garbage input:")
    for label, milliseconds in answered.items():
        print(f"- {label}: {milliseconds:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
