"""A real editor: headless Neovim with the repository's editors/nvim/albedo_skills.lua, on a real workspace.

Neovim runs once per module (tests/clients/nvim_driver.lua plays the session and writes what Neovim saw as
JSON); each test below checks one part of it. Neovim is required: CI installs it (`apt-get install -y
neovim`), and a missing `nvim` fails these tests rather than skipping them. `ALBEDO_NVIM` may name another
binary (e.g. a newer Neovim) to run the same session with.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("nvim_driver.lua")
EDITORS_NVIM = REPO / "editors" / "nvim"

# Neovim waits on conditions (catalogChanged, diagnostics present/cleared, attach); this bound only turns a
# hang into a failure with a report. It is not a speed requirement.
WAIT_GUARD_MS = 30_000
# The whole Neovim process: a hang guard, not a speed assertion.
HANG_GUARD_SECONDS = 120

ERROR = 1  # vim.diagnostic.severity.ERROR
BUILTINS = ("/help", "/model", "/reload")


def write_skill(root: Path, folder: str, frontmatter: str) -> Path:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{frontmatter}\n---\n# Instructions\n\nDo the thing.\n", encoding="utf-8")
    return path


def nvim_binary() -> str:
    chosen = os.environ.get("ALBEDO_NVIM") or shutil.which("nvim")
    if not chosen:
        pytest.fail("nvim is not installed: `apt-get install -y neovim` (CI installs it; these tests never skip)")
    return chosen


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """Build the workspace and home, run Neovim once, return what it recorded (plus paths for the asserts)."""
    nvim = nvim_binary()
    base = tmp_path_factory.mktemp("nvim")
    ws, home = base / "ws", base / "home"
    (ws / ".git").mkdir(parents=True)
    write_skill(ws / ".agents/skills", "good", "name: good\ndescription: Does a good thing.")
    bad = write_skill(ws / ".agents/skills", "bad", "name: wrong\ndescription: Does a bad thing.")
    other = write_skill(ws / ".albedo/skills", "other", "name: other")  # never opened: description-missing
    user_skill = write_skill(home / ".agents/skills", "mine", "name: mine\ndescription: Mine, from the user root.")
    chat_text = "/\nsee and/or\n"
    chats = []
    for name, filetype in (("x.chat.md", None), ("notes.prompt", None), ("scratch.txt", "albedo-chat")):
        (ws / name).write_text(chat_text, encoding="utf-8")
        chats.append({"path": str(ws / name), "filetype": filetype})

    out = base / "result.json"
    server_log = base / "server.log"
    params = {
        "editors_nvim": str(EDITORS_NVIM),
        "out": str(out),
        "cmd": [sys.executable, "-m", "albedo_skills_ls", "--log-file", str(server_log), "-vv"],
        "guard_ms": WAIT_GUARD_MS,
        "bad": str(bad),
        "other": str(other),
        "user_skill": str(user_skill),
        "chats": chats,
    }
    (base / "params.json").write_text(json.dumps(params), encoding="utf-8")

    env = {key: value for key, value in os.environ.items() if not key.startswith(("NVIM", "VIM", "MYVIMRC"))}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(base / "xdg/config"),
        XDG_DATA_HOME=str(base / "xdg/data"),
        XDG_STATE_HOME=str(base / "xdg/state"),
        XDG_CACHE_HOME=str(base / "xdg/cache"),
        XDG_RUNTIME_DIR=str(base / "xdg/runtime"),
        NVIM_LOG_FILE=str(base / "nvim.log"),
        ALBEDO_NVIM_PARAMS=str(base / "params.json"),
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    )
    for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
        Path(env[key]).mkdir(parents=True, exist_ok=True)
    os.chmod(env["XDG_RUNTIME_DIR"], 0o700)

    completed = subprocess.run(
        [nvim, "--headless", "--clean", "-u", str(DRIVER)],
        cwd=ws,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,
    )

    def logs() -> str:
        parts = [f"nvim exit {completed.returncode}", completed.stdout, completed.stderr]
        for path in (server_log, *sorted((base / "xdg").rglob("lsp.log"))):
            if path.exists():
                parts.append(f"--- {path.name} ---\n" + path.read_text(encoding="utf-8", errors="replace")[-6000:])
        return "\n".join(parts)

    assert out.exists(), f"Neovim wrote no result\n{logs()}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert not result.get("error"), f"{result['error']}\n{result.get('messages')}\n{logs()}"
    result["logs"] = logs
    return result


def codes(items: list[dict]) -> list[str]:
    return [item["code"] for item in items]


def test_bad_skill_gets_name_mismatch_with_its_exact_range(session):
    assert session["bad_ready"], session["logs"]()
    (mismatch,) = [d for d in session["bad_before"] if d["code"] == "name-mismatch"]
    assert (mismatch["lnum"], mismatch["col"], mismatch["end_lnum"], mismatch["end_col"]) == (1, 6, 1, 11)
    assert mismatch["severity"] == ERROR
    assert mismatch["source"] == "albedo-skills"
    assert "wrong" in mismatch["message"] and "bad" in mismatch["message"]
    assert session["catalog"] and session["catalog"][0]["enabled"] is True


def test_unopened_skill_in_the_workspace_has_diagnostics_too(session):
    assert "description-missing" in codes(session["other"]), session["other"]


def test_fixing_the_name_in_the_buffer_clears_the_diagnostic(session):
    assert session["bad_fixed"], (session["bad_after"], session["logs"]())
    assert "name-mismatch" not in codes(session["bad_after"])


def test_user_root_skill_joins_the_running_client_and_is_valid(session):
    assert session["user_published"], session["logs"]()
    assert session["user_diagnostics"] == [] or session["user_diagnostics"] == {}
    assert session["user_clients"] == session["bad_clients"] and len(session["bad_clients"]) == 1


def chat(session, name: str) -> dict:
    (entry,) = [entry for entry in session["chats"] if entry["path"].endswith(name)]
    assert entry["attached"], entry
    assert entry["clients"] == session["bad_clients"], entry
    assert entry["omnifunc"] == "v:lua.vim.lsp.omnifunc", entry  # <C-x><C-o> asks the server
    return entry


@pytest.mark.parametrize(
    "name",
    [
        "x.chat.md",  # the default file pattern
        "scratch.txt",  # filetype albedo-chat, a default language id
        "notes.prompt",  # a file pattern given only in the settings: proves they reached the server
    ],
)
def test_slash_at_line_start_offers_skills_and_builtins(session, name):
    entry = chat(session, name)
    offered = entry["line_start"]
    assert not offered["errors"], offered
    labels = set(offered["labels"])
    assert {"/good", *BUILTINS} <= labels, sorted(labels)
    assert "/mine" in labels, sorted(labels)  # the user root's skill


def test_slash_inside_a_word_offers_nothing(session):
    entry = chat(session, "x.chat.md")
    assert not entry["mid_word"]["errors"], entry["mid_word"]
    assert not entry["mid_word"]["labels"], entry["mid_word"]


def test_reload_command_is_announced_through_the_handler_and_user_event(session):
    assert session["reloaded"], session["logs"]()
    assert session["catalog"][-1]["reason"] == "reload"
    assert session["user_events"] == session["catalog_changes"] >= 2


def test_server_exits_when_neovim_stops_it(session):
    assert session["stopped"], session["logs"]()
