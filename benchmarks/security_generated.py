"""The security reading on the held-out seeds of the generated corpus (tests/security/generator.py): per
category, the dangerous skills flagged at the right file and line and the benign twins with a warning; per
evasion, the dangerous skills flagged. The rules were written looking at the fit seeds only.

    .venv/bin/python benchmarks/security_generated.py [--seeds 1000-1099] [--show-misses]

It writes the skills under benchmarks/.work/trees/generated-security/, runs the real
`albedo-skills check --security --format json` over them once (its wall and CPU time printed), and prints
Markdown tables; docs/security.md quotes them. `--show-misses` lists each wrong sample: for after the figures
are taken, since reading held-out samples while writing rules makes them fit seeds.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

from common import REPO, TREES  # first: sets sys.path

sys.path.insert(0, REPO)
from tests.security.generator import HELD_OUT_SEEDS, _seeds, check, score, table, write  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=_seeds, default=HELD_OUT_SEEDS, help="FIRST-LAST (default: held out)")
    parser.add_argument("--show-misses", action="store_true")
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
    if args.show_misses:
        for outcome in outcomes:
            if not outcome.right:
                print(outcome.folder, outcome.sample.evasions, outcome.missed or outcome.warnings, file=sys.stderr)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
