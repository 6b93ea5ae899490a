"""Engine rows, in this process: discovery cold and warm, `check_buffer`, completion, resources."""

from __future__ import annotations

import os
import time
from typing import Any, Callable

import generate
from common import REPO, log
from report import Row, bench, goal_ms
from rpc import CLIENT_CAPABILITIES, PER_ITEM_EDIT_CAPABILITIES, file_uri


def completion_items_of(result: Any) -> list:
    """The items of a completion answer: a bare list or a `CompletionList`."""
    return list(result.items if hasattr(result, "items") else result or [])


def completion_builder(tree: generate.Tree, capabilities: dict = CLIENT_CAPABILITIES) -> tuple[list[tuple[str, Callable[[], Any]]], str]:
    """The server's completion path for a chat buffer holding `/`, in process, if lsp/completion.py exists.

    Builds a real server with `create_server()`, runs pygls's own `initialize` handling (which calls ours)
    with `capabilities`, discovers the 128-skill tree and opens `x.chat.md`; returns timed callables for the
    item-building function (`chat.completion_items`) and for the whole registered `textDocument/completion`
    handler.
    """
    if not os.path.exists(os.path.join(REPO, "albedo_skills_ls", "lsp", "completion.py")):
        return [], "n/a (no completion yet)"
    try:
        from lsprotocol import types

        from albedo_skills_ls.lsp.app import create_server

        server = create_server()
        server.protocol.writer = None  # nothing is sent: no client here
        params = types.InitializeParams(
            capabilities=server.protocol._converter.structure(capabilities, types.ClientCapabilities),
            root_uri=file_uri(tree.workspace),
            workspace_folders=[types.WorkspaceFolder(uri=file_uri(tree.workspace), name="ws")],
            initialization_options={"albedoSkills": {"home": tree.home}},
        )
        steps = server.protocol.lsp_initialize(params)
        handler, args, _ = next(steps)
        handler(*args)
        try:
            steps.send(None)
        except StopIteration:
            pass
        server.workspaces.rebuild()
        for session in server.workspaces.sessions:
            session.reload()
        server.ready.set()
        uri = file_uri(os.path.join(tree.workspace, "x.chat.md"))
        # `/` on two lines: completing at the second gives another edit range, so the item list is rebuilt
        server.workspace.put_text_document(types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text="/\n/"))
        position = types.Position(line=0, character=1)
        complete = server.protocol.fm.features[types.TEXT_DOCUMENT_COMPLETION]
        request = types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
        items = completion_items_of(complete(request))
        if len(items) < 128:
            return [], f"n/a (the handler returned {len(items or [])} items)"
        timed: list[tuple[str, Callable[[], Any]]] = []
        try:
            from albedo_skills_ls.lsp import chat

            answering = server.request()  # what the dispatcher hands an answer
            document = answering.buffers.at_uri(uri)
            if len(completion_items_of(chat.completion_items(answering, document, request))) == len(items):
                timed.append(("`lsp.chat.completion_items` (the item list)",
                              lambda: chat.completion_items(answering, document, request)))
                elsewhere = types.CompletionParams(text_document=request.text_document,
                                                   position=types.Position(line=1, character=1))
                places = [request, elsewhere]

                def elsewhere_each_time() -> Any:
                    places.reverse()
                    return chat.completion_items(answering, document, places[0])

                timed.append(("`lsp.chat.completion_items`, each time at another place (new edit range)", elsewhere_each_time))
        except Exception as exc:  # the module moved: the handler row still stands
            log(f"chat.completion_items not timed: {exc!r}")
        timed.append(("the registered `textDocument/completion` handler", lambda: complete(request)))
        return timed, f"{len(items)} items"
    except Exception as exc:
        return [], f"n/a ({exc.__class__.__name__}: {exc})"[:160]


def engine_benchmarks(trees: dict[int, generate.Tree], big: generate.BigTree, scale: float) -> list[Row]:
    from albedo_skills_ls.skills.activation.commands import command_catalog
    from albedo_skills_ls.skills.catalog.session import SkillsSession, check_buffer
    from albedo_skills_ls.skills.resources.listing import list_resources
    from albedo_skills_ls.skills.resources.paging import EncodingVerdicts, read_resource

    def n(count: int) -> int:
        return max(5, int(count * scale))

    rows: list[Row] = []
    group = "engine"
    for size, tree in sorted(trees.items()):
        log(f"engine: cold discovery of {size}")
        samples = bench(lambda: SkillsSession(tree.workspace, tree.home).reload(), n(120 if size < 128 else 80), 5)
        row = Row(group, f"cold discovery, {size} skills (new session + `reload()`)", samples)
        rows.append(goal_ms(row, 20) if size == 128 else row)

    tree = trees[128]
    session = SkillsSession(tree.workspace, tree.home)
    session.reload()
    log("engine: reload")
    rows.append(goal_ms(Row(group, "`SkillsSession.reload()`, nothing changed (128)", bench(session.reload, n(400), 20)), 2))

    target = tree.workspace_skills[len(tree.workspace_skills) // 2]
    with open(target, "rb") as handle:
        original = handle.read()
    changed = original.replace(b"\nlicense:", b"\nlicense: MIT OR", 1) if b"\nlicense:" in original else original + b"\n"
    counter = [0]
    base_ns = time.time_ns()

    def touch_one() -> None:
        counter[0] += 1
        with open(target, "wb") as handle:
            handle.write(changed if counter[0] % 2 else original)
        stamp = base_ns + counter[0] * 1_000_000
        os.utime(target, ns=(stamp, stamp))

    try:
        samples = bench(session.reload, n(300), 10, setup=touch_one)
    finally:
        with open(target, "wb") as handle:
            handle.write(original)
    rows.append(goal_ms(Row(group, "`SkillsSession.reload()`, one file changed (128)", samples), 5))

    catalog = session.snapshot
    typical = tree.workspace_skills[0]
    with open(typical, encoding="utf-8") as handle:
        text = handle.read()
    fm_bytes = len(text.split("\n---\n", 1)[0].encode()) - 4
    log("engine: check_buffer")
    rows.append(goal_ms(Row(group, f"`check_buffer`, typical SKILL.md ({fm_bytes:,} B frontmatter, {text.count(chr(10))} lines)",
                            bench(lambda: check_buffer(catalog, typical, text), n(1000), 50)), 2))

    big_session = SkillsSession(big.workspace, big.home)
    big_catalog = big_session.snapshot
    with open(big.wide_frontmatter, encoding="utf-8") as handle:
        wide = handle.read()
    wide_bytes = len(wide.split("\n---\n", 1)[0].encode()) - 4
    rows.append(goal_ms(Row(group, f"`check_buffer`, {wide_bytes:,} B frontmatter (64 KiB bound)",
                            bench(lambda: check_buffer(big_catalog, big.wide_frontmatter, wide), n(60), 3)), 50))

    log("engine: completion")
    entries = command_catalog(catalog)
    rows.append(goal_ms(Row(group, f"`activation.command_catalog`, 128 skills ({len(entries)} entries)",
                            bench(lambda: command_catalog(catalog), n(2000), 100)), 1))
    # a client that takes `itemDefaults.editRange` (VS Code, Neovim 0.10+), then one that needs a textEdit
    # on each item (Neovim 0.7, eglot 1.9): docs/performance.md explains the two
    for client, capabilities in (("", CLIENT_CAPABILITIES), (", no itemDefaults", PER_ITEM_EDIT_CAPABILITIES)):
        timed, note = completion_builder(tree, capabilities)
        if not timed:
            rows.append(Row(group, f"completion item list{client} (lsp/completion.py)", value=note, goal="≤ 1 ms"))
        for label, fn in timed:
            rows.append(goal_ms(Row(group, f"completion in a chat buffer, 128 skills{client}: {label}",
                                    bench(fn, n(1000), 50), note=note), 0.5, 1))

    log("engine: resources")
    deep_name = "deep-resources"
    big_root = os.path.dirname(big.deep_resources)  # the skills root both big skills were discovered in
    page = read_resource(deep_name, big.deep_resources, "references/page-64k.md", 0, 65536, discovery_root=big_root)
    rows.append(Row(group, f"`read_resource`, one 64 KiB page of a {page['size']:,} B file",
                    bench(lambda: read_resource(deep_name, big.deep_resources, "references/page-64k.md", 0, 65536, discovery_root=big_root), n(500), 20)))
    manual = read_resource(deep_name, big.deep_resources, "references/manual-4m.md", 0, 65536, discovery_root=big_root)
    rows.append(Row(group, f"`read_resource`, one 64 KiB page of a {manual['size'] / 2**20:.0f} MiB file",
                    bench(lambda: read_resource(deep_name, big.deep_resources, "references/manual-4m.md", 0, 65536, discovery_root=big_root), n(100), 5),
                    note="no session (the command line's case): the encoding is decided anew, reading the whole file"))
    verdicts = EncodingVerdicts()  # the server's session keeps one: later pages of the same file cost the page
    rows.append(Row(group, f"`read_resource`, a later 64 KiB page of the {manual['size'] / 2**20:.0f} MiB file, in a session",
                    bench(lambda: read_resource(deep_name, big.deep_resources, "references/manual-4m.md", 65536, 65536,
                                                discovery_root=big_root, verdicts=verdicts), n(500), 20),
                    note="encoding verdict remembered per file identity"))
    listed = list_resources(deep_name, big.deep_resources, discovery_root=big_root)
    entries_count, files_count = generate.count_entries(big.deep_resources)
    rows.append(Row(group, f"`list_resources`, {entries_count:,} entries ({files_count} files, "
                           f"{len(listed['resources'])} listed, truncated={listed['truncated']})",
                    bench(lambda: list_resources(deep_name, big.deep_resources, discovery_root=big_root), n(100), 5)))
    many = list_resources("many-files", big.many_files, discovery_root=big_root)
    rows.append(Row(group, f"`list_resources`, 2,048 files (stops at {len(many['resources'])}, truncated={many['truncated']})",
                    bench(lambda: list_resources("many-files", big.many_files, discovery_root=big_root), n(100), 5)))
    return rows
