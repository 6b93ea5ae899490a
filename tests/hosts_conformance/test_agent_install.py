"""How the conformance step installs an agent from npm: the arguments npm gets, and what a failure says.

A stand-in `npm` records each call, answers `config get globalconfig` like a machine whose global npmrc holds
its proxy's CA, and fails every install the way npm fails behind a TLS-inspecting proxy it does not trust.
"""

from __future__ import annotations

import os
import stat
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))

from hosts_conformance import agents  # noqa: E402

MACHINE_NPMRC = "/etc/machine-npmrc"
REFUSED = ("request to https://registry.npmjs.org/@openai%2fcodex failed, "
           "reason: self-signed certificate in certificate chain")
NPM = f"""#!/bin/sh
printf "%s\\n" "$*" >> "$CALLS"
case "$1" in
  config) echo {MACHINE_NPMRC} ;;
  install) echo "npm error {REFUSED}" >&2
           echo "npm error A complete log of this run can be found in: x.log" >&2
           exit 1 ;;
esac
"""


def test_an_install_reads_the_machines_npmrc_and_a_failure_says_why(tmp_path, monkeypatch):
    tools, cache, calls = tmp_path / "tools", tmp_path / "cache", tmp_path / "calls"
    tools.mkdir()
    (tools / "npm").write_text(NPM, encoding="utf-8")
    (tools / "npm").chmod(stat.S_IRWXU)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("CALLS", str(calls))
    monkeypatch.setenv("ALBEDO_AGENTS_CACHE", str(cache))
    agent = agents.Agent("codex", "@openai/codex", "0.171.0", "codex")

    installed = agents.ensure(agent)

    assert not installed.ok
    assert installed.note == f"npm install @openai/codex@0.171.0 failed: {REFUSED}"
    assert [call for call in calls.read_text(encoding="utf-8").splitlines() if call.startswith("install")] == [
        f"install --prefix {cache}/agents-codex-0.171.0.part --globalconfig={MACHINE_NPMRC} --no-audit --no-fund "
        "--loglevel=error @openai/codex@0.171.0"
    ]
    assert not (cache / "agents-codex-0.171.0.part").exists()  # nothing half-installed is left
