"""The project's verdict on a tree, from the real command line: `albedo-skills hosts --format json`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from .tree import Tree

NOT_DETERMINISTIC = "not deterministic"  # what a verdict's reason says when the agent's choice varies


def project_verdict(tree: Tree, hosts: list[str]) -> dict[str, dict]:
    """{host: {"version", "evidence", "skills": {inventory path: {loads, name, reason, ...}}}}."""
    command = [sys.executable, "-m", "albedo_skills_ls.cli", "hosts", tree.project, "--home", tree.home,
               "--format", "json"]
    for host in hosts:
        command += ["--host", host]
    done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise RuntimeError(f"`albedo-skills hosts` exited with {done.returncode}: {done.stderr.strip()[-800:]}")
    answer = json.loads(done.stdout)["hosts"]
    return {host: dict(found, skills={tree.rel(path): verdict for path, verdict in found["skills"].items()})
            for host, found in answer.items()}


def says_not_deterministic(verdict: dict) -> bool:
    return NOT_DETERMINISTIC in (verdict.get("reason") or "").lower()
