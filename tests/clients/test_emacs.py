"""A real editor: Emacs 28 in batch mode with Debian's eglot and the repository's albedo-skills.el, typed at.

tests/clients/emacs_driver.el opens files with C-x C-f, completes with C-M-i, applies a quick fix with
M-x eglot-code-actions and follows M-., then writes what the user ended up with as JSON. It runs twice: with
markdown-mode (Debian's elpa-markdown-mode) and without it, since markdown-mode does not ship with Emacs.
The workspace has `.agents`/`.albedo` but no `.git`: the project root must still be the workspace.
Emacs, eglot and markdown-mode are required (scripts/test.sh installs them); these tests never skip.
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
DRIVER = Path(__file__).with_name("emacs_driver.el")
ELPA = Path("/usr/share/emacs/site-lisp/elpa")

# Emacs waits on conditions (process output); this bound only turns a hang into a failure with a report.
WAIT_GUARD_MS = 30_000
HANG_GUARD_SECONDS = 240  # the whole Emacs process, a hang guard as well


def write_skill(root: Path, folder: str, frontmatter: str) -> Path:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{frontmatter}\n---\n# Instructions\n\nDo the thing.\n", encoding="utf-8")
    return path


def elpa_package(name: str) -> str:
    found = sorted(ELPA.glob(f"{name}-[0-9]*"))
    if not found:
        pytest.fail(f"{name} is not installed: `apt-get install elpa-{name}` (scripts/test.sh does)")
    return str(found[-1])


@pytest.fixture(scope="module", params=["markdown-mode", "no-markdown-mode"])
def emacs(request, tmp_path_factory):
    emacs_binary = shutil.which("emacs")
    if not emacs_binary:
        pytest.fail("emacs is not installed: `apt-get install emacs-nox` (scripts/test.sh does)")
    base = tmp_path_factory.mktemp(request.param)
    ws, home = base / "ws", base / "home"
    (ws / ".agents").mkdir(parents=True)  # no .git on purpose
    good = write_skill(ws / ".agents/skills", "good", "name: good\ndescription: Does a good thing.")
    bad = write_skill(ws / ".agents/skills", "bad", "name: wrong\ndescription: Does a bad thing.")
    fixme = write_skill(ws / ".agents/skills", "fixme", "name: fixme\ndesciption: Fixes things.")
    write_skill(ws / ".albedo/skills", "twin", "name: twin\ndescription: The winner.")
    twin = write_skill(ws / ".agents/skills", "twin", "name: twin\ndescription: The loser.")
    chat = ws / "talk.chat.md"
    chat.write_text("# A chat\n", encoding="utf-8")
    home.mkdir()

    load_path = [str(REPO), elpa_package("eglot")]
    if request.param == "markdown-mode":
        load_path.append(elpa_package("markdown-mode"))
    out = base / "result.json"
    server_log = base / "server.log"
    params = {
        "out": str(out),
        "load_path": load_path,
        "cmd": [sys.executable, "-m", "albedo_skills_ls", "--log-file", str(server_log), "-vv"],
        "guard_ms": WAIT_GUARD_MS,
        "good": str(good),
        "bad": str(bad),
        "fixme": str(fixme),
        "twin": str(twin),
        "chat": str(chat),
    }
    (base / "params.json").write_text(json.dumps(params), encoding="utf-8")
    env = dict(os.environ)
    env.update(
        HOME=str(home),
        ALBEDO_EMACS_PARAMS=str(base / "params.json"),
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    )
    completed = subprocess.run(
        [emacs_binary, "-Q", "--batch", "-l", str(DRIVER)],
        cwd=ws,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,
    )

    def logs() -> str:
        parts = [f"emacs exit {completed.returncode}", completed.stdout[-4000:], completed.stderr[-6000:]]
        if server_log.exists():
            parts.append(server_log.read_text(encoding="utf-8", errors="replace")[-6000:])
        return "\n".join(parts)

    assert out.exists(), f"Emacs wrote no result\n{logs()}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert not result.get("error"), f"{result['error']}\n{logs()}"
    result.update(logs=logs, variant=request.param, ws=str(ws), good=str(good))
    return result


def test_the_modes_derive_from_markdown_mode_only_when_it_is_there(emacs):
    with_markdown = emacs["variant"] == "markdown-mode"
    assert emacs["markdown_mode"] is with_markdown
    assert emacs["parent_mode"] == ("markdown-mode" if with_markdown else "text-mode")
    assert emacs["bad_mode"] == "albedo-skills-file-mode"
    assert emacs["chat_mode"] == "albedo-skills-chat-mode"


def test_a_skill_file_gets_its_diagnostics_in_flymake(emacs):
    assert emacs["bad_managed"] and emacs["bad_ready"], emacs["logs"]()
    (mismatch,) = [d for d in emacs["bad_diagnostics"] if "wrong" in d["text"]]
    assert (mismatch["line"], mismatch["column"], mismatch["type"]) == (2, 6, "eglot-error")
    assert emacs["catalog_announced"]


def test_the_project_is_the_workspace_without_a_git_folder(emacs):
    assert emacs["project_root"].rstrip("/") == emacs["ws"]
    assert emacs["twin_ready"], emacs["logs"]()
    assert any("collision" in d["text"] or "twin" in d["text"] for d in emacs["twin_diagnostics"])
    (collision,) = [d for d in emacs["twin_diagnostics"] if ".albedo/skills/twin" in d["text"]]
    assert collision["type"] == "eglot-warning"


def test_the_quick_fix_taken_at_the_prompt_rewrites_the_buffer(emacs):
    assert emacs["fixme_ready"] and emacs["fix_applied"], emacs["logs"]()
    assert emacs["fixme_after"][:4] == ["---", "name: fixme", "description: Fixes things.", "---"]


def test_completion_at_point_inserts_exactly_the_command(emacs):
    assert emacs["chat_managed"], emacs["logs"]()
    assert emacs["completed_prefix"] == "/good"
    assert emacs["completed_argument"] == "/reload session"


def test_m_dot_over_a_command_opens_its_skill_file_at_the_name(emacs):
    assert emacs["definition_opened"], (emacs["definition"], emacs["logs"]())
    assert emacs["definition"] == {"path": emacs["good"], "line": 2, "column": 6}


def test_reload_command_is_announced(emacs):
    assert emacs["reloaded"] and emacs["last_reason"] == "reload", emacs["logs"]()
    assert emacs["stopped"] is True


def test_the_package_byte_compiles_without_a_warning(tmp_path):
    """What package.el does on install; a warning there is shown to every user."""
    copy = tmp_path / "albedo-skills.el"
    copy.write_text((REPO / "albedo-skills.el").read_text(encoding="utf-8"), encoding="utf-8")
    setup = f'(progn (add-to-list (quote load-path) "{elpa_package("eglot")}") (setq byte-compile-error-on-warn t))'
    done = subprocess.run(
        ["emacs", "-Q", "--batch", "--eval", setup, "-f", "batch-byte-compile", str(copy)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,
    )
    assert done.returncode == 0 and (tmp_path / "albedo-skills.elc").exists(), done.stderr
    assert "Warning" not in done.stderr, done.stderr



@pytest.mark.parametrize(
    "settings, sent",
    [
        ("nil", {"albedoSkills": {}}),  # nothing set: the server's own defaults apply, none copied here
        ("'(:userRoots :json-false :logLevel \"debug\")", {"albedoSkills": {"userRoots": False, "logLevel": "debug"}}),
    ],
)
def test_emacs_sends_only_the_settings_the_person_set(settings, sent):
    """What eglot and lsp-mode send as initializationOptions, serialised as eglot's jsonrpc does."""
    emacs_binary = shutil.which("emacs")
    if not emacs_binary:
        pytest.fail("emacs is not installed: `apt-get install emacs-nox` (scripts/test.sh does)")
    program = (
        f"(progn (setq albedo-skills-settings {settings})"
        " (princ (json-serialize (albedo-skills--initialization-options) :false-object :json-false :null-object nil)))"
    )
    result = subprocess.run(
        [emacs_binary, "--batch", "-Q", "-l", str(REPO / "albedo-skills.el"), "--eval", program],
        capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, check=True,
    )
    assert json.loads(result.stdout) == sent
