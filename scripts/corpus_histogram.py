#!/usr/bin/env python3
"""A histogram of diagnostic codes over a corpus of real skill collections (a tool, not a test).

    .venv/bin/python scripts/corpus_histogram.py CORPUS [--show CODE ...] [--save FILE] [--compare FILE]

CORPUS is a folder of workspaces (or one workspace): each child folder holding `.albedo/skills` or
`.agents/skills` is checked with `albedo-skills check --format json --no-user-roots`, exactly as a user
would run it there. Lay a fetched collection out so its skills sit where the checker discovers them, for
example `mkdir -p corpus/anthropic/.agents && ln -s /src/anthropic-skills/skills corpus/anthropic/.agents/skills`.
A collection that bundles its skills one level deeper (`plugin/skills/x/SKILL.md`) can be laid out both
ways: its `plugins` folder as the root shows what a user who copies it whole sees.

The checker reports at most 64 diagnostics and examines at most 128 skill folders per run. When a run hits
either bound, its root's skill folders are checked again in batches (hard-linked copies in a temporary
workspace, halved until nothing is dropped), and the paths are mapped back, so the histogram counts every
finding. Collisions between skills of different batches are then not seen; the script says when it split.

The printout: one row per code (severity, count, and how many skills it touches), then per workspace the
number of skills and findings. `--show CODE` adds each finding of that code (`path:line: message`);
`--save` writes the findings as JSON, and `--compare` prints the histogram against a saved one.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Iterable

from albedo_skills_ls.skills.catalog import candidates
from albedo_skills_ls.skills.core import codes

WORKSPACE_ROOTS = tuple(relative for relative, _scope in candidates.WORKSPACE_ROOTS)
LIMIT_CODES = (codes.DIAGNOSTIC_LIMIT.id, codes.CANDIDATE_LIMIT.id)
FIRST_BATCH = 32  # skill folders per batch once a workspace has to be split


def checker_command(spec: str | None) -> list[str]:
    """The command that runs `albedo-skills`: as given, or this interpreter's copy of the package."""
    return spec.split() if spec else [sys.executable, "-m", "albedo_skills_ls.cli"]


def run_check(command: list[str], workspace: str) -> dict[str, Any]:
    """One `check --format json` run over `workspace` (user roots left out)."""
    done = subprocess.run(
        [*command, "check", "--format", "json", "--no-user-roots", workspace],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"check failed on {workspace} (exit {done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout)


def workspaces_of(corpus: str) -> list[str]:
    """`corpus` itself when it is a workspace, else its child folders that are."""

    def is_workspace(folder: str) -> bool:
        return any(os.path.isdir(os.path.join(folder, root)) for root in WORKSPACE_ROOTS)

    if is_workspace(corpus):
        return [corpus]
    return [
        os.path.join(corpus, name)
        for name in sorted(os.listdir(corpus))
        if os.path.isdir(os.path.join(corpus, name)) and is_workspace(os.path.join(corpus, name))
    ]


def skill_folders(workspace: str) -> list[tuple[str, str]]:
    """(root, candidate folder name) for every skill folder the checker would consider, in its order."""
    found = []
    for root in WORKSPACE_ROOTS:
        path = os.path.join(workspace, root)
        if os.path.isdir(path):
            found += [(root, name) for name in sorted(os.listdir(path)) if not name.startswith(".")]
    return found


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def check_in_batches(command: list[str], workspace: str, folders: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Check `folders` of `workspace` in batches small enough that no bound drops a finding."""
    findings: list[dict[str, Any]] = []
    pending = [folders[i : i + FIRST_BATCH] for i in range(0, len(folders), FIRST_BATCH)]
    while pending:
        batch = pending.pop(0)
        with tempfile.TemporaryDirectory(prefix="corpus-batch-") as scratch:
            for root, name in batch:
                source = os.path.join(workspace, root, name)
                target = os.path.join(scratch, root, name)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                if os.path.isdir(source):
                    shutil.copytree(source, target, symlinks=True, copy_function=_link_or_copy)
                elif os.path.lexists(source):
                    shutil.copy2(source, target, follow_symlinks=False)
            result = run_check(command, scratch)
            if result.get("diagnostics_dropped") and len(batch) > 1:
                half = len(batch) // 2
                pending[:0] = [batch[:half], batch[half:]]
                continue
            for diagnostic in result["diagnostics"]:
                if diagnostic["code"] in LIMIT_CODES:
                    continue
                diagnostic["path"] = diagnostic["path"].replace(scratch, workspace, 1)
                findings.append(diagnostic)
            if result.get("diagnostics_dropped"):
                findings.append(
                    {"path": os.path.join(workspace, batch[0][0], batch[0][1]), "code": "(dropped)",
                     "severity": "?", "message": f"{result['diagnostics_dropped']} dropped in one skill",
                     "range": {"start": {"line": 0, "character": 0}}}
                )
    return findings


def check_workspace(command: list[str], workspace: str) -> tuple[list[dict[str, Any]], int, bool]:
    """(findings, skill folders, whether it was split) for one workspace."""
    folders = skill_folders(workspace)
    result = run_check(command, workspace)
    hit_bound = bool(result.get("diagnostics_dropped")) or any(
        d["code"] in LIMIT_CODES for d in result["diagnostics"]
    )
    if not hit_bound:
        return result["diagnostics"], len(folders), False
    return check_in_batches(command, workspace, folders), len(folders), True


def skill_of(path: str) -> str:
    """The skill folder a finding is about."""
    return os.path.dirname(path) if os.path.basename(path).lower() == "skill.md" else path


def histogram(findings: Iterable[dict[str, Any]]) -> dict[tuple[str, str], dict[str, int]]:
    """Per (code, severity): how many findings, and how many skill folders they touch. One code may come
    at two severities (a missing link is a warning, a missing code span information)."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for finding in findings:
        row = rows.setdefault((finding["code"], finding["severity"]), {"count": 0, "skills": set()})
        row["count"] += 1
        row["skills"].add(skill_of(finding["path"]))
    return {key: {"count": row["count"], "skills": len(row["skills"])} for key, row in rows.items()}


def print_histogram(rows: dict[tuple[str, str], dict[str, int]], before: dict[tuple[str, str], dict[str, int]] | None) -> None:
    keys = sorted(set(rows) | set(before or {}), key=lambda k: (-rows.get(k, {}).get("count", 0), k))
    width = max([len(code) for code, _ in keys] + [4])
    header = f"{'code'.ljust(width)}  {'severity':<11}  {'count':>5}  {'skills':>6}"
    print(header + ("  before" if before is not None else ""))
    for key in keys:
        row = rows.get(key, {"count": 0, "skills": 0})
        line = f"{key[0].ljust(width)}  {key[1]:<11}  {row['count']:>5}  {row['skills']:>6}"
        if before is not None:
            line += f"  {before.get(key, {}).get('count', 0):>6}"
        print(line)
    total = sum(row["count"] for row in rows.values())
    line = f"{'total'.ljust(width)}  {'':<11}  {total:>5}"
    if before is not None:
        line += f"  {'':>6}  {sum(row['count'] for row in before.values()):>6}"
    print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", help="a folder of workspaces, or one workspace")
    parser.add_argument("--show", metavar="CODE", action="append", default=[], help="print every finding of CODE")
    parser.add_argument("--checker", help="the albedo-skills command (default: this interpreter's package)")
    parser.add_argument("--save", metavar="FILE", help="write every finding as JSON")
    parser.add_argument("--compare", metavar="FILE", help="a file written by --save: print its counts beside")
    args = parser.parse_args(argv)

    command = checker_command(args.checker)
    corpus = os.path.abspath(args.corpus)
    findings: list[dict[str, Any]] = []
    per_workspace = []
    for workspace in workspaces_of(corpus):
        found, skills, split = check_workspace(command, workspace)
        findings += found
        per_workspace.append((os.path.relpath(workspace, corpus), skills, found, split))

    before = None
    if args.compare:
        with open(args.compare, encoding="utf-8") as handle:
            before = histogram(json.load(handle)["findings"])
    print_histogram(histogram(findings), before)
    print()
    for name, skills, found, split in per_workspace:
        by_severity = collections.Counter(f["severity"] for f in found)
        counts = ", ".join(f"{by_severity[s]} {s}" for s in ("error", "warning", "information"))
        print(f"{name}: {skills} skill folders, {counts}" + (" (checked in batches)" if split else ""))
    for code in args.show:
        print(f"\n## {code}")
        for finding in sorted(findings, key=lambda f: (f["path"], f["range"]["start"]["line"])):
            if finding["code"] == code:
                where = os.path.relpath(finding["path"], corpus)
                print(f"{where}:{finding['range']['start']['line'] + 1}: {finding['message']}")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as handle:
            json.dump({"corpus": corpus, "findings": findings}, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
