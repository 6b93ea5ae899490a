"""Permission errors, for real: the server runs where permission bits apply to it, as the owner of the tree.

Root ignores permission bits through three capabilities: CAP_DAC_OVERRIDE (read, write, search anything),
CAP_DAC_READ_SEARCH (read and search anything) and CAP_FOWNER (act as any file's owner). As root, the
server is started through `setpriv` with those three dropped from its bounding, inheritable and so effective
sets, keeping uid 0: it still reaches the virtualenv and the clone wherever they are (a clone in a 0700
folder under /root is the usual container), and the tree's owner bits decide the rest. As an ordinary user
the server runs as is, the owner of the tree too. So every mode below is set on the owner's bits.

An unreadable skill folder is reported with the OS's reason, an unreadable resource is refused with it, an
unreadable folder inside a skill is reported by the listing, and the rest of the tree is served."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from lsp.harness import valid, write_skill

from .rpc import RawServer

REQUEST_FAILED = -32803
# the capabilities that let root ignore permission bits (capabilities(7)), as setpriv names them
PERMISSION_BYPASSING_CAPABILITIES = ("dac_override", "dac_read_search", "fowner")


def bound_by_permissions() -> tuple[str, ...]:
    """The command prefix that makes permission bits apply to the server: none for an ordinary user."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (util-linux) is needed to test permission errors as root"
    dropped = ",".join(f"-{name}" for name in PERMISSION_BYPASSING_CAPABILITIES)
    return (setpriv, f"--inh-caps={dropped}", f"--bounding-set={dropped}")


def test_the_prefix_really_binds_the_server_by_permission_bits(tmp_path):
    """The premise of the test below, checked on its own: through the prefix, a mode 000 file of the tree's
    owner cannot be read, while this interpreter (the one the server runs on) still starts."""
    secret = tmp_path / "secret.md"
    secret.write_text("secret\n", encoding="utf-8")
    os.chmod(secret, 0o000)
    probe = "import sys\ntry:\n    open(sys.argv[1]).read()\nexcept PermissionError:\n    print('denied')\n"
    result = subprocess.run([*bound_by_permissions(), sys.executable, "-c", probe, str(secret)],
                            capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout) == (0, "denied\n"), result.stderr
    if os.geteuid() == 0:
        status = subprocess.run([*bound_by_permissions(), "cat", "/proc/self/status"],
                                capture_output=True, text=True, check=True).stdout
        assert "Uid:\t0\t" in status  # root's uid kept: only the bypass is gone


async def test_permission_errors_are_reported_and_the_rest_is_served(tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
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
    os.chmod(demo / "searchable", 0o111)
    os.chmod(skills / "closed", 0o000)

    server = await RawServer.start(str(home), prefix=bound_by_permissions())
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
        for path in (skills / "closed", demo / "locked", demo / "searchable"):
            os.chmod(path, 0o755)  # so that pytest can remove the tree, as root without the bypass or as a user
