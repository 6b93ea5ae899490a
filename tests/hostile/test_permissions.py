"""Permission errors, for real: the server runs as an unprivileged user (tests run as root here, and root
reads everything, so the server is started through `setpriv` as nobody; as any other user it runs as is).
An unreadable skill folder is reported with the OS's reason, an unreadable resource is refused with it, an
unreadable folder inside a skill is reported by the listing, and the rest of the tree is served."""

from __future__ import annotations

import os
import shutil

from lsp.harness import valid, write_skill

from .rpc import RawServer

# `world_tree` (tests/conftest.py): a tree nobody can traverse

NOBODY = 65534
REQUEST_FAILED = -32803


def unprivileged() -> tuple[str, ...]:
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (util-linux) is needed to test permission errors as root"
    return (setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups")


async def test_permission_errors_are_reported_and_the_rest_is_served(world_tree):
    ws, home = world_tree / "ws", world_tree / "home"
    home.mkdir()
    skills = ws / ".agents/skills"
    demo = write_skill(skills, "demo", valid("demo"), "# Demo\n").parent
    (demo / "references").mkdir()
    (demo / "references/secret.md").write_text("secret\n", encoding="utf-8")
    (demo / "references/open.md").write_text("open\n", encoding="utf-8")
    (demo / "locked").mkdir()
    (demo / "searchable").mkdir()  # search permission only: its files can be opened by name, not listed
    (demo / "searchable/known.md").write_text("known\n", encoding="utf-8")
    write_skill(skills, "closed", valid("closed"))
    for path in (ws, home, skills, demo, demo / "references", demo / "locked"):
        os.chmod(path, 0o755)
    for path in ws.rglob("*"):
        if path.is_file():
            os.chmod(path, 0o644)
    os.chmod(demo / "references/secret.md", 0o000)
    os.chmod(demo / "locked", 0o000)
    os.chmod(demo / "searchable", 0o711)
    os.chmod(skills / "closed", 0o000)

    server = await RawServer.start(str(home), prefix=unprivileged())
    try:
        await server.initialize(str(ws))
        catalog = await server.request("workspace/executeCommand", {"command": "commands.catalog", "arguments": []})
        assert "/demo" in [entry["command"] for entry in catalog["result"]]
        assert "/closed" not in [entry["command"] for entry in catalog["result"]]
        closed = await server.notification("textDocument/publishDiagnostics", lambda p: "/closed" in p["uri"])
        assert [d["code"] for d in closed["params"]["diagnostics"]] == ["unreadable"]
        assert "Permission denied" in closed["params"]["diagnostics"][0]["message"]

        refused = await server.request("workspace/executeCommand",
                                       {"command": "skills.read", "arguments": ["demo", "references/secret.md"]})
        assert refused["error"]["code"] == REQUEST_FAILED and "Permission denied" in refused["error"]["message"]
        page = await server.request("workspace/executeCommand",
                                    {"command": "skills.read", "arguments": ["demo", "references/open.md"]})
        assert page["result"]["content"] == "open\n"
        # the descriptor walk that confines the open needs no more than a path-based open would
        known = await server.request("workspace/executeCommand",
                                     {"command": "skills.read", "arguments": ["demo", "searchable/known.md"]})
        assert known["result"]["content"] == "known\n"
        listed = await server.request("workspace/executeCommand", {"command": "skills.resources", "arguments": ["demo"]})
        assert "references/secret.md" in listed["result"]["resources"]  # listed: it is a file; reading says why not
        unreadable = sorted(d["path"].rsplit("/", 1)[1] for d in listed["result"]["diagnostics"] if d["code"] == "unreadable")
        assert unreadable == ["locked", "searchable"]
    finally:
        await server.kill()
