"""The generated corpus (generator.py) on its fit seeds, through the real command line: every dangerous skill is
flagged at the right file and line (a warning of its category's codes where the flow's source or sink is),
and no benign twin gets a warning. The held-out seeds are not tested here: benchmarks/security_generated.py
reports their figures (docs/security.md)."""

from __future__ import annotations

from pathlib import Path

from .generator import FIT_SEEDS, HELD_OUT_SEEDS, check, samples, score, write
from .generator_base import Doc
from .generator_shapes import CATEGORIES


def test_every_dangerous_fit_skill_is_flagged_where_expected_and_no_benign_twin_warns(tmp_path: Path) -> None:
    written = write(tmp_path, FIT_SEEDS)
    assert len(written) == 2 * len(CATEGORIES) * len(FIT_SEEDS)
    outcomes = score(tmp_path, written, check(tmp_path))
    wrong = [(o.folder, o.sample.evasions, o.missed or o.warnings) for o in outcomes if not o.right]
    assert wrong == []
    assert all(o.sample.expected for o in outcomes if o.sample.dangerous)  # each says where it must be flagged


def test_a_warning_elsewhere_does_not_count_as_flagged(tmp_path: Path) -> None:
    """The scoring itself: a dangerous skill whose warning sits on another line is a miss, and a benign twin
    with a warning is counted."""
    written = write(tmp_path, [0])
    dangerous = next(name for name, s in written.items() if s.dangerous and s.expected[0].lines)
    benign = next(name for name, s in written.items() if not s.dangerous)
    place = written[dangerous].expected[0]
    elsewhere = max(place.lines) + 100
    found = [
        {"path": str(tmp_path / "skills" / dangerous / place.path), "code": sorted(place.codes)[0],
         "severity": "warning", "range": {"start": {"line": elsewhere - 1}}},
        {"path": str(tmp_path / "skills" / benign / "SKILL.md"), "code": "security-hidden-text",
         "severity": "warning", "range": {"start": {"line": 0}}},
    ]
    outcomes = {o.folder: o for o in score(tmp_path, written, found)}
    assert not outcomes[dangerous].right and not outcomes[benign].right
    assert sum(not o.right for o in outcomes.values()) == len(CATEGORIES) + 1


def _texts(seed: int) -> list[dict[str, str | bytes]]:
    return [{k: v.text() if isinstance(v, Doc) else v for k, v in s.files.items()} for s in samples(seed)]


def test_the_generator_is_seeded_and_the_seeds_differ() -> None:
    assert _texts(7) == _texts(7)
    assert _texts(7) != _texts(8)
    assert not set(FIT_SEEDS) & set(HELD_OUT_SEEDS)


def test_the_fit_seeds_use_every_evasion_and_placement() -> None:
    used = {evasion for seed in FIT_SEEDS for sample in samples(seed) for evasion in sample.evasions}
    assert {
        "padding", "script", "skill-block", "reference-block", "untagged-block", "inline-span", "reference",
        "indirection", "f-string", "concatenation", "format", "percent", "base64", "hex", "string building",
        "function parameter", "built address", "path built from variables", "wrapped", "list item",
        "python exec", "powershell", "split python constant", "payload past the file bound", "pyc inside a zip",
        "send", "image", "claim", "hide", "credential", "mid-paragraph", ".ts", ".mjs", "template literal",
    } <= used
