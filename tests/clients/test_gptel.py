"""gptel, the real one at its pinned commit, in Emacs 28 (`emacs -nw`) driven by keystrokes in tmux.

A person's init (tests/clients/gptel_init.el) loads albedo-skills-gptel.el and points a gptel
OpenAI-compatible backend at `FakeModel` on 127.0.0.1. Everything after that is typed: `M-x gptel` (the chat
starts this server for the workspace by itself, through eglot), `/de` and M-TAB to complete, the arguments,
`C-c RET` to send. Two shorter sessions type before the server has started (it waits on a FIFO the test
opens), and with the automatic connection turned off. The tests assert what the screen shows (the chat keeps what was typed, the
one message) and what the model received (the activation block, parsed back). Every wait is on an event:
the shared tmux `Screen` (tmux_screen.py) reads the screen again at each output of the terminal, and the fake
model reports each request; the guards only turn a hang into a failure. Emacs, tmux, eglot, markdown-mode and compat come from Debian (scripts/test.sh);
these tests never skip.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from fake_model import FakeModel
from pinned import plugin_dir
from tmux_screen import Screen

from albedo_skills_ls.skills.activation.commands import ACTIVATION_CLOSE, ACTIVATION_OPEN
from activation_text import parse_activation_input

REPO = Path(__file__).resolve().parents[2]
INIT = Path(__file__).with_name("gptel_init.el")
ELPA = Path("/usr/share/emacs/site-lisp/elpa")
REPLY = "Noted by the fake model."
HANG_GUARD_SECONDS = 120  # for one batch Emacs run


def elpa_package(name: str) -> str:
    found = sorted(ELPA.glob(f"{name}-[0-9]*"))
    if not found:
        pytest.fail(f"{name} is not installed: `apt-get install elpa-{name}` (scripts/test.sh does)")
    return str(found[-1])


def required_program(name: str, package: str) -> str:
    found = shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed: `apt-get install {package}` (scripts/test.sh does)")
    return found


def load_path() -> list[str]:
    return [str(REPO), elpa_package("eglot"), elpa_package("compat"), elpa_package("markdown-mode"),
            str(plugin_dir("gptel"))]


class Terminal(Screen):
    """Emacs in the shared tmux `Screen` (tests/clients/tmux_screen.py), with what this test adds."""

    def command(self, name: str) -> None:
        """M-x NAME RET, as typed."""
        self.keys("M-x")
        self.type(name)
        self.keys("Enter")

    def wait_for_text(self, text: str) -> str:
        return self.wait_for(lambda screen: text in screen, repr(text))

    def program_pid(self) -> int:
        return int(self.run("display-message", "-p", "-t", self.target, "#{pane_pid}"))


def children(parent: int) -> list[tuple[int, str]]:
    """(pid, program file name) of each child process of PARENT."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            command = (entry / "cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        if ppid == parent:
            found.append((int(entry.name), os.path.basename(command)))
    return found


def child_pid(parent: int, program: str) -> int:
    """The one child process of PARENT running PROGRAM (compared by file name: the path may be resolved)."""
    found = [pid for pid, name in children(parent) if name == os.path.basename(program)]
    assert len(found) == 1, f"children of {parent} running {program}: {found}"
    return found[0]


def lines(screen: str) -> list[str]:
    return [line.rstrip() for line in screen.splitlines()]


def last_user_text(request: dict) -> str:
    return [m for m in request["messages"] if m["role"] == "user"][-1]["content"]


def user_texts(request: dict) -> list[str]:
    return [m["content"] for m in request["messages"] if m["role"] == "user"]


def write_skill(ws: Path, name: str, description: str, body: str) -> Path:
    path = ws / f".albedo/skills/{name}/SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}", encoding="utf-8")
    return path


def write_demo(ws: Path, description: str, body: str) -> Path:
    return write_skill(ws, "demo", description, body)


def replied(typed: str):
    """Below the last `### TYPED` the screen shows the reply, then gptel's next empty prompt: the response
    is complete. (The chat scrolls as it grows; the latest turn stays in view.)"""
    def holds(screen: str) -> bool:
        shown = lines(screen)
        turns = [index for index, line in enumerate(shown) if line == f"### {typed}"]
        replies = [index for index, line in enumerate(shown) if REPLY in line and turns and index > turns[-1]]
        return bool(replies) and "###" in shown[replies[0]:]
    return holds


def send_turn(term: Terminal, model: FakeModel, seen: dict, text: str, replies_before: int) -> dict:
    """At the chat's end type TEXT, C-c RET; the request the model received, once the reply is complete.
    The screen then is kept in seen["shown"][TEXT]."""
    term.keys("M->")
    term.type(text)
    term.keys("C-c", "Enter")
    request = model.wait_for(replies_before + 1)[replies_before]
    seen["shown"][text] = term.wait_for(replied(text), f"the reply to {text!r} and the next prompt")
    return request


SERVER = [sys.executable, "-m", "albedo_skills_ls"]


def start_emacs(base: Path, ws: Path, model: FakeModel, cmd: list[str], forms: tuple[str, ...] = ()) -> Terminal:
    """`emacs -nw` in WS with the person's init: HOME is an empty folder, the server command is CMD, FORMS
    are the rest of the init."""
    home = base / "home"
    home.mkdir()
    params = {"load_path": load_path(), "cmd": cmd, "host": model.base_url.removeprefix("http://"),
              "forms": list(forms)}
    (base / "params.json").write_text(json.dumps(params), encoding="utf-8")
    pythonpath = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    term = Terminal(base, [required_program("emacs", "emacs-nox"), "-nw", "-Q", "-l", str(INIT)], cwd=ws,
                    env={"HOME": str(home), "ALBEDO_GPTEL_PARAMS": str(base / "params.json"),
                         "PYTHONPATH": pythonpath, "TERM": "xterm-256color"})
    term.wait_for_text("*scratch*")
    return term


def open_chat(term: Terminal, wait_for: str) -> str:
    """`M-x gptel RET RET`, as typed, until the screen shows WAIT_FOR; then the chat alone on the screen."""
    term.command("gptel")
    term.wait_for_text("Create or choose gptel buffer")
    term.keys("Enter")
    shown = term.wait_for_text(wait_for)
    term.keys("C-x", "1")
    return shown


def messages_screen(term: Terminal) -> str:
    """The *Messages* buffer, alone on the screen, at its end."""
    term.keys("C-x", "b")
    term.type("*Messages*")
    term.keys("Enter", "C-x", "1", "M->")
    return term.wait_for(lambda s: "(Messages)" in s, "*Messages*")


@pytest.fixture(scope="module")
def chat(tmp_path_factory):
    """One gptel session, typed from start to end; what the screen showed and what the model received."""
    base = tmp_path_factory.mktemp("gptel")
    ws = base / "ws"
    skill = write_demo(ws, "Merges files the way the demo says.", "# Demo\n\nMerge the files named.\n")
    seen: dict = {"shown": {}}
    with FakeModel(reply=REPLY) as model:
        # Through a shell that waits on it: the test can stop the server (SIGSTOP) while Emacs's
        # own child, the shell, still runs, as a server that hangs would look to Emacs.
        cmd = ["sh", "-c", '"$@"; exit $?', "sh", *SERVER, "--log-file", str(base / "server.log")]
        term = start_emacs(base, ws, model, cmd)
        try:
            # No connect command: the chat starts the server, and eglot's message says when it is connected
            # (the last message: gptel's own is shown before any output of the server is read).
            seen["connected_screen"] = open_chat(term, "[eglot] Connected!")

            # 1. complete `/de`, type the arguments, send
            term.type("/de")
            term.keys("Escape", "Tab")
            seen["completed"] = term.wait_for(lambda s: "### /demo" in lines(s), "### /demo")
            term.type(" merge these files")
            term.keys("C-c", "Enter")
            seen["first"] = model.wait_for(1)[0]
            seen["first_screen"] = seen["shown"]["/demo merge these files"] = term.wait_for(
                replied("/demo merge these files"), "the first reply and the next prompt")

            # 2. a second turn; 3. an unknown command; 4. a built-in of Albedo's own client
            seen["second"] = send_turn(term, model, seen, "and again", 1)
            seen["unknown"] = send_turn(term, model, seen, "/nosuch thing", 2)
            seen["builtin"] = send_turn(term, model, seen, "/help me", 3)
            # 5. arguments holding the closing delimiter, quotes and a backslash
            seen["delimiter_arguments"] = f'keep {ACTIVATION_CLOSE} and "this" \\ too'
            seen["delimiter"] = send_turn(term, model, seen, "/demo " + seen["delimiter_arguments"], 4)

            # 6. the skill changes on disk (autoReload is off in the init): the send stops, saying why;
            #    after M-x albedo-skills-gptel-reload the same turn is sent with the new instructions,
            #    and a skill added meanwhile is known (the catalog kept between sends was renewed)
            write_demo(ws, "Merges files another way.", "# Demo\n\nMerge them the new way.\n")
            write_skill(ws, "fresh", "Starts afresh.", "# Fresh\n\nStart again.\n")
            term.keys("M->")
            term.type("/demo after the edit")
            term.keys("C-c", "Enter")
            seen["refused_screen"] = term.wait_for_text("was not sent")
            term.command("albedo-skills-gptel-reload")
            term.wait_for_text("skills reloaded")
            term.keys("C-c", "Enter")
            seen["resent"] = model.wait_for(6)[5]
            seen["shown"]["/demo after the edit"] = term.wait_for(replied("/demo after the edit"),
                                                                  "the reply to the resend")
            seen["added"] = send_turn(term, model, seen, "/fresh start", 6)

            # 7. the server does not answer in time (stopped by SIGSTOP): the turn goes as typed after
            #    albedo-skills-gptel-timeout, one message says why; once it runs again, so do activations
            server = child_pid(child_pid(term.program_pid(), "sh"), sys.executable)
            os.kill(server, signal.SIGSTOP)
            try:
                seen["late"] = send_turn(term, model, seen, "/demo paused", 7)
                seen["late_screen"] = term.wait_for_text("did not answer within")
            finally:
                os.kill(server, signal.SIGCONT)
            seen["resumed"] = send_turn(term, model, seen, "/demo resumed", 8)

            # 8. the server stopped: the typed text goes, one message says why
            # eglot-shutdown-all returns once the server is gone, and Emacs reads the next keys only then
            term.command("eglot-shutdown-all")
            seen["offline"] = send_turn(term, model, seen, "/demo offline", 9)
            seen["offline_screen"] = term.wait_for_text("no albedo-skills-ls server runs")
            # a second send without the server: as typed again, and no second message
            seen["offline_again"] = send_turn(term, model, seen, "/demo offline again", 10)
            seen["messages_screen"] = messages_screen(term)
            seen["requests"] = list(model.requests)
        finally:
            seen["server_log"] = (base / "server.log").read_text(errors="replace") if (base / "server.log").exists() else ""
            term.close()
    seen["skill"] = str(skill)
    return seen


def activation(request: dict, index: int = -1) -> dict:
    text = user_texts(request)[index]
    assert text.count(ACTIVATION_OPEN) == 1 and text.count(ACTIVATION_CLOSE) == 1, text
    return parse_activation_input(text)


def test_completion_then_send_keeps_the_typed_text_and_sends_the_activation(chat):
    # the fixture never ran albedo-skills-gptel-connect: opening the chat started the server
    assert "[eglot] Connected!" in chat["connected_screen"]
    assert "### /demo" in lines(chat["completed"])
    assert "### /demo merge these files" in lines(chat["first_screen"])
    assert ACTIVATION_OPEN not in chat["first_screen"]
    (text,) = user_texts(chat["first"])
    assert text.startswith("The user activated the skill `demo` with /demo.")
    payload = activation(chat["first"])
    assert payload == {"name": "demo", "source": chat["skill"], "arguments": "merge these files",
                       "instructions": "# Demo\n\nMerge the files named.\n"}


def test_a_later_turn_still_carries_the_first_activation(chat):
    first, second = user_texts(chat["second"])
    assert activation(chat["second"], 0)["arguments"] == "merge these files"
    assert second == "and again"
    assert [m["role"] for m in chat["second"]["messages"] if m["role"] != "system"] == ["user", "assistant", "user"]


def test_unknown_commands_and_albedo_builtins_go_as_typed(chat):
    assert last_user_text(chat["unknown"]) == "/nosuch thing"
    assert last_user_text(chat["builtin"]) == "/help me"
    assert activation(chat["builtin"], 0)["arguments"] == "merge these files"


def test_arguments_holding_the_closing_delimiter_stay_inside_one_block(chat):
    payload = activation(chat["delimiter"])
    assert payload["arguments"] == chat["delimiter_arguments"]
    every = "\n".join(user_texts(chat["delimiter"]))
    assert every.count(ACTIVATION_OPEN) == 2  # the first turn's and this one's, nothing more


def test_a_skill_changed_on_disk_stops_the_send_until_reloaded(chat):
    assert "/demo was not sent" in chat["refused_screen"]
    assert "albedo-skills-gptel-reload" in chat["refused_screen"]
    # the sixth request is the resend: the refused send never reached the model
    payload = activation(chat["resent"])
    assert payload["arguments"] == "after the edit"
    assert payload["instructions"] == "# Demo\n\nMerge them the new way.\n"


def test_a_skill_added_before_a_reload_is_rewritten_after_it(chat):
    payload = activation(chat["added"])
    assert (payload["name"], payload["arguments"]) == ("fresh", "start")


def test_a_server_that_does_not_answer_in_time_lets_the_turn_go_as_typed_with_one_message(chat):
    assert last_user_text(chat["late"]) == "/demo paused"
    assert user_texts(chat["late"])[0] == "/demo merge these files"  # the whole send as typed, no partial rewrite
    assert not any(ACTIVATION_OPEN in text for text in user_texts(chat["late"]))
    said = [line for line in lines(chat["messages_screen"]) if "did not answer within 2 s" in line]
    assert len(said) == 1, chat["messages_screen"]
    assert "/demo went as typed" in said[0]
    resumed = user_texts(chat["resumed"])
    assert parse_activation_input(resumed[-1])["arguments"] == "resumed"
    assert parse_activation_input(resumed[-2])["arguments"] == "paused"  # history is rewritten again


def test_with_the_server_stopped_the_typed_text_goes_and_one_message_says_why(chat):
    assert user_texts(chat["offline"])[0] == "/demo merge these files"
    assert last_user_text(chat["offline"]) == "/demo offline"
    assert not any(ACTIVATION_OPEN in text for text in user_texts(chat["offline"]))
    assert last_user_text(chat["offline_again"]) == "/demo offline again"
    assert not any(ACTIVATION_OPEN in text for text in user_texts(chat["offline_again"]))
    said = [line for line in lines(chat["messages_screen"]) if "no albedo-skills-ls server runs" in line]
    assert len(said) == 1, chat["messages_screen"]
    assert "went as typed" in said[0]
    assert "times]" not in said[0], said  # *Messages* folds a repeated message into one line, "[2 times]"
    assert len(chat["requests"]) == 11


def test_the_chat_shows_every_turn_as_typed(chat):
    """After each reply the screen shows the turn as it was typed, and never an activation."""
    typed = ["/demo merge these files", "and again", "/nosuch thing", "/help me",
             "/demo " + chat["delimiter_arguments"], "/demo after the edit", "/fresh start", "/demo paused",
             "/demo resumed", "/demo offline", "/demo offline again"]
    assert sorted(chat["shown"]) == sorted(typed)
    for text, screen in chat["shown"].items():
        assert f"### {text}" in lines(screen), screen
        assert ACTIVATION_OPEN not in screen, screen


@pytest.fixture(scope="module")
def starting(tmp_path_factory):
    """A chat typed at before its server has started: the server's command first reads a line from a FIFO,
    which the test writes only once the screen shows that the completion waits."""
    base = tmp_path_factory.mktemp("gptel-starting")
    ws = base / "ws"
    skill = write_demo(ws, "Merges files the way the demo says.", "# Demo\n\nMerge the files named.\n")
    gate = base / "gate"
    os.mkfifo(gate)
    seen: dict = {"skill": str(skill), "shown": {}}
    with FakeModel(reply=REPLY) as model:
        # The wait at its limit: Python may take seconds to start on a loaded machine.
        term = start_emacs(base, ws, model, ["sh", "-c", 'read line < "$0"; exec "$@"', str(gate), *SERVER],
                           forms=("(setq albedo-skills-gptel-timeout albedo-skills-gptel-timeout-limit)",))
        try:
            open_chat(term, "Send your query with C-c RET")
            # 1. a send while the server cannot start: it waits, then the turn goes as typed
            seen["early"] = send_turn(term, model, seen, "/demo early", 0)
            # 2. M-TAB while the server cannot start: the wait is said, then that it is still starting
            term.keys("M->")
            term.type("/de")
            term.keys("Escape", "Tab")
            seen["waiting_screen"] = term.wait_for_text("waiting for albedo-skills-ls to start")
            # the echo area can be redrawn before the window on a busy machine (keys handled in one batch, the
            # window redisplayed at the next idle): wait until the screen shows both the message and the line typed
            seen["still_screen"] = term.wait_for(
                lambda s: "complete again in a moment" in s and "### /de" in lines(s), "the still-starting message under `### /de`")
            # 3. M-TAB again; once the screen says it waits, the server may start: the completion completes
            term.keys("Escape", "Tab")
            term.wait_for(lambda s: "waiting for albedo-skills-ls" in s and "still starting" not in s,
                          "the second wait")
            with open(gate, "w", encoding="utf-8") as opened:
                opened.write("go\n")
            seen["completed"] = term.wait_for(lambda s: "### /demo" in lines(s), "### /demo")
            term.type(" merge these files")
            term.keys("C-c", "Enter")
            seen["request"] = model.wait_for(2)[1]
            seen["sent_screen"] = term.wait_for(replied("/demo merge these files"), "the reply")
            seen["messages_screen"] = messages_screen(term)
        finally:
            term.close()
    return seen


def test_completion_while_the_server_starts_waits_for_it_or_says_it_is_starting(starting):
    project = "ws/"
    (waiting,) = [line for line in lines(starting["waiting_screen"]) if "waiting for albedo-skills-ls" in line]
    assert "(at most 10 s)" in waiting and project in waiting, waiting  # albedo-skills-gptel-timeout-limit
    (still,) = [line for line in lines(starting["still_screen"]) if "is still starting" in line]
    assert still.endswith(": complete again in a moment") and project in still, still
    assert "### /de" in lines(starting["still_screen"])  # nothing completed yet, nothing guessed
    assert "### /demo" in lines(starting["completed"])
    assert "no albedo-skills-ls server" not in starting["messages_screen"]


def test_a_send_while_the_server_starts_goes_as_typed_saying_it_is_starting(starting):
    assert user_texts(starting["early"]) == ["/demo early"]
    said = [line for line in lines(starting["messages_screen"]) if "so /demo went as typed" in line]
    assert len(said) == 1 and "albedo-skills-ls is still starting for" in said[0], starting["messages_screen"]


def test_a_chat_opened_before_its_server_started_sends_the_activation(starting):
    assert "### /demo merge these files" in lines(starting["sent_screen"])
    assert activation(starting["request"], 0)["arguments"] == "early"  # the earlier turn, now rewritten too
    assert activation(starting["request"]) == {
        "name": "demo", "source": starting["skill"], "arguments": "merge these files",
        "instructions": "# Demo\n\nMerge the files named.\n"}


@pytest.fixture(scope="module")
def switched_off(tmp_path_factory):
    """`albedo-skills-gptel-auto-connect' set to nil in the init: the chat starts no server; the command does."""
    base = tmp_path_factory.mktemp("gptel-off")
    ws = base / "ws"
    write_demo(ws, "Merges files the way the demo says.", "# Demo\n\nMerge the files named.\n")
    seen: dict = {"shown": {}}
    with FakeModel(reply=REPLY) as model:
        term = start_emacs(base, ws, model, ["sh", "-c", '"$@"; exit $?', "sh", *SERVER],
                           forms=("(setq albedo-skills-gptel-auto-connect nil)",))
        try:
            open_chat(term, "Send your query with C-c RET")
            seen["offline"] = send_turn(term, model, seen, "/demo by hand", 0)
            seen["children_after_send"] = [name for _pid, name in children(term.program_pid())]
            term.command("albedo-skills-gptel-connect")
            term.wait_for_text("[eglot] Connected!")
            seen["connected"] = send_turn(term, model, seen, "/demo now", 1)
            seen["messages_screen"] = messages_screen(term)
        finally:
            term.close()
    return seen


def test_with_the_automatic_connection_off_a_chat_starts_no_server_until_the_command(switched_off):
    assert last_user_text(switched_off["offline"]) == "/demo by hand"
    assert "sh" not in switched_off["children_after_send"], switched_off["children_after_send"]
    said = [line for line in lines(switched_off["messages_screen"]) if "no albedo-skills-ls server runs" in line]
    assert len(said) == 1 and "/demo went as typed" in said[0], switched_off["messages_screen"]
    assert activation(switched_off["connected"])["arguments"] == "now"


def batch_emacs(*forms: str) -> subprocess.CompletedProcess:
    args = [required_program("emacs", "emacs-nox"), "-Q", "--batch"]
    for directory in load_path():
        args += ["-L", directory]
    for form in forms:
        args += ["--eval", form]
    return subprocess.run(args, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)


def test_the_wait_is_bounded_at_the_limit_and_one_past_it():
    done = batch_emacs(
        "(require 'albedo-skills-gptel)",
        "(dolist (wanted (list albedo-skills-gptel-timeout-limit (1+ albedo-skills-gptel-timeout-limit) 0.5 -1))"
        " (setq albedo-skills-gptel-timeout wanted) (princ (format \"%s \" (albedo-skills-gptel--timeout))))",
        "(princ albedo-skills-gptel-timeout-limit)",
    )
    assert done.returncode == 0, done.stderr
    *seen, limit = done.stdout.split()
    assert seen == [limit, limit, "0.5", "0.001"]


def test_a_chat_outside_a_project_starts_nothing_and_a_server_that_cannot_start_is_said(tmp_path):
    (tmp_path / "ws" / ".agents" / "skills").mkdir(parents=True)
    (tmp_path / "loose").mkdir()
    done = batch_emacs(
        "(progn (require 'albedo-skills-gptel) (require 'gptel) (require 'gptel-openai)"
        " (setq albedo-skills-server-command '(\"no-such-albedo-skills-ls\")))",
        f"(let ((default-directory \"{tmp_path}/loose/\")) (gptel \"*loose*\"))",
        "(princ (format \"loose: %S\\n\" (mapcar #'process-name (process-list))))",
        f"(let ((default-directory \"{tmp_path}/ws/\")) (gptel \"*ws*\"))",
        "(princ (format \"ws: %S\\n\" (with-current-buffer \"*ws*\" (list gptel-mode albedo-skills-gptel-mode))))",
    )
    assert done.returncode == 0, done.stderr
    assert "loose: nil\n" in done.stdout, done.stdout  # no process at all: nothing was started
    assert "ws: (t t)\n" in done.stdout, done.stdout  # the chat works on without its server
    said = [line for line in done.stderr.splitlines() if line.startswith("albedo-skills:")]
    assert said == [f"albedo-skills: could not start albedo-skills-ls for {tmp_path}/ws/: Searching for program: "
                    "No such file or directory, no-such-albedo-skills-ls"], done.stderr


@pytest.mark.parametrize("with_gptel", [True, False], ids=["gptel-installed", "no-gptel"])
def test_the_package_byte_compiles_without_a_warning_and_loads_no_gptel(tmp_path, with_gptel):
    names = ["albedo-skills-gptel-server.el", "albedo-skills-gptel.el"]
    for name in names:
        (tmp_path / name).write_text((REPO / name).read_text(encoding="utf-8"), encoding="utf-8")
    directories = load_path() if with_gptel else [str(REPO), elpa_package("eglot")]
    args = [required_program("emacs", "emacs-nox"), "-Q", "--batch", "-L", str(tmp_path)]
    for directory in directories:
        args += ["-L", directory]
    done = subprocess.run([*args, "--eval", "(setq byte-compile-error-on-warn t)", "-f", "batch-byte-compile",
                           *(str(tmp_path / name) for name in names)],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr
    assert all((tmp_path / name).with_suffix(".elc").exists() for name in names), done.stderr
    assert "Warning" not in done.stderr, done.stderr
    loaded = subprocess.run([*args, "-l", str(tmp_path / "albedo-skills-gptel.elc"), "--eval",
                             "(princ (list (featurep 'gptel) (featurep 'albedo-skills)"
                             " (symbol-file 'albedo-skills-gptel--server)))"],
                            capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert loaded.stdout == f"(nil t {tmp_path / 'albedo-skills-gptel-server.elc'})", loaded.stderr


def test_m_tab_completes_at_a_turns_command_and_keeps_its_own_command_elsewhere():
    """gptel's Markdown chats have M-TAB run ispell's word completion; only at a `/command` is it ours."""
    done = batch_emacs(
        "(progn (require 'albedo-skills-gptel) (require 'gptel) (require 'gptel-openai)"
        " (with-current-buffer (gptel \"*chat*\")"
        "  (insert \"/de\") (princ (format \"%s \" (key-binding (kbd \"C-M-i\"))))"
        "  (insert \" merge\") (princ (format \"%s \" (key-binding (kbd \"C-M-i\"))))"
        "  (insert \"\\n/de\") (princ (format \"%s \" (key-binding (kbd \"C-M-i\"))))"
        "  (princ (list major-mode albedo-skills-gptel-mode))))",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(" ", 3) == ["completion-at-point", "ispell-complete-word", "ispell-complete-word",
                                        "(markdown-mode t)"], done.stdout
