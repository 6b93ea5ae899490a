"""skills.read paging cost: reading a whole 16 MiB file in 64 KiB pages, with and without the session's
remembered encoding verdict. Not part of CI; its figures go in docs/performance.md.

    .venv/bin/python benchmarks/paging.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from albedo_skills_ls.skills.core.limits import MAX_READ_LIMIT, MAX_RESOURCE_BYTES  # noqa: E402
from albedo_skills_ls.skills.resources.paging import EncodingVerdicts, read_resource  # noqa: E402

SAMPLED_PAGES = 32  # pages timed without verdicts (each reads the whole file: all 256 would take long)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="albedo-paging-") as base:
        folder = os.path.join(base, "root", "demo")
        os.makedirs(folder)
        with open(os.path.join(folder, "SKILL.md"), "w", encoding="utf-8") as handle:
            handle.write("---\nname: demo\ndescription: d\n---\n")
        line = "Paging through a large reference, é and 😀 included.\n".encode("utf-8")
        with open(os.path.join(folder, "big.md"), "wb") as handle:
            handle.write((line * (MAX_RESOURCE_BYTES // len(line) + 1))[:MAX_RESOURCE_BYTES - 3])
        root = os.path.dirname(folder)

        def read_all(verdicts: EncodingVerdicts | None, pages: int | None) -> list[float]:
            times, offset, count = [], 0, 0
            while pages is None or count < pages:
                began = time.perf_counter()
                result = read_resource("demo", folder, "big.md", offset, MAX_READ_LIMIT, discovery_root=root,
                                       verdicts=verdicts)
                times.append((time.perf_counter() - began) * 1000)
                count += 1
                offset = result["next_offset"]
                if not result["truncated"]:
                    break
            return times

        remembered = read_all(EncodingVerdicts(), None)
        fresh = read_all(None, SAMPLED_PAGES)
    print(f"| skills.read, {MAX_RESOURCE_BYTES // 2**20} MiB UTF-8 file, {MAX_READ_LIMIT // 1024} KiB pages | ms |")
    print("|---|---|")
    print(f"| first page (decides the encoding: reads the whole file) | {remembered[0]:.1f} |")
    print(f"| each later page, verdict remembered (median of {len(remembered) - 1}) | {statistics.median(remembered[1:]):.2f} |")
    print(f"| whole file, {len(remembered)} pages, verdict remembered | {sum(remembered):.0f} |")
    print(f"| each page without a remembered verdict (median of {len(fresh)}) | {statistics.median(fresh):.1f} |")
    print(f"| whole file without remembered verdicts (estimated: pages x median) | {statistics.median(fresh) * len(remembered):.0f} |")


if __name__ == "__main__":
    main()
