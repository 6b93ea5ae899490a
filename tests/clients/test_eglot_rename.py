"""A real editor: Emacs 28 in batch mode with Debian's eglot 1.9 and the repository's albedo-skills.el, typed
at in the rename workspace of tests/rename_world.py (tests/clients/eglot_rename_driver.el).

`M-?` on `/demo` in the chat file lists every mention (and no `demo-extra`); `C-M-.` finds skills by a
subsequence through workspace symbols; `M-x eglot-rename` is refused with the command to run instead,
because eglot 1.9 cannot apply a folder rename (it declares no `resourceOperations`), and nothing on disk
changes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rename_world as world

REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("eglot_rename_driver.el")
ELPA = Path("/usr/share/emacs/site-lisp/elpa")
WAIT_GUARD_MS = 30_000  # a hang guard per wait, not a speed requirement
HANG_GUARD_SECONDS = 240


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    emacs = shutil.which("emacs")
    eglot = sorted(ELPA.glob("eglot-[0-9]*"))
    if not emacs or not eglot:
        pytest.fail("emacs and eglot are not installed: `apt-get install emacs-nox elpa-eglot` (scripts/test.sh does)")
    base = tmp_path_factory.mktemp("eglot-rename")
    workspace, home = world.build(base)
    out = base / "result.json"
    params = {
        "out": str(out),
        "load_path": [str(REPO), str(eglot[-1])],
        "cmd": [sys.executable, "-m", "albedo_skills_ls"],
        "guard_ms": WAIT_GUARD_MS,
        "chat": str(workspace / "notes.chat.md"),
    }
    (base / "params.json").write_text(json.dumps(params), encoding="utf-8")
    before = world.snapshot(workspace)
    env = dict(os.environ, HOME=str(home), ALBEDO_EMACS_PARAMS=str(base / "params.json"), PYTHONPATH=str(REPO))
    done = subprocess.run([emacs, "-Q", "--batch", "-l", str(DRIVER)], cwd=workspace, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert out.exists(), f"Emacs wrote no result: {done.stderr[-4000:]}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert not result.get("error"), f"{result['error']}\n{done.stderr[-4000:]}"
    result.update(workspace=workspace, home=home, before=before, after=world.snapshot(workspace))
    return result


def test_references_list_every_mention(session):
    assert session["managed"] and session["ready"]
    lines = session["references"]
    found = [line for line in lines if line.strip()[:1].isdigit()]  # "  3: Use `/demo` ..." under each file
    # xref shows a line once however many mentions it holds: each line mentioning the skill, with the
    # declaration, the mirror and the user root's
    assert len(found) == len({(path, line) for path, line, _kind in world.EDITED}) + 2
    assert any("run /demo first. If the merge fails, run (/demo) again" in line for line in found)
    assert any("Use the skills: /demo merges files" in line for line in found)
    assert any("skills: [demo, demo-extra]" in line for line in found)
    assert not any(line.strip().startswith("2: /demo-extra go") for line in found)


def test_workspace_symbols_by_subsequence(session):
    shown = "\n".join(session["symbols"])
    assert "demo-extra" in shown and ".agents/skills/demo/SKILL.md" in shown and "other" in shown


def test_rename_is_refused_with_the_command_and_nothing_changes(session):
    assert "cannot rename a folder through a language server" in session["rename_error"]
    assert "albedo-skills rename demo NEW` in a terminal instead" in session["rename_error"]
    assert session["chat_after"] == world.CHAT
    assert session["after"] == session["before"]
