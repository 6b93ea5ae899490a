"""The random skill trees of the differential test: fixed by their seed, and holding the cases they promise."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))

from hosts_conformance import compare, generate  # noqa: E402


def test_a_seed_gives_the_same_files_and_another_seed_others() -> None:
    assert generate.cases(7, 60) == generate.cases(7, 60)
    assert [case.text for case in generate.cases(7, 60)] != [case.text for case in generate.cases(8, 60)]


def test_lengths_at_and_around_the_limits_are_drawn() -> None:
    made = generate.cases(1, 400)
    lengths = {feature for case in made for feature in case.features if feature.startswith("description-length=")}
    for limit in generate.DESCRIPTION_LIMITS:
        for where in ("limit-1", "limit", "limit+1", "utf16-limit"):
            assert f"description-length={where}@{limit}" in lengths
    over_in_utf16 = [case for case in made if f"description-length=utf16-limit@1024" in case.features]
    line = next(line for line in over_in_utf16[0].text.splitlines() if "😀" in line)
    assert len(line.encode("utf-16-le")) // 2 > len(line)  # characters outside the BMP count twice there


def test_a_wrong_description_is_a_disagreement() -> None:
    """The description comparison can fail: runs of whitespace are one space, anything else counts."""
    observed = {"version": "1", "skills": {"p/SKILL.md": {"loads": True, "name": "p", "description": "A  b\nc"}}}
    same = compare.compare_host("x", observed, {"p/SKILL.md": {"loads": True, "name": "p", "description_seen": "A b c"}})
    assert (same.described_agreed, same.described_total) == (1, 1)
    cut = compare.compare_host("x", observed, {"p/SKILL.md": {"loads": True, "name": "p", "description_seen": "A b"}},
                               why={"p/SKILL.md": "description-length=limit"})
    assert cut.described_agreed == 0 and "description-length=limit" in cut.description_disagreements[0].line()
