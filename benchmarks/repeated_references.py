"""A 1 MiB `SKILL.md` of one missing reference repeated: the work must follow the distinct targets, not the
occurrences. Not part of CI; its figures go in docs/performance.md.

    .venv/bin/python benchmarks/repeated_references.py [--runs N] [--no-tools]

Three files at the `SKILL.md` bound (skills/core/limits.py MAX_SKILL_FILE_BYTES), each in a skill folder holding
`references/guide.md`: one Markdown link repeated (`[g](reference/guide.md)`, a near miss of the file that
exists), one code path repeated (`` `reference/guide.md` ``), and both alternating. For each it prints:

- the directory listings the reference check makes (`os.scandir` calls, counted in process: a count, so
  machine load cannot blur it);
- the CPU time of `check_buffer` in process (median of N runs);
- the CPU time of the whole `albedo-skills check` process over the tree, beside agnix and skills-ref's
  `agentskills validate` in the same run (installed by benchmarks/process_rows.py into benchmarks/.work;
  `--no-tools` skips them). Medians of N runs, user + system time of the child process.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from albedo_skills_ls.skills.catalog import references as references_module  # noqa: E402
from albedo_skills_ls.skills.catalog.session import SkillsSession, check_buffer  # noqa: E402
from albedo_skills_ls.skills.core.limits import MAX_SKILL_FILE_BYTES  # noqa: E402
from benchmarks.common import ALBEDO_CHECK, child_env  # noqa: E402
from benchmarks.process_rows import ensure_tools, tools_bin  # noqa: E402

FRONT = "---\nname: demo\ndescription: One missing reference, repeated to the size bound.\n---\n"
LINES = {
    "link": "See [g](reference/guide.md) for details.\n",
    "code path": "Read `reference/guide.md` first.\n",
    "both": "See [g](reference/guide.md) for details.\nRead `reference/guide.md` first.\n",
}


def skill_text(line: str) -> str:
    body = line * ((MAX_SKILL_FILE_BYTES - len(FRONT)) // len(line))
    return FRONT + body


def build(base: str, line: str) -> tuple[str, str, str]:
    """A workspace with one skill `demo` whose SKILL.md is `line` repeated; (workspace, home, SKILL.md)."""
    workspace, home = os.path.join(base, "ws"), os.path.join(base, "home")
    folder = os.path.join(workspace, ".agents", "skills", "demo")
    os.makedirs(os.path.join(folder, "references"))
    os.makedirs(home)
    with open(os.path.join(folder, "references", "guide.md"), "w", encoding="utf-8") as handle:
        handle.write("# Guide\n")
    path = os.path.join(folder, "SKILL.md")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(skill_text(line))
    assert os.path.getsize(path) <= MAX_SKILL_FILE_BYTES
    return workspace, home, path


def listings(path: str, text: str, snapshot) -> tuple[int, int]:
    """(directory listings made by one check of the buffer, diagnostics it gives)."""
    calls = 0
    real = os.scandir

    def counting(*args, **kwargs):
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)

    references_module.os.scandir = counting
    try:
        found = check_buffer(snapshot, path, text)
    finally:
        references_module.os.scandir = real
    return calls, len(found)


def cpu_of(argv: list[str], env: dict[str, str]) -> float:
    """User + system CPU seconds of one run of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-tools", action="store_true")
    args = parser.parse_args()
    tools_problem = "skipped (--no-tools)" if args.no_tools else ensure_tools()
    print(f"benchmarks/repeated_references.py: {args.runs} runs, medians; SKILL.md of {MAX_SKILL_FILE_BYTES} bytes")
    if tools_problem:
        print(f"other tools: {tools_problem}")
    print("| file | occurrences | listings | diagnostics | check_buffer CPU | `albedo-skills check` CPU | agnix CPU | `agentskills validate` CPU |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, line in LINES.items():
        with tempfile.TemporaryDirectory(prefix="albedo-repeated-") as base:
            workspace, home, path = build(base, line)
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            snapshot = SkillsSession(workspace, home, user_roots=False).snapshot
            count, diagnostics = listings(path, text, snapshot)
            in_process = []
            for _ in range(args.runs):
                began = time.process_time()
                check_buffer(snapshot, path, text)
                in_process.append(time.process_time() - began)
            env = child_env(home)
            ours = [cpu_of([ALBEDO_CHECK, "check", workspace, "--no-user-roots"], env) for _ in range(args.runs)]
            cells = [f"{statistics.median(ours) * 1000:.0f} ms"]
            if tools_problem is None:
                folder = os.path.dirname(path)
                agnix = [cpu_of([tools_bin("agnix"), workspace], env) for _ in range(args.runs)]
                validate = [cpu_of([tools_bin("agentskills"), "validate", folder], env) for _ in range(args.runs)]
                cells += [f"{statistics.median(agnix) * 1000:.0f} ms", f"{statistics.median(validate) * 1000:.0f} ms"]
            else:
                cells += ["not run", "not run"]
            occurrences = text.count("reference/guide.md")
            print(f"| {label} | {occurrences} | {count} | {diagnostics} | "
                  f"{statistics.median(in_process) * 1000:.0f} ms | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
