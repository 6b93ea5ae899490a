"""Instructions per engine operation, counted by valgrind: a before/after that machine load cannot blur.

    .venv/bin/python benchmarks/instructions.py                   # this checkout
    .venv/bin/python benchmarks/instructions.py --baseline DIR    # ... and DIR's albedo_skills_ls (e.g. main)

Wall-clock figures on a shared machine swing by a third from one minute to the next; the number of
instructions a piece of Python executes does not. For each operation this runs the same interpreter under
`valgrind --tool=cachegrind --cache-sim=no` twice, once doing the operation `--warm` times and once
`--warm + --repeat` times, and reports the difference divided by `--repeat`: the instructions of one
operation, start-up and imports cancelled out. User space only (the kernel's side of each `lstat` or `read`
is not counted), and instructions are not time: a change that removes instructions but misses caches more
can still be slower, so quote these beside run.py's medians, never instead of them.

Operations, on the seeded 128-skill tree of benchmarks/generate.py:
- cold discovery: a new `SkillsSession` and its `reload()` (as run.py's "cold discovery, 128 skills");
- unchanged reload: `reload()` of a session that has already read the tree.

`--baseline DIR` imports DIR's package (PYTHONPATH=DIR) with this interpreter; make DIR with
`git worktree add /tmp/base main`. Needs valgrind (`apt-get install valgrind`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TREE = os.path.join(HERE, ".work", "trees", "t128")
sys.path.insert(0, HERE)

import generate  # noqa: E402  (benchmarks/generate.py)

# Run in the measured interpreter: import the checkout named by argv[1], do the operation argv[3] times.
PROGRAM = """
import sys
sys.path.insert(0, sys.argv[1])
import albedo_skills_ls
assert albedo_skills_ls.__file__.startswith(sys.argv[1]), albedo_skills_ls.__file__
from albedo_skills_ls.skills.catalog.session import SkillsSession
operation, times = sys.argv[2], int(sys.argv[3])
workspace, home = sys.argv[4], sys.argv[5]
session = SkillsSession(workspace, home)
session.reload()  # imports everything either operation touches
for _ in range(times):
    if operation == "cold":
        SkillsSession(workspace, home).reload()
    else:
        session.reload()
"""

OPERATIONS = {"cold": "cold discovery, 128 skills", "reload": "`reload()`, nothing changed (128)"}
_TOTAL = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(checkout: str, operation: str, times: int, tree: generate.Tree) -> int:
    """Instructions of the whole measured process (start, imports, one reload, `times` operations)."""
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        sys.executable, "-c", PROGRAM, checkout, operation, str(times), tree.workspace, tree.home,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    found = _TOTAL.search(done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_operation(checkout: str, operation: str, warm: int, repeat: int, tree: generate.Tree) -> float:
    return (instructions(checkout, operation, warm + repeat, tree) - instructions(checkout, operation, warm, tree)) / repeat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", metavar="DIR", help="another checkout to compare with (e.g. main)")
    parser.add_argument("--warm", type=int, default=1, help="operations in the shorter run (default 1)")
    parser.add_argument("--repeat", type=int, default=5, help="extra operations in the longer run (default 5)")
    options = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is needed: apt-get install valgrind", file=sys.stderr)
        return 2
    tree = generate.generate_tree(TREE, 128)
    checkouts = {"this checkout": REPO}
    if options.baseline:
        checkouts["baseline"] = os.path.abspath(options.baseline)
    figures = {
        (name, operation): per_operation(path, operation, options.warm, options.repeat, tree)
        for name, path in checkouts.items()
        for operation in OPERATIONS
    }
    header = ["operation", *(f"{name} (M instructions)" for name in checkouts)]
    if options.baseline:
        header.append("this / baseline")
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for operation, label in OPERATIONS.items():
        cells = [label, *(f"{figures[name, operation] / 1e6:.1f}" for name in checkouts)]
        if options.baseline:
            cells.append(f"{figures['this checkout', operation] / figures['baseline', operation]:.2f}")
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
