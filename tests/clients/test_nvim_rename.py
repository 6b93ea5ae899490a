"""Real editors: Neovim 0.11.4 and 0.7.2 in a terminal (tmux), typed at, on the rename workspace of
tests/rename_world.py (skill `demo` named in skills, agent files, an agent's `skills:` lists, a chat file,
linked from another skill and mirrored by a link into `.claude/skills`).

0.11: `grn` on the `name:` value (and, in a second session, on `/demo` in a sentence of the chat file) renames
the skill;
`:wa` writes the edited buffers; the person runs the command the server's message names
(`albedo-skills rename demo showcase`) to finish the mirror link; the files on disk are then exactly the
renamed workspace. `grr` on `/demo` lists every mention, `vim.lsp.buf.workspace_symbol()` finds skills by a
subsequence. 0.7: renaming a folder fails in its `vim.lsp.util.rename`, so the server refuses with the
command to run, and the screen says so; references and workspace symbols work as on 0.11.
Every wait is on what the screen shows (tests/clients/tmux_screen.py).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rename_world as world
from tmux_screen import Screen

REPO = Path(__file__).resolve().parents[2]
NVIM = {"0.11": str(Path(sys.executable).parent / "nvim"), "0.7": shutil.which("nvim", path="/usr/bin:/bin") or ""}

# The person's init.lua: the plugin on 'runtimepath' with its documented setup (mappings on), and a status
# line that shows the file and whether the server announced its catalog.
INIT = """\
vim.opt.rtp:prepend({repo})
vim.o.laststatus = 2
vim.o.statusline = "%f %{{get(g:, 'albedo_state', 'starting')}}"
require("albedo_skills").setup({{
  cmd = {cmd},
  settings = {{ albedoSkills = {{ home = {home} }} }},
  mappings = true,
  on_catalog_changed = function()
    vim.g.albedo_state = "ready"
    vim.schedule(function() vim.cmd("redrawstatus") end)
  end,
}})
"""


def start(tmp_path: Path, version: str, opened: str) -> tuple[Screen, Path, Path]:
    if not NVIM[version]:
        pytest.fail("Neovim 0.7 is not installed: `apt-get install neovim` (scripts/test.sh installs it)")
    workspace, home = world.build(tmp_path)
    config = tmp_path / "xdg/config/nvim"
    config.mkdir(parents=True)
    cmd = [sys.executable, "-m", "albedo_skills_ls"]
    (config / "init.lua").write_text(
        INIT.format(repo=json.dumps(str(REPO)), cmd=json.dumps(cmd).replace("[", "{").replace("]", "}"),
                    home=json.dumps(str(home))),
        encoding="utf-8",
    )
    env = {"HOME": str(home), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "TERM": "xterm-256color",
           "LANG": "C.UTF-8", "PYTHONPATH": str(REPO)}
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        (tmp_path / "xdg" / name.lower()).mkdir(parents=True, exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(tmp_path / "xdg" / name.lower())
    nvim = Screen(tmp_path, [NVIM[version], opened], env=env, cwd=workspace)
    nvim.wait_for(r"\bready\s*$", "the server's first catalog (the status line)")
    return nvim, workspace, home


def ex(nvim: Screen, command: str) -> None:
    nvim.type(f":{command}")
    nvim.keys("Enter")


def rename_by_keys(nvim: Screen, workspace: Path, line: int, column: int, edited: str) -> str:
    """`grn` at (line, column), the new name typed over the proposed one; the screen's message. Returns once
    the folder moved and the buffer shows `edited`."""
    ex(nvim, f"call cursor({line}, {column})")
    nvim.keys("g", "r", "n")
    nvim.wait_for(r"New Name.*demo", "the rename prompt with the skill's name")
    nvim.keys("C-u")
    nvim.type("showcase")
    nvim.keys("Enter")
    screen = nvim.wait_for(r"mirror link\(s\).*still point at the old folder", "the server's message about the link")
    # the message and the lines Neovim writes while renaming stop at hit-enter prompts: Enter past each
    for _ in range(5):
        shown = nvim.wait_for(lambda now: "Press ENTER" in now or ((workspace / ".agents/skills/showcase").exists()
                                                                   and edited in now),
                              f"a prompt, or the folder renamed and the buffer showing {edited!r}")
        if "Press ENTER" not in shown:
            break
        nvim.keys("Enter")
    return screen


def finish_and_compare(nvim: Screen, workspace: Path, home: Path, before: dict[str, str]) -> None:
    ex(nvim, "wa")
    nvim.wait_for(lambda screen: "[+]" not in screen and not re.search(r"E\d+:", screen), ":wa to write every buffer")
    ex(nvim, "qa")
    done = subprocess.run([sys.executable, "-m", "albedo_skills_ls.cli", "rename", "demo", "showcase"], cwd=workspace,
                          env={"HOME": str(home), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert world.snapshot(workspace) == world.expected_after(before)


def test_nvim_011_renames_from_the_name_field(tmp_path: Path) -> None:
    nvim, workspace, home = start(tmp_path, "0.11", ".agents/skills/demo/SKILL.md")
    try:
        before = world.snapshot(workspace)
        # the lens and the hint, as the person sees them beside the lines
        # the uses a rename edits, the mirror link and the user root's mention
        shown = nvim.wait_for(rf"(?m)^name: demo\s+used in {len(world.EDITED) + 1} places", "the code lens on name:")
        assert re.search(r"^description: Shows a demo of the data\.\s+25 / 1,024", shown, re.M)
        screen = rename_by_keys(nvim, workspace, 2, 8, "name: showcase")
        assert "albedo-skills rename demo showcase" in screen.replace("\n", "")
        # the buffer followed its file: the status line names the new path, the line reads the new name
        nvim.wait_for(
            lambda now: re.search(r"^name: showcase\b", now, re.M) and re.search(r"/\.agents/skills/showcase/SKILL\.md ready", now),
            "the buffer renamed with its folder, its name: line edited",
        )
        finish_and_compare(nvim, workspace, home, before)
    finally:
        nvim.close()


def test_nvim_011_renames_from_a_command_in_the_chat_file(tmp_path: Path) -> None:
    nvim, workspace, home = start(tmp_path, "0.11", "notes.chat.md")
    try:
        before = world.snapshot(workspace)
        # on `/demo` in the middle of a sentence: "if the merge fails, run /demo again."
        rename_by_keys(nvim, workspace, 5, 27, "run /showcase again.")
        shown = nvim.wait_for(r"^/showcase go", "the chat buffer's commands renamed")
        assert "/demo-extra go" in shown and "/skill:showcase x" in shown and "please demo it" in shown
        finish_and_compare(nvim, workspace, home, before)
    finally:
        nvim.close()


@pytest.mark.parametrize("version", ["0.11", "0.7"])
def test_references_and_workspace_symbols(tmp_path: Path, version: str) -> None:
    nvim, workspace, _home = start(tmp_path, version, "notes.chat.md")
    try:
        ex(nvim, "call cursor(1, 3)")
        nvim.keys("g", "r", "r")
        nvim.wait_for(r"\[Quickfix List\] References", "the quickfix list of references")
        ex(nvim, "copen 30")  # tall enough for every reference
        shown = nvim.wait_for(r"(?m)^\.claude/agents/helper\.md\|4 col 10(-14)?\| skills: \[demo, demo-extra\]",
                              "the agent's skills: list among the references")
        # the mentions in sentences, each where it stands
        sentence = r"(?m)^\.agents/skills/other/SKILL\.md\|11 col {}(-\d+)?\| Before anything else, run /demo first\."
        assert all(re.search(sentence.format(column), shown) for column in (28, 66, 81, 90, 99, 108)), shown
        assert re.search(r"(?m)^AGENTS\.md\|5 col 18(-22)?\| Use the skills: /demo merges files", shown), shown
        assert re.search(r"(?m)^notes\.chat\.md\|5 col 26(-30)?\| if the merge fails, run /demo again\.", shown), shown
        ex(nvim, 'lua print("references: " .. #vim.fn.getqflist())')
        # Neovim asks with the declaration: the mentions edited by a rename, the mirror link, the user root's
        nvim.wait_for(rf"references: {len(world.EDITED) + 2}\b", "the count of references")
        ex(nvim, "cclose")
        ex(nvim, 'lua vim.lsp.buf.workspace_symbol("dmo")')
        shown = nvim.wait_for(r"demo-extra/SKILL\.md\|2 col 7(-15)?\| \[Module\] demo-extra", "the skills found by `dmo`")
        assert re.search(r"^\.agents/skills/demo/SKILL\.md\|2 col 7(-11)?\| \[Module\] demo$", shown, re.M)
        ex(nvim, 'lua print("symbols: " .. #vim.fn.getqflist())')
        nvim.wait_for(r"symbols: 3\b", "demo, demo-extra and `other` (by its description)")
    finally:
        nvim.close()


def test_nvim_07_is_refused_a_rename_it_would_half_apply(tmp_path: Path) -> None:
    nvim, workspace, _home = start(tmp_path, "0.7", ".agents/skills/demo/SKILL.md")
    try:
        before = world.snapshot(workspace)
        ex(nvim, "call cursor(2, 8)")
        nvim.keys("g", "r", "n")  # 0.7 asks for the name first (it does not prepare), then is refused
        nvim.wait_for(r"New Name: demo", "the rename prompt")
        nvim.keys("C-u")
        nvim.type("showcase")
        nvim.keys("Enter")
        shown = nvim.wait_for(r"cannot rename a folder through a language server", "the refusal")
        assert "albedo-skills rename demo NEW` in a terminal instead" in shown.replace("\n", "")
        assert world.snapshot(workspace) == before
    finally:
        nvim.close()
