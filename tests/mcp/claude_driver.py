"""Run inside a loopback-only network namespace, in a tmux pane, by test_agents.py: adds `albedo-skills mcp` to
Claude Code with `claude mcp add` as docs/mcp.md says, starts a fake Anthropic API on 127.0.0.1 that answers
every turn with one word, then runs Claude Code interactively on this terminal for the test to type at.
Each request the fake model receives is written to REQUESTS (JSON, replaced whole as requests arrive).

    python claude_driver.py CLAUDE HOME WORKSPACE REQUESTS SERVER_COMMAND...
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))

from hosts_conformance import sandbox  # noqa: E402
from hosts_conformance.fake_model import FakeAnthropic  # noqa: E402
from hosts_conformance.run_claude import NOT_A_KEY  # noqa: E402

REQUESTS_POLL_SECONDS = 0.1  # how often the recorded requests are copied out for the test to read


def write_requests(path: str, requests: list[dict]) -> None:
    partial = path + ".part"
    with open(partial, "w", encoding="utf-8") as out:
        json.dump(requests, out)
    os.replace(partial, path)  # the test never reads half a file


def main(claude: str, home: str, workspace: str, requests_path: str, *server: str) -> int:
    sandbox.bring_loopback_up()
    assert sandbox.network_is_isolated()
    with FakeAnthropic() as fake:
        env = sandbox.agent_env(home, {
            "ANTHROPIC_API_KEY": NOT_A_KEY, "ANTHROPIC_BASE_URL": fake.url, "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1",
            "TERM": "xterm-256color"})  # a terminal it draws its interactive screen on, unlike the runs' `dumb`
        env.pop("CI", None)  # a CI run is one Claude Code may treat as non-interactive
        added = subprocess.run([claude, "mcp", "add", "albedo", "-e", f"PYTHONPATH={os.pathsep.join(sys.path)}", "--",
                                *server], cwd=workspace, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                               timeout=sandbox.AGENT_TIMEOUT_SECONDS)
        print(added.stdout, added.stderr, flush=True)
        if added.returncode != 0:
            time.sleep(sandbox.AGENT_TIMEOUT_SECONDS)  # keep the screen for the test's report
            return 1
        agent = subprocess.Popen([claude], cwd=workspace, env=env)  # on this terminal: the test types at it
        seen = -1
        while agent.poll() is None:
            if len(fake.requests) != seen:
                seen = len(fake.requests)
                write_requests(requests_path, list(fake.requests))
            time.sleep(REQUESTS_POLL_SECONDS)
        write_requests(requests_path, list(fake.requests))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:]))
