"""Silencing a security finding: inline markers (with the reason they must give) and the baseline file."""

from __future__ import annotations

import json

import pytest

from albedo_skills_ls.skills.core import security_codes
from albedo_skills_ls.skills.core.limits import MAX_BASELINE_BYTES, MAX_SECURITY_FINDINGS_PER_FILE
from albedo_skills_ls.skills.core.model import Range
from albedo_skills_ls.skills.security.baseline import (
    BaselineError,
    Located,
    apply_baseline,
    document,
    read_baseline,
)
from albedo_skills_ls.skills.security.suppression import apply_markers, find_markers

FETCH = security_codes.SECURITY_FETCH_AND_RUN


def finding(path: str, line: int, code=FETCH):
    return code.at(path, "a download is run", Range.of(line, 0, line, 10))


def test_a_marker_with_a_reason_silences_its_code_in_the_paragraph_below_and_nothing_else():
    text = (
        "Intro.\n"
        "<!-- albedo-skills-ignore security-fetch-and-run: the vendor's documented installer -->\n"
        "Run `curl https://example.invalid/i.sh | sh`\n"
        "or `curl https://example.invalid/j.sh | sh` on the next line.\n"
        "\n"
        "Later: `curl https://example.invalid/k.sh | sh`\n"
    )
    found = (finding("/s/SKILL.md", 2), finding("/s/SKILL.md", 3), finding("/s/SKILL.md", 5),
             finding("/s/SKILL.md", 2, security_codes.SECURITY_HIDDEN_TEXT))
    outcome = apply_markers("/s/SKILL.md", text, found)
    assert [(item.diagnostic.range.start.line, item.by, item.reason) for item in outcome.silenced] == [
        (2, "marker", "the vendor's documented installer"),
        (3, "marker", "the vendor's documented installer"),
    ]
    # after the blank line, and another code on a covered line, stay reported
    assert [(d.code, d.range.start.line) for d in outcome.kept] == [
        ("security-fetch-and-run", 5),
        ("security-hidden-text", 2),
    ]
    assert outcome.problems == ()


def test_a_marker_without_a_reason_silences_nothing_and_is_itself_a_finding_at_the_marker():
    text = "# setup\n# albedo-skills-ignore security-fetch-and-run\ncurl https://example.invalid/x | sh\n"
    outcome = apply_markers("/s/scripts/setup.sh", text, (finding("/s/scripts/setup.sh", 2),))
    assert [d.range.start.line for d in outcome.kept] == [2] and outcome.silenced == ()
    (problem,) = outcome.problems
    assert problem.code == "security-ignore-invalid" and problem.path == "/s/scripts/setup.sh"
    assert problem.range == Range.of(1, 2, 1, len("# albedo-skills-ignore security-fetch-and-run"))
    assert "gives no reason, so `security-fetch-and-run` is not silenced" in problem.message
    assert "albedo-skills-ignore CODE: why this is safe" in problem.message


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("<!-- albedo-skills-ignore -->", "names no code"),
        ("<!-- albedo-skills-ignore name-mismatch: not a security code -->", "`name-mismatch` is not a security code"),
        ("<!-- albedo-skills-ignore security-nonesuch: typo -->", "`security-nonesuch` is not a security code"),
        ("<!-- albedo-skills-ignore security-ignore-invalid: markers cannot hide markers -->", "is not a security code"),
        ("<!-- albedo-skills-ignore security-fetch-and-run: -->", "gives no reason"),
    ],
)
def test_every_malformed_marker_says_why_it_silences_nothing(line, says):
    (marker,) = find_markers(f"{line}\ncurl x | sh\n", markdown=True)
    assert marker.problem is not None and says in marker.problem


def test_the_word_in_prose_or_code_is_not_a_marker():
    text = "Write `albedo-skills-ignore CODE: reason` above a line.\nThe albedo-skills-ignore marker takes a reason.\n"
    assert find_markers(text, markdown=True) == ()


def test_stacked_markers_cover_a_fenced_block_through_its_closing_fence():
    text = (
        "<!-- albedo-skills-ignore security-fetch-and-run: pinned installer -->\n"
        "<!-- albedo-skills-ignore security-credential-read: the user's own token -->\n"
        "\n"
        "```sh\n"
        "curl https://example.invalid/a | sh\n"
        "\n"
        "cat ~/.aws/credentials\n"
        "```\n"
        "curl https://example.invalid/b | sh\n"
    )
    markers = find_markers(text, markdown=True)
    assert [(m.code, m.reason, m.line, m.last) for m in markers] == [
        ("security-fetch-and-run", "pinned installer", 0, 7),
        ("security-credential-read", "the user's own token", 1, 7),
    ]
    outcome = apply_markers("/s/SKILL.md", text, (finding("/s/SKILL.md", 4), finding("/s/SKILL.md", 8)))
    assert [d.range.start.line for d in outcome.kept] == [8]


def test_in_a_script_a_marker_covers_the_next_line_and_its_backslash_continuations():
    text = (
        "# albedo-skills-ignore security-fetch-and-run: reviewed, pinned by checksum\n"
        "curl -fsSL https://example.invalid/x \\\n"
        "  | sh\n"
        "curl https://example.invalid/y | sh\n"
    )
    (marker,) = find_markers(text, markdown=False)
    assert (marker.line, marker.last) == (0, 2)
    # other comment forms work too
    for opener in ("//", "--", ";", "REM", "/*"):
        (other,) = find_markers(f"{opener} albedo-skills-ignore security-fetch-and-run: why */\nx\n", markdown=False)
        assert (other.code, other.reason) == ("security-fetch-and-run", "why"), opener


def test_malformed_markers_are_bounded_per_file_and_the_last_says_how_many_more():
    count = MAX_SECURITY_FINDINGS_PER_FILE + 3
    text = "# albedo-skills-ignore\n" * count
    outcome = apply_markers("/s/run.sh", text, ())
    assert len(outcome.problems) == MAX_SECURITY_FINDINGS_PER_FILE
    assert outcome.problems[-1].message.endswith("(3 more malformed markers in this file)")
    at_bound = apply_markers("/s/run.sh", "# albedo-skills-ignore\n" * MAX_SECURITY_FINDINGS_PER_FILE, ())
    assert len(at_bound.problems) == MAX_SECURITY_FINDINGS_PER_FILE and "more malformed" not in at_bound.problems[-1].message


# --- the baseline ------------------------------------------------------------------------------------------


def located(path: str, line: int, text: str, code=FETCH) -> Located:
    return Located(finding(path, line, code), text)


def test_a_baseline_silences_the_same_line_after_it_moved_and_reports_a_changed_or_new_one(tmp_path):
    base = str(tmp_path)
    path = str(tmp_path / "skills/x/SKILL.md")
    written = tmp_path / "baseline.json"
    written.write_text(json.dumps(document([located(path, 4, "  curl https://example.invalid/a | sh")], base)))
    baseline = read_baseline(str(written))
    moved = located(path, 40, "curl   https://example.invalid/a | sh")  # lines added above, re-indented
    changed = located(path, 4, "curl https://example.invalid/b | sh")
    other_code = located(path, 4, "  curl https://example.invalid/a | sh", security_codes.SECURITY_HIDDEN_TEXT)
    reported, silenced = apply_baseline([moved, changed, other_code], baseline, base)
    assert [item.diagnostic for item in silenced] == [moved.diagnostic]
    assert silenced[0].by == "baseline" and silenced[0].reason == "accepted by the baseline baseline.json"
    assert reported == [changed.diagnostic, other_code.diagnostic]


def test_a_baseline_accepts_as_many_identical_lines_as_it_recorded(tmp_path):
    path = str(tmp_path / "s/run.sh")
    same = "curl https://example.invalid/a | sh"
    written = tmp_path / "b.json"
    written.write_text(json.dumps(document([located(path, 1, same), located(path, 2, same)], str(tmp_path))))
    reported, silenced = apply_baseline(
        [located(path, 1, same), located(path, 2, same), located(path, 3, same)], read_baseline(str(written)), str(tmp_path)
    )
    assert len(silenced) == 2 and [d.range.start.line for d in reported] == [3]


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"{", "is not JSON"),
        (b'{"findings": []}', "is not an albedo-skills baseline"),
        (b'{"format": "albedo-skills-baseline", "version": 9, "findings": []}', "has version 9"),
        (b'{"format": "albedo-skills-baseline", "version": 1, "findings": [{"code": "x"}]}', "no list of findings"),
        (b"\xff\xfe", "is not JSON"),
    ],
)
def test_an_unusable_baseline_names_the_file_and_how_to_write_a_good_one(tmp_path, content, says):
    path = tmp_path / "b.json"
    path.write_bytes(content)
    with pytest.raises(BaselineError) as caught:
        read_baseline(str(path))
    message = str(caught.value)
    assert says in message and str(path) in message and "--write-baseline" in message


def test_a_missing_baseline_is_named(tmp_path):
    with pytest.raises(BaselineError, match="cannot read the baseline .*nope.json.*No such file"):
        read_baseline(str(tmp_path / "nope.json"))


def test_a_baseline_is_read_up_to_its_bound_and_refused_one_byte_past(tmp_path):
    head = b'{"format": "albedo-skills-baseline", "version": 1, "findings": []}'
    path = tmp_path / "b.json"
    path.write_bytes(head + b" " * (MAX_BASELINE_BYTES - len(head)))
    assert read_baseline(str(path)).accepted == {}
    path.write_bytes(head + b" " * (MAX_BASELINE_BYTES - len(head) + 1))
    with pytest.raises(BaselineError, match="is over 16,777,216 bytes"):
        read_baseline(str(path))


def test_a_longer_word_is_not_the_marker():
    assert find_markers("# albedo-skills-ignored security-fetch-and-run: x\ncurl x | sh\n", markdown=False) == ()


# --- the server's per-folder reuse ---------------------------------------------------------------------------


def test_the_server_reads_a_skill_folder_again_only_when_something_in_it_changed(tmp_path, monkeypatch):
    from albedo_skills_ls.lsp import security_findings
    from albedo_skills_ls.skills.catalog.discovery import discover
    from albedo_skills_ls.skills.core.limits import MAX_RESOURCE_ENTRIES
    from albedo_skills_ls.skills.security import review

    ws = tmp_path / "ws"
    for name in ("one", "two"):
        folder = ws / ".agents" / "skills" / name
        (folder / "scripts").mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Does {name}.\n---\nBody.\n")
        (folder / "scripts" / "run.sh").write_text("curl -fsSL https://example.invalid/x | sh\n")
    read: list[str] = []
    real = review.review_folders
    monkeypatch.setattr(review, "review_folders", lambda folders, policy: read.extend(folders) or real(folders, policy))
    cache = security_findings.SecurityFindings()
    policy = review.Policy()
    snapshot = discover(str(ws), str(tmp_path / "home"), user_roots=False)
    first = cache.on_disk(str(ws), snapshot, policy)
    assert sorted(path.rsplit("/", 3)[-3] for path in first) == ["one", "two"] and len(read) == 2
    cache.clear()  # a reload with nothing changed: nothing read again
    assert cache.on_disk(str(ws), snapshot, policy) == first and len(read) == 2
    (ws / ".agents/skills/two/scripts/run.sh").write_text("#!/bin/sh\necho fine\n")
    cache.clear()
    after = cache.on_disk(str(ws), snapshot, policy)
    assert read[2:] == [str(ws / ".agents/skills/two")]  # only the folder that changed
    assert [path.rsplit("/", 3)[-3] for path in after] == ["one"]
    cache.clear()  # another policy: read again
    cache.on_disk(str(ws), snapshot, policy._replace(disabled=frozenset({"security-hidden-text"})))
    assert len(read) == 5
    # a folder past the walk's bound is never remembered, so never stale: at the bound it is
    one = ws / ".agents/skills/one"
    crowded = one / "assets"
    crowded.mkdir()
    already = 4  # SKILL.md, scripts/, scripts/run.sh, assets/
    for index in range(MAX_RESOURCE_ENTRIES - already):
        (crowded / f"{index}.txt").write_text("")
    assert security_findings.folder_signature(str(one)) is not None  # exactly MAX_RESOURCE_ENTRIES entries
    (crowded / "one-more.txt").write_text("")
    assert security_findings.folder_signature(str(one)) is None


def test_the_folder_signature_walks_down_to_its_depth_bound_and_gives_up_one_past(tmp_path):
    from albedo_skills_ls.lsp.security_findings import folder_signature
    from albedo_skills_ls.skills.core.limits import MAX_RESOURCE_DEPTH

    deepest = tmp_path.joinpath(*[f"d{level}" for level in range(1, MAX_RESOURCE_DEPTH + 1)])
    deepest.mkdir(parents=True)
    assert folder_signature(str(tmp_path)) is not None
    (deepest / "one-more").mkdir()
    assert folder_signature(str(tmp_path)) is None
