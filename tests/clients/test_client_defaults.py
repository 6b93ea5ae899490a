"""The Emacs package's generated names do in the real Emacs 28 what the server's declarations say.

`python -m albedo_skills_ls.generate` writes the names the editors need before any server runs from the one
declaration in Python (the Neovim plugin's lua/albedo_skills/declared.lua, the marked section of
albedo-skills.el; tests/unit/test_generated.py holds them to it). Emacs is the one editor where a name is
translated, not copied: the chat file patterns (fnmatch globs) become an Emacs regexp. Here Emacs itself
matches file names with it, against what the server's patterns call chats, and registers the modes with
eglot under the language ids the server expects.
"""

from __future__ import annotations

import fnmatch
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from albedo_skills_ls.lsp.settings import SETTINGS, default_of
from albedo_skills_ls.skills.catalog.candidates import WORKSPACE_ROOTS
from albedo_skills_ls.skills.document.skill_file import SKILL_FILE

REPO = Path(__file__).resolve().parents[2]
ELPA = Path("/usr/share/emacs/site-lisp/elpa")
HANG_GUARD_SECONDS = 60  # one editor loading one file: a hang guard, not a speed requirement
REPOSITORY_MARKER = ".git"  # a repository's top folder is a workspace too (docs/editors.md)

# what a workspace is to an editor: the first folder of each workspace root, or a repository's top
EDITOR_ROOT_MARKERS = sorted({relative.split("/")[0] for relative, _scope in WORKSPACE_ROOTS} | {REPOSITORY_MARKER})
# file names a chat-file rule is tried on: the default pattern's matches and near misses
CHAT_NAMES = ["talk.chat.md", "a.b.chat.md", ".chat.md", "chat.md", "talk.chat.md.bak", "talk.chat", "notes.md"]

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


def test_emacs_opens_and_registers_the_buffers_the_server_expects():
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
