"""The environment an agent runs in during the conformance step: what it inherits and where it writes."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))

from hosts_conformance import sandbox  # noqa: E402


def test_an_agent_gets_a_temporary_folder_of_the_run_never_the_shared_one(tmp_path, monkeypatch):
    # In the namespace an ordinary user is uid 0, and the shared /tmp may hold root's /tmp/claude-0.
    monkeypatch.setenv("TMPDIR", "/tmp")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-for-agents")
    home = tmp_path / "tree" / "home"
    env = sandbox.agent_env(str(home), {"RUST_LOG": "error"})
    assert env["TMPDIR"] == str(tmp_path / "tree" / "tmp") and os.path.isdir(env["TMPDIR"])
    assert env["HOME"] == str(home) and env["RUST_LOG"] == "error"
    assert "OPENAI_API_KEY" not in env
