"""The security reading on the held-out seeds of the generated corpus (tests/security/generator.py): per
category, the dangerous skills flagged at the right file and line and the benign twins with a warning; per
evasion, the dangerous skills flagged. The rules were written looking at the fit seeds only.

    .venv/bin/python benchmarks/security_generated.py [--seeds 1000-1099] [--show-misses] [--other SKILL_SCANNER]

It writes the skills under benchmarks/.work/trees/generated-security/, runs the real
`albedo-skills check --security --format json` over them once (its wall and CPU time printed), and prints
Markdown tables; docs/security.md quotes them. `--show-misses` lists each wrong sample: for after the figures
are taken, since reading held-out samples while writing rules makes them fit seeds.

`--other` runs Cisco's `skill-scanner` (cisco-ai-skill-scanner, installed in a virtual environment of its own)
on the same skills, `scan-all --recursive --use-behavioral` (its static analyzers and its static dataflow; no
model, no VirusTotal), cut off from the network with `unshare -n` when this runs as root, and prints the same
tables for it beside Albedo's, with what each flags that the other does not. A skill-scanner finding counts as
a warning when its severity is LOW or above (INFO is its note); it has codes of its own, so any of its
findings at the right file and line counts as flagged.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from common import REPO, TREES  # first: sets sys.path

sys.path.insert(0, REPO)
from tests.security.generator import HELD_OUT_SEEDS, _seeds, check, score, table, write  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=_seeds, default=HELD_OUT_SEEDS, help="FIRST-LAST (default: held out)")
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--other", help="a skill-scanner executable to run on the same skills")
    args = parser.parse_args()
    root = Path(TREES) / "generated-security"
    shutil.rmtree(root, ignore_errors=True)
    written = write(root, args.seeds)
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    diagnostics = check(root)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    outcomes = score(root, written, diagnostics)
    size = sum(f.stat().st_size for f in root.rglob("*") if f.is_file() and not f.is_symlink())
    print(f"seeds {args.seeds.start}-{args.seeds.stop - 1}: {len(written)} skills, {size / 2**20:.1f} MiB; "
          f"check --security {wall:.2f} s wall, {cpu:.2f} s CPU\n")
    print(table(outcomes))
    used, right = Counter(), Counter()
    for outcome in outcomes:
        if outcome.sample.dangerous:
            for evasion in set(outcome.sample.evasions):
                used[evasion] += 1
                right[evasion] += outcome.right
    print("\n| evasion or shape (dangerous skills using it) | flagged at the right file and line |\n| --- | --- |")
    for evasion, count in sorted(used.items(), key=lambda item: (-item[1], item[0])):
        print(f"| {evasion} | {right[evasion]} / {count} |")
    if args.other:
        _side_by_side(root, written, outcomes, args.other)
    if args.show_misses:
        for outcome in outcomes:
            if not outcome.right:
                print(outcome.folder, outcome.sample.evasions, outcome.missed or outcome.warnings, file=sys.stderr)
    return 0


def _other(root: Path, program: str) -> tuple[list[dict], float, float]:
    """skill-scanner's findings over root/skills as diagnostics of generator.score's shape, and its wall and
    CPU seconds."""
    report = root / "skill-scanner.json"
    command = [program, "scan-all", str(root / "skills"), "--recursive", "--use-behavioral", "--format", "json",
               "--output-json", str(report)]
    if shutil.which("unshare") and os.geteuid() == 0:
        command = ["unshare", "-n", *command]  # offline: it gets no network at all
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    found = []
    for result in json.loads(report.read_text())["results"]:
        for finding in result["findings"]:
            found.append({
                "path": os.path.join(result["skill_path"], finding.get("file_path") or "SKILL.md"),
                "code": finding["rule_id"],
                "severity": "information" if finding["severity"] == "INFO" else "warning",
                "range": {"start": {"line": (finding.get("line_number") or 1) - 1}},
            })
    return found, wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def _side_by_side(root: Path, written: dict, ours: list, program: str) -> None:
    found, wall, cpu = _other(root, program)
    theirs = {o.folder: o for o in score(root, written, found, any_code=True)}
    # its findings do not always carry a line (a frontmatter field, a whole file): at the right file, any line
    anywhere = {name: replace(sample, expected=[replace(place, lines=frozenset()) for place in sample.expected])
                for name, sample in written.items()}
    in_file = {o.folder: o for o in score(root, anywhere, found, any_code=True)}
    print(f"\nskill-scanner: {wall:.1f} s wall, {cpu:.1f} s CPU\n")
    print("| category | Albedo flagged | skill-scanner flagged (at the right file, any line) | only Albedo | only "
          "skill-scanner | benign warned: Albedo / skill-scanner |\n| --- | --- | --- | --- | --- | --- |")
    for category in dict.fromkeys(o.sample.category for o in ours):
        mine = [o for o in ours if o.sample.category == category]
        danger = [o for o in mine if o.sample.dangerous]
        benign = [o for o in mine if not o.sample.dangerous]
        a = sum(o.right for o in danger)
        b = sum(theirs[o.folder].right for o in danger)
        b_file = sum(in_file[o.folder].right for o in danger)
        only_a = sum(o.right and not theirs[o.folder].right for o in danger)
        only_b = sum(theirs[o.folder].right and not o.right for o in danger)
        warned_a = sum(not o.right for o in benign)
        warned_b = sum(not theirs[o.folder].right for o in benign)
        print(f"| {category} | {a} / {len(danger)} | {b} ({b_file}) / {len(danger)} | {only_a} | {only_b} | "
              f"{warned_a} / {warned_b} of {len(benign)} |")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
