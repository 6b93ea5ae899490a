"""A real editor: Emacs 28 in a terminal (tmux) with Debian's lsp-mode 8.0, set up exactly as docs/editors.md
says ("Emacs with lsp-mode"), and typed at.

Emacs starts as a user's does (`emacs -nw`, no -Q): Debian's site-start activates the installed ELPA packages
(lsp-mode, company, markdown-mode, and eglot, which the setup must keep out of the way) and init.el is the
documented snippet, read from the docs with the clone's path put in. The server is `albedo-skills-ls` on
PATH, as after `pipx install`. One session: the first SKILL.md (its name not its folder's) asks for the
project root, flymake's list shows the diagnostic, company's menu completes a `/command` in a chat file, and
`M-x lsp-execute-code-action` fixes a misspelt key (each buffer saved with C-x C-s and read from disk), and
`M-x albedo-skills-reload` finds a skill added on disk.
Every wait is on what the screen shows (tests/clients/tmux_screen.py). Emacs, lsp-mode, company and tmux
are required (scripts/test.sh installs them); these tests never skip.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from tmux_screen import Screen, Session
from typed_workspace import CHAT_TEXT, broken_workspace, documented_snippet, write_skill

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs/editors.md"
DOCUMENTED_CLONE = "~/src/albedo-skills-ls"  # the path the snippet names, replaced by this clone's
VENV_BIN = Path(sys.executable).parent
# What a user might add to see each discovery: the hook documented in docs/editors.md
CATALOG_HOOK = (
    "(add-hook 'albedo-skills-catalog-changed-functions (lambda (params) (message \"catalog after %s: %s skills\""
    " (plist-get params :reason) (plist-get params :skills))))"
)


def documented_init() -> str:
    """The init.el of docs/editors.md's "Emacs with lsp-mode" section, pointing at this clone."""
    snippet = documented_snippet(DOCS, "### Emacs with lsp-mode", "elisp")
    assert DOCUMENTED_CLONE in snippet, snippet
    return snippet.replace(DOCUMENTED_CLONE, str(REPO))


def mode_line(screen: str, buffer: str) -> str:
    """The mode line of the window showing `buffer` (Emacs draws `-UU-:...  NAME ...`, NAME<folder> when two
    buffers visit files of the same name)."""
    name = re.compile(rf" {re.escape(buffer)}(<[^>]*>)? ")
    lines = [line for line in screen.splitlines() if re.match(r"^-[-U]{3}:", line) and name.search(line)]
    return lines[-1] if lines else ""


def visit(emacs: Screen, path: Path) -> None:
    """C-x C-f PATH RET, the default folder in the prompt cleared first."""
    emacs.keys("C-x", "C-f")
    emacs.wait_for(r"Find file: ", "the Find file prompt")
    emacs.keys("C-a", "C-k")
    emacs.type(str(path))
    emacs.keys("Enter")


def command(emacs: Screen, name: str) -> None:
    emacs.keys("M-x")
    emacs.wait_for(r"(?m)^M-x( |$)", "the M-x prompt")  # a message may show after it: `M-x  [...]`
    emacs.type(name)
    emacs.keys("Enter")


def save(emacs: Screen, path: Path) -> str:
    """C-x C-s, once Emacs says it wrote the file: the text on disk."""
    emacs.keys("C-x", "C-s")
    emacs.wait_for(rf"Wrote {re.escape(str(path))}", f"Emacs to write {path}")
    return path.read_text(encoding="utf-8")


def play(emacs: Screen, ws: Path, files: dict[str, Path], session: Session) -> None:
    seen = session.seen
    bad, fixme, chat = files["bad"], files["fixme"], files["chat"]

    # 1. the first skill file: lsp-mode asks for the project root and suggests the package's (no .git here)
    prompt = emacs.wait_for(r"i==>Import project root (\S+)\.", "lsp-mode's project root prompt")
    seen["suggested_root"] = re.search(r"i==>Import project root (\S+)\.", prompt).group(1)
    emacs.keys("i")
    shown = emacs.wait_for(lambda s: re.search(r"Flymake\[[1-9]", mode_line(s, "SKILL.md")), "flymake's error count")
    seen["bad_mode_line"] = mode_line(shown, "SKILL.md")

    # 2. the diagnostics as flymake lists them
    command(emacs, "flymake-show-buffer-diagnostics")
    listing = emacs.wait_for(r"differs from its folder", "the name mismatch in flymake's list")
    seen["bad_listing"] = [line.split("|")[-1].strip() for line in listing.splitlines() if "differs" in line]
    emacs.keys("C-x", "1")  # back to the skill file alone

    # 3. a chat file: `/` opens company's menu, typing narrows it, RET takes the command
    visit(emacs, chat)
    emacs.wait_for(lambda s: "LSP[albedo-skills" in mode_line(s, chat.name), "lsp-mode in the chat buffer")
    emacs.keys("M->")
    emacs.type("/")
    seen["menu_all"] = emacs.wait_for(r"/good\s+workspace skill", "company's menu after /")
    emacs.type("goo")
    seen["menu_narrowed"] = emacs.wait_for(
        lambda s: re.search(r"(?m)^/goo\s*$", s) and "/good " in s and "/help" not in s, "the menu narrowed to /good"
    )
    emacs.keys("Enter")
    emacs.wait_for(r"(?m)^/good\s*$", "the accepted command in the buffer")
    seen["chat_after"] = save(emacs, chat)

    # 4. a quick fix on the misspelt key, from M-x lsp-execute-code-action
    visit(emacs, fixme)
    emacs.wait_for(lambda s: re.search(r"Flymake\[[1-9]", mode_line(s, "SKILL.md")), "the fixme file's diagnostics")
    emacs.keys("M-<", "C-s")
    emacs.type("desciption")
    emacs.keys("Enter")
    command(emacs, "lsp-execute-code-action")
    screen = emacs.wait_for(r"(?m)^description: Fixes things\.|Select code action", "a quick fix or its menu")
    if "Select code action" in screen:  # several fixes: take the one for the misspelt key
        seen["fix_menu"] = screen
        emacs.keys("Enter")
        emacs.wait_for(r"(?m)^description: Fixes things\.", "the fixed key in the buffer")
    seen["fixme_after"] = save(emacs, fixme)

    # 5. a skill added outside Emacs, then M-x albedo-skills-reload: the catalog hook (a plist, as under
    # eglot) reports the reload and the new count
    write_skill(ws / ".agents/skills", "later", "name: later\ndescription: Came later.")
    emacs.keys("M-:")
    emacs.wait_for(r"(?m)^Eval:", "the Eval prompt")
    emacs.type(CATALOG_HOOK)
    emacs.keys("Enter")
    command(emacs, "albedo-skills-reload")
    emacs.keys("C-h", "e")  # *Messages*: the echo area alone may be redrawn by eldoc before it is read
    said = r"albedo-skills: \d+ skills after the reload"
    shown = emacs.wait_for(said, "the command's answer in *Messages*")
    seen["reload_said"] = re.search(said, shown).group(0)
    hooked = r"catalog after reload: \d+ skills"  # from this reload, or from lsp-mode's file watching before it
    shown = emacs.wait_for(hooked, "the catalog hook's message in *Messages*")
    seen["hook_said"] = re.search(hooked, shown).group(0)


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> Session:
    emacs_binary = shutil.which("emacs")
    if not emacs_binary:
        pytest.fail("emacs is not installed: `apt-get install emacs-nox elpa-lsp-mode` (scripts/test.sh does)")
    base = tmp_path_factory.mktemp("lsp-mode")
    ws, home = base / "ws", base / "home"
    files = broken_workspace(ws)
    init = home / ".emacs.d/init.el"
    init.parent.mkdir(parents=True)
    init.write_text(documented_init(), encoding="utf-8")
    # Not the user's setup: Emacs 28 would compile every package natively in the background, in this
    # fresh home each run, on a 2-core machine; the byte-compiled packages behave the same.
    (home / ".emacs.d/early-init.el").write_text("(setq native-comp-deferred-compilation nil)\n", encoding="utf-8")

    env = {"HOME": str(home), "PATH": f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin", "TERM": "xterm-256color"}
    emacs = Screen(base, [emacs_binary, "-nw", str(files["bad"])], env=env, cwd=ws)
    recorded = Session()
    try:
        play(emacs, ws, files, recorded)
    except AssertionError as stopped:
        recorded.stopped = str(stopped)
    finally:
        emacs.close()
    recorded.seen.update(ws=str(ws))
    return recorded


def test_the_root_suggested_is_the_workspace_without_a_git_folder(session):
    assert session["suggested_root"].rstrip("/") == session.seen["ws"]


def test_lsp_mode_alone_manages_the_skill_file(session):
    line = session["bad_mode_line"]
    assert "LSP[albedo-skills:" in line and "Flymake[1 " in line, line
    assert "eglot" not in line.lower(), f"eglot started beside lsp-mode: {line}"


def test_flymake_lists_the_name_mismatch_at_the_name(session):
    (listed,) = session["bad_listing"]
    line, column, kind = listed.split()[:3]
    assert (line, column, kind) == ("2", "6", "error"), listed
    assert "name `wrong` differs from its folder `bad`" in listed, listed


def test_the_command_taken_from_companys_menu_is_in_the_file(session):
    assert "/help" in session["menu_all"], session["menu_all"]  # `/` alone offers every command
    assert session["chat_after"] == CHAT_TEXT + "/good\n"


def test_the_quick_fix_renames_the_misspelt_key(session):
    after = session["fixme_after"]
    assert after.splitlines()[:4] == ["---", "name: fixme", "description: Fixes things.", "---"], after


# good, fixme and the new `later` (2 before it): bad's name error keeps it out of the catalog, as the CLI says
SKILLS_AFTER_RELOAD = 3


def test_reload_under_lsp_mode_answers_with_the_new_count(session):
    assert session["reload_said"] == f"albedo-skills: {SKILLS_AFTER_RELOAD} skills after the reload"


def test_the_catalog_hook_gets_a_plist_under_lsp_mode_as_under_eglot(session):
    assert session["hook_said"] == f"catalog after reload: {SKILLS_AFTER_RELOAD} skills"
