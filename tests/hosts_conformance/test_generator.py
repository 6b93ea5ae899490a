"""The random skill trees of the differential test: fixed by their seed, and holding the cases they promise."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "scripts"))

from hosts_conformance import compare, generate, shapes  # noqa: E402
from hosts_conformance.tree import Tree  # noqa: E402


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


def test_not_deterministic_agrees_with_a_run_that_loaded_exactly_one_of_the_copies() -> None:
    """Without recorded variation, "not deterministic" holds for one run only when that run loaded exactly one
    of the copies the project says the agent picks among (Copilot CLI's pick follows the folder listing)."""
    why = "not deterministic: loads one of the 2 copies"
    verdicts = {path: {"loads": None, "name": "v", "reason": why} for path in ("r/a/SKILL.md", "r/b/SKILL.md")}

    def run(first: bool, second: bool) -> compare.Agreement:
        seen = {"r/a/SKILL.md": {"loads": first, "name": "v" if first else None},
                "r/b/SKILL.md": {"loads": second, "name": "v" if second else None}}
        return compare.compare_host("x", {"version": "1", "skills": seen}, verdicts)

    assert run(True, False).disagreements == [] and run(False, True).disagreements == []
    assert len(run(True, True).disagreements) == 2 and len(run(False, False).disagreements) == 2
    outside = compare.compare_host("x", {"version": "1", "skills": {"elsewhere/SKILL.md": {"loads": True, "name": "e"}}}, {})
    assert len(outside.disagreements) == 1  # a file in no agent's root that an agent loads is still wrong


def test_a_links_tree_holds_every_kind_and_its_loops_and_broken_links_stop_nothing(tmp_path) -> None:
    made = generate.build(str(tmp_path), 3, len(shapes.LINK_KINDS), "links")
    assert {case.features[0] for case in made} >= {f"link={kind}" for kind, _weight in shapes.LINK_KINDS}
    inventory = Tree(str(tmp_path)).inventory()  # a self-link and a link back to the root are walked past
    why = generate.why_of(made, inventory)
    shared = next(case for case in made if case.features == ("link=across-roots",) and case.link is not None)
    assert set(why) == set(inventory) and f"{shared.path}/SKILL.md" in inventory  # seen through the link
    assert not any("-self" in path or "-missing" in path or "/back/" in path for path in inventory)


def test_the_retry_shape_crosses_each_colon_with_each_delimiting() -> None:
    drawn = {case.features for case in shapes.retry_cases(700, 400)}
    places = {place for place, _weight in shapes.COLON_PLACES}
    assert {features[0] for features in drawn} == {f"colon={place}" for place in places}
    assert ("colon=description", "frontmatter=bom") in drawn and ("colon=description", "frontmatter=unclosed") in drawn
