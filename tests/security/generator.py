"""A generator of dangerous skills and their benign twins, per category, with evasions; seeded.

    python -m tests.security.generator OUT --seeds 0-39      # write the skills of those seeds under OUT

Each seed gives, for every category of generator_shapes.py, one dangerous skill and its benign twin (the same
shape doing nothing against the user), with evasions drawn from the seed: split lines and padding between the
steps, variable indirection, strings built from pieces, encodings, other languages (Python, shell, PowerShell),
placement in references/ and scripts/, untagged blocks, inline code spans. `score` runs the real
`albedo-skills check --security --format json` over what was written and counts, per category, the dangerous
skills flagged at the right file and line (a warning of the category's codes there) and the benign twins
with any warning.

FIT_SEEDS are the ones looked at while writing the reading's rules (tests/security/test_generated.py holds
every one of them flagged and every twin quiet); HELD_OUT_SEEDS are not looked at while writing rules, and
only their figures are reported (benchmarks/security_generated.py, docs/security.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .generator_base import Doc, Draw, Sample
from .generator_shapes import CATEGORIES

FIT_SEEDS = range(0, 40)
# 1000-1099 and 2000-2099 were the held-out seeds of the first two rounds: their figures were taken before any
# was looked at (docs/security.md), then the misses were read, so they are spent; each round takes fresh ones
HELD_OUT_SEEDS = range(3000, 3100)


def samples(seed: int) -> list[Sample]:
    """Every category's dangerous skill and benign twin for one seed (each from its own random source, so a
    category added later does not change the others)."""
    made = []
    for category, make in CATEGORIES.items():
        for dangerous in (True, False):
            rng = random.Random(f"{seed}/{category}/{dangerous}")
            made.append(make(Draw(rng), dangerous))
    return made


def folder_name(seed: int, sample: Sample) -> str:
    return f"{sample.category}-{seed}-{'dangerous' if sample.dangerous else 'benign'}"


def write(root: Path, seeds: Iterable[int]) -> dict[str, Sample]:
    """Each sample of each seed as a skill folder under root/skills/; the samples by folder name."""
    written = {}
    for seed in seeds:
        for sample in samples(seed):
            folder = root / "skills" / folder_name(seed, sample)
            for rel, content in sample.files.items():
                path = folder / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                if isinstance(content, Doc):
                    content = content.text()
                if isinstance(content, str):
                    path.write_text(content, encoding="utf-8")
                else:
                    path.write_bytes(content)
            for rel, target in sample.links.items():
                (folder / rel).parent.mkdir(parents=True, exist_ok=True)
                os.symlink(target, folder / rel)
            written[folder.name] = sample
    return written


def check(root: Path, program: str | None = None) -> list[dict]:
    """The diagnostics of the real command line's `check --security --format json` over root."""
    command = [program] if program else [sys.executable, "-m", "albedo_skills_ls.cli"]
    done = subprocess.run([*command, "check", "--security", "--format", "json", str(root)],
                          capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"check failed ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout)["diagnostics"]


@dataclass
class Outcome:
    """One sample's result: flagged where expected (dangerous), or the warnings a benign twin got."""

    folder: str
    sample: Sample
    missed: list[str] = field(default_factory=list)  # the expected places with no warning (dangerous)
    warnings: list[str] = field(default_factory=list)  # every warning, as `path:line code`

    @property
    def right(self) -> bool:
        return not self.missed if self.sample.dangerous else not self.warnings


def score(root: Path, written: dict[str, Sample], diagnostics: list[dict], any_code: bool = False) -> list[Outcome]:
    """Per sample: a dangerous one is right when every expected place holds a warning of its codes (of any
    code with `any_code`: another tool's findings have codes of their own); a benign one when it has no warning
    at all (information findings are allowed: they are notes)."""
    by_folder: dict[str, list[tuple[str, int, str]]] = {}
    base = str(root / "skills") + os.sep
    for found in diagnostics:
        if found["severity"] not in ("warning", "error") or not found["path"].startswith(base):
            continue
        folder, _, rel = found["path"][len(base):].partition(os.sep)
        by_folder.setdefault(folder, []).append((rel, found["range"]["start"]["line"] + 1, found["code"]))
    outcomes = []
    for folder, sample in written.items():
        warnings = by_folder.get(folder, [])
        outcome = Outcome(folder, sample, warnings=[f"{rel}:{line} {code}" for rel, line, code in warnings])
        for place in sample.expected:
            if not any(rel == place.path and (not place.lines or line in place.lines) and (any_code or code in place.codes)
                       for rel, line, code in warnings):
                outcome.missed.append(f"{place.path}:{sorted(place.lines)} {sorted(place.codes)}")
        outcomes.append(outcome)
    return outcomes


def table(outcomes: list[Outcome]) -> str:
    """Per category: dangerous flagged at the right file and line, benign twins with a warning."""
    rows = ["| category | dangerous flagged at the right file and line | benign twins with a warning |",
            "| --- | --- | --- |"]
    totals = [0, 0, 0, 0]
    for category in CATEGORIES:
        dangerous = [o for o in outcomes if o.sample.category == category and o.sample.dangerous]
        benign = [o for o in outcomes if o.sample.category == category and not o.sample.dangerous]
        flagged, warned = sum(o.right for o in dangerous), sum(not o.right for o in benign)
        rows.append(f"| {category} | {flagged} / {len(dangerous)} | {warned} / {len(benign)} |")
        totals = [totals[0] + flagged, totals[1] + len(dangerous), totals[2] + warned, totals[3] + len(benign)]
    share = 100 * totals[0] / totals[1] if totals[1] else 0.0
    rows.append(f"| all | {totals[0]} / {totals[1]} ({share:.1f}%) | {totals[2]} / {totals[3]} |")
    return "\n".join(rows)


def _seeds(spec: str) -> range:
    first, _, last = spec.partition("-")
    return range(int(first), int(last or first) + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=_seeds, default=FIT_SEEDS, help="FIRST-LAST (default: the fit seeds)")
    parser.add_argument("--score", action="store_true", help="also run check --security and print the table")
    args = parser.parse_args(argv)
    written = write(args.out, args.seeds)
    if args.score:
        outcomes = score(args.out, written, check(args.out))
        for outcome in outcomes:
            if not outcome.right:
                print(outcome.folder, outcome.sample.evasions, outcome.missed or outcome.warnings)
        print(table(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
