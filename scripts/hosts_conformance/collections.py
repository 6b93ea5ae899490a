"""The live agents over public skill collections, copied into a temporary tree at run time (never committed).

Each collection is a git directory (e.g. `/work/.mirror/anthropics+skills/repo`); its newest commit is
exported and laid out two ways, as people install skills:

- installed: every folder holding a `SKILL.md` becomes an immediate child of a skills root (the first
  collection to use a folder name keeps it);
- cloned: each collection's whole tree sits in the root under the collection's name, as `git clone` into a
  skills root leaves it (so depth and skills inside skills count).

Each layout is written once with `.agents/skills` as the root (for Codex, Gemini CLI, OpenCode, Copilot CLI)
and once with `.claude/skills` (for Claude Code, OpenCode, Copilot CLI), so no name is in two roots.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time

from . import agents, compare, recorded, sandbox
from .tree import Tree

ROOT_AGENTS = {".agents/skills": ("codex", "gemini-cli", "opencode", "copilot-cli"),
               ".claude/skills": ("claude-code", "opencode", "copilot-cli")}


def _label(git_dir: str) -> str:
    """`/work/.mirror/anthropics+skills/repo/.git` -> `anthropics+skills`."""
    parts = [part for part in os.path.abspath(git_dir).split(os.sep) if part not in ("repo", ".git", "")]
    return parts[-1]


def _export(git_dir: str, dest: str) -> str:
    os.makedirs(dest)
    archive = subprocess.run(["git", "--git-dir", git_dir, "archive", "--format=tar", "HEAD"], capture_output=True,
                             check=True)
    subprocess.run(["tar", "-x", "-C", dest], input=archive.stdout, check=True)
    return subprocess.run(["git", "--git-dir", git_dir, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()


def _skill_folders(top: str) -> list[str]:
    found = []
    for folder, subfolders, files in os.walk(top):
        subfolders[:] = sorted(name for name in subfolders if name != ".git")
        if "SKILL.md" in files and folder != top:
            found.append(folder)
    return found


def _layout(exported: dict[str, str], base: str, root: str, how: str) -> list[str]:
    """Write one tree; returns the folders left out (a name another collection already used)."""
    skills = os.path.join(base, "project", root)
    os.makedirs(skills)
    os.makedirs(os.path.join(base, "home"))
    left_out = []
    for label, top in exported.items():
        if how == "cloned":
            shutil.copytree(top, os.path.join(skills, label), symlinks=True)
            continue
        for folder in _skill_folders(top):
            target = os.path.join(skills, os.path.basename(folder))
            if os.path.exists(target):
                left_out.append(f"{label}:{os.path.relpath(folder, top)}")
                continue
            shutil.copytree(folder, target, symlinks=True)
    subprocess.run(["git", "init", "-q", os.path.join(base, "project")], check=True)
    return left_out


def run_collections(git_dirs: list[str], ids: list[str], runs: int | None) -> int:
    from .verdict import project_verdict

    prefix = sandbox.isolation_command()
    if prefix is None:
        print("cannot make a loopback-only network namespace: the agents are not run")
        return 1
    ready = [agent_id for agent_id in ids if agents.is_cached(agents.BY_ID[agent_id])]
    saved = recorded.load()
    disagreed = False
    with tempfile.TemporaryDirectory(prefix="conformance-collections-") as folder:
        exported = {}
        for git_dir in git_dirs:
            label = _label(git_dir)
            commit = _export(git_dir, os.path.join(folder, "export", label))
            exported[label] = os.path.join(folder, "export", label)
            print(f"{label} at {commit}: {len(_skill_folders(exported[label]))} skill folders")
        for how in ("installed", "cloned"):
            for root, hosts in ROOT_AGENTS.items():
                hosts = [host for host in hosts if host in ready]
                if not hosts:
                    continue
                base = os.path.join(folder, f"{how}-{root.split('/')[0].strip('.')}")
                left_out = _layout(exported, base, root, how)
                tree = Tree(base)
                project = project_verdict(tree, hosts)
                started = time.monotonic()
                observed = sandbox.observe_isolated(tree, hosts, prefix, base + ".json", runs)
                print(f"\n## {how}, in project/{root} ({len(tree.inventory())} files named SKILL.md in any case; "
                      f"agents ran in {time.monotonic() - started:.1f} s)")
                if left_out:
                    print(f"left out (folder name already used): {', '.join(left_out)}")
                results = compare.compare_all(observed, project, saved, same_tree=False)
                loaded = {host: sum(_loads(seen) for seen in found["skills"].values())
                          for host, found in observed["agents"].items()}
                print(compare.report(results))
                print("files each agent loaded: " + ", ".join(f"{host} {count}" for host, count in loaded.items()))
                _print_splits(observed, project)
                disagreed = disagreed or any(result.disagreements for result in results)
    return 1 if disagreed else 0


def _loads(seen: dict) -> bool:
    return any(outcome["loads"] for outcome in seen["outcomes"]) if "outcomes" in seen else seen["loads"]


def _print_splits(observed: dict, project: dict) -> None:
    """The files some of the agents load and others do not, with the project's reason for each refusal."""
    hosts = list(observed["agents"])
    for path in sorted(next(iter(observed["agents"].values()))["skills"]):
        said = {host: _loads(observed["agents"][host]["skills"][path]) for host in hosts}
        if len(set(said.values())) < 2:
            continue
        refusals = "; ".join(f"{host}: {project[host]['skills'][path]['reason']}" for host in hosts
                             if not said[host] and path in project[host]["skills"])
        print(f"  split: {path}: " + ", ".join(f"{host} {'loads' if said[host] else 'no'}" for host in hosts)
              + f" ({refusals})")
