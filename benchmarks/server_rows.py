"""Server rows: starts over stdio beside benchmarks/minimal_server.py, `initialized` to the last diagnostics,
`didChange` to `publishDiagnostics`, the completion round trip and resident memory."""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from dataclasses import dataclass, field

import generate
from common import log
from report import Row, goal_ms, paired_ratios, ratio_row
from rpc import CLOCK_TICKS, MINIMAL, OURS, RpcClient, cpu_ms, file_uri, initialize_params, server_env, vm_rss_mib


@dataclass
class ServerResults:
    init_ours: list[float] = field(default_factory=list)
    init_minimal: list[float] = field(default_factory=list)
    init_cpu_ours: list[float] = field(default_factory=list)  # CPU the process used up to its `initialize` result
    init_cpu_minimal: list[float] = field(default_factory=list)
    to_last_diagnostics: list[float] = field(default_factory=list)
    to_catalog_changed: list[float] = field(default_factory=list)
    start_to_first_diagnostics: list[float] = field(default_factory=list)  # what a user waits, from launch
    published: int = 0
    catalog_note: dict = field(default_factory=dict)
    rss: list[float] = field(default_factory=list)
    did_change: list[float] = field(default_factory=list)
    completion: list[float] | None = None
    completion_note: str = ""
    capabilities: dict = field(default_factory=dict)


async def one_start(argv: list[str], tree: generate.Tree, results: ServerResults, ours: bool) -> None:
    client = await RpcClient.spawn(argv, tree.workspace, server_env(tree.home))
    try:
        received, result = await client.request("initialize", initialize_params(tree.workspace, tree.home))
        elapsed = (received - client.started) * 1000
        used = cpu_ms(client.proc.pid)
        if used is not None:
            (results.init_cpu_ours if ours else results.init_cpu_minimal).append(used)
        if not ours:
            results.init_minimal.append(elapsed)
            client.notify("initialized", {})
            return
        results.init_ours.append(elapsed)
        results.capabilities = result.get("capabilities", {}) if isinstance(result, dict) else {}
        changed = client.expect(lambda m: m.get("method") == "albedoSkills/catalogChanged")
        sent = time.perf_counter()
        client.notify("initialized", {})
        done_at, note = await asyncio.wait_for(changed, 60)
        diagnostics = [t for t, m in client.notes if m.get("method") == "textDocument/publishDiagnostics" and t <= done_at]
        results.to_catalog_changed.append((done_at - sent) * 1000)
        results.to_last_diagnostics.append(((max(diagnostics) if diagnostics else done_at) - sent) * 1000)
        if diagnostics:
            results.start_to_first_diagnostics.append((min(diagnostics) - client.started) * 1000)
        results.published = len(diagnostics)
        results.catalog_note = note.get("params", {})
        rss = vm_rss_mib(client.proc.pid)
        if rss is not None:
            results.rss.append(rss)
    finally:
        await client.close()


def completion_provider(capabilities: dict) -> bool:
    return bool(capabilities.get("completionProvider"))


async def live_session(tree: generate.Tree, results: ServerResults, changes: int, completions: int) -> None:
    """One long-lived server: didChange -> publishDiagnostics, then the chat-buffer completion round trip."""
    client = await RpcClient.spawn(OURS, tree.workspace, server_env(tree.home))
    try:
        _, init = await client.request("initialize", initialize_params(tree.workspace, tree.home))
        capabilities = init.get("capabilities", {}) if isinstance(init, dict) else {}
        ready = client.expect(lambda m: m.get("method") == "albedoSkills/catalogChanged")
        client.notify("initialized", {})
        await asyncio.wait_for(ready, 60)

        path = tree.workspace_skills[0]
        uri = file_uri(path)
        with open(path, encoding="utf-8") as handle:
            original = handle.read()
        variant = original.replace("\n", '\nversion: "1.2.0"\n', 1)  # adds an information diagnostic
        opened = client.expect(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "skill", "version": 1, "text": original}})
        await asyncio.wait_for(opened, 30)
        version = 1
        for index in range(changes + 2):
            version += 1
            expected = version
            published = client.expect(
                lambda m, v=expected: m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri
                and m["params"].get("version") == v
            )
            sent = time.perf_counter()
            client.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version},
                 "contentChanges": [{"text": variant if index % 2 == 0 else original}]},
            )
            assert client.proc.stdin is not None
            await client.proc.stdin.drain()
            received, _ = await asyncio.wait_for(published, 30)
            if index >= 2:  # two warm-ups
                results.did_change.append((received - sent) * 1000)

        if not completion_provider(capabilities):
            results.completion_note = "n/a (no completion yet)"
            return
        chat = os.path.join(tree.workspace, "x.chat.md")
        chat_uri = file_uri(chat)
        client.notify("textDocument/didOpen", {"textDocument": {"uri": chat_uri, "languageId": "markdown", "version": 1, "text": "/"}})
        params = {"textDocument": {"uri": chat_uri}, "position": {"line": 0, "character": 1},
                  "context": {"triggerKind": 2, "triggerCharacter": "/"}}
        samples, items = [], 0
        for index in range(completions + 10):
            sent = time.perf_counter()
            received, result = await client.request("textDocument/completion", params)
            if index >= 10:
                samples.append((received - sent) * 1000)
            found = result.get("items", []) if isinstance(result, dict) else (result or [])
            items = len(found)
        results.completion = samples
        results.completion_note = f"{items} items"
    finally:
        await client.close()


async def server_benchmarks(tree: generate.Tree, starts: int, changes: int, completions: int) -> ServerResults:
    results = ServerResults()
    for index in range(starts + 1):  # the first pair warms the page cache and .pyc files
        target = ServerResults() if index == 0 else results
        # alternate which goes first so drift on the machine hits both alike
        order = [(OURS, True), (MINIMAL, False)] if index % 2 else [(MINIMAL, False), (OURS, True)]
        for argv, ours in order:
            await one_start(argv, tree, target, ours)
    await live_session(tree, results, changes, completions)
    return results


def server_rows(tree: generate.Tree, quick: bool) -> list[Row]:
    """The server group of the table, on the 128-skill tree."""
    try:
        from albedo_skills_ls.lsp.server import LIVE_DEBOUNCE_SECONDS
    except Exception:  # pragma: no cover - the constant moved: fall back to the documented 0.1 s
        LIVE_DEBOUNCE_SECONDS = 0.1
    debounce_ms = LIVE_DEBOUNCE_SECONDS * 1000

    log("server over stdio")
    starts = 4 if quick else 30
    server = asyncio.run(server_benchmarks(tree, starts, 8 if quick else 40, 20 if quick else 300))
    group = "server"
    ours_init = Row(group, "process start → `initialize` result: `python -m albedo_skills_ls`", server.init_ours)
    minimal_init = Row(group, "process start → `initialize` result: benchmarks/minimal_server.py", server.init_minimal)
    ours_cpu = Row(group, "CPU (user + system) up to the `initialize` result: ours", server.init_cpu_ours,
                   note=f"/proc/PID/stat, {1000 / CLOCK_TICKS:g} ms ticks")
    minimal_cpu = Row(group, "CPU (user + system) up to the `initialize` result: minimal pygls", server.init_cpu_minimal)
    rows = [ours_init, minimal_init,
             ratio_row(group, "start → `initialize`, ours / minimal pygls", ours_init, minimal_init, 1.05,
                       note=paired_ratios(ours_init, minimal_init)),
             ours_cpu, minimal_cpu,
             ratio_row(group, "start → `initialize` CPU, ours / minimal pygls", ours_cpu, minimal_cpu, None,
                       note=paired_ratios(ours_cpu, minimal_cpu))]
    rows.append(Row(group, f"`initialized` → last `publishDiagnostics` (128 skills, {server.published} files published)",
                    server.to_last_diagnostics))
    rows.append(Row(group, "process start → first `publishDiagnostics` (128 skills)", server.start_to_first_diagnostics,
                    note="what an editor's user waits for the first squiggle, from the server's launch"))
    rows.append(Row(group, "`initialized` → `albedoSkills/catalogChanged` (128 skills)", server.to_catalog_changed,
                    note=f"{server.catalog_note.get('skills')} skills, {server.catalog_note.get('diagnostics')} diagnostics"))
    rows.append(Row(group, f"`didChange` → `publishDiagnostics` (typical SKILL.md, incl. {debounce_ms:g} ms debounce)",
                    server.did_change))
    if server.did_change:
        net = [value - debounce_ms for value in server.did_change]
        rows.append(Row(group, f"`didChange` → `publishDiagnostics` minus the {debounce_ms:g} ms debounce "
                               "(`LIVE_DEBOUNCE_SECONDS`)", net))
    if server.completion is None:
        rows.append(Row(group, "completion round trip (`x.chat.md`, text `/`)", value=server.completion_note or "n/a (no completion yet)",
                        goal="≤ 5 ms"))
    else:
        rows.append(goal_ms(Row(group, "completion round trip (`x.chat.md`, text `/`)", server.completion,
                                note=server.completion_note), 5))
    rss_row = Row(group, "resident memory (VmRSS) after `initialized`, 128 skills",
                  value=f"{statistics.median(server.rss):.1f} MiB" if server.rss else "n/a", goal="≤ 60 MiB")
    if server.rss:
        rss_row.met = statistics.median(server.rss) <= 60
        rss_row.note = f"{statistics.median(server.rss) * 1.048576:.1f} MB; max {max(server.rss):.1f} MiB over {len(server.rss)} starts"
    rows.append(rss_row)
    return rows
