"""OpenCode's second parse of a frontmatter its YAML reader refuses, as the `retry` generated shape showed it
when run (OpenCode 1.18.33, seeds 700-701, 400 files; docs/hosts-conformance.md): the rewrite reaches only a
file that opens with `---` at its first byte and whose block is closed, and turns each `key: value` line
whose value holds a colon into a literal block, for any key of letters, digits and `_`."""

from __future__ import annotations

from pathlib import Path

import pytest

from albedo_skills_ls.skills import hosts
from albedo_skills_ls.skills.hosts.model import SKIPPED

BODY = "# Steps\n\nDo it.\n"


def opencode(tmp_path: Path, text: str):
    project, home = tmp_path / "p", tmp_path / "h"
    home.mkdir(parents=True)
    path = project / ".opencode/skills/s-one/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(text.encode("utf-8"))
    return hosts.report(str(project), str(home), ("opencode",)).hosts[0].verdicts[str(path)]


@pytest.mark.parametrize(("frontmatter", "name", "description"), [
    ("name: s-one\ndescription: Use this: when asked", "s-one", "Use this: when asked"),
    ("name: s-one: the tool\ndescription: Checks.", "s-one: the tool", "Checks."),
    # the literal block keeps what a quoted value would also keep, and what YAML would read as a comment
    ("name: s-one\ndescription: Checks: x # here", "s-one", "Checks: x # here"),
    # a value opening with `[` is rewritten too, and read as text
    ("name: s-one\ndescription: [Checks]: more", "s-one", "[Checks]: more"),
    # any key of letters, digits and `_`: a colon in `when_to_use` no longer spoils the parse
    ("name: s-one\ndescription: Checks.\nwhen_to_use: when asked: often", "s-one", "Checks."),
])
def test_a_refused_colon_in_a_closed_block_is_read_as_written(tmp_path, frontmatter, name, description):
    for text, where in ((f"---\n{frontmatter}\n---\n{BODY}", "lf"),
                        (f"---\n{frontmatter}\n---\n{BODY}".replace("\n", "\r\n"), "crlf")):
        verdict = opencode(tmp_path / where, text)
        assert verdict.loads and (verdict.name, verdict.description_seen) == (name, description), where


@pytest.mark.parametrize("frontmatter", [
    "name: s-one\ndescription: Use this: when asked",
    "name: s-one: the tool\ndescription: Checks.",
    "name: s-one\ndescription: Checks.\nwhen_to_use: when asked: often",
])
def test_a_byte_order_mark_or_an_unclosed_block_leaves_the_colon_refused(tmp_path, frontmatter):
    """The rewrite looks for `---` at the first byte and a closing `---` line: a byte-order mark or a block
    never closed leaves the file as it was, so the second parse fails too and the skill is dropped."""
    for text, where in ((f"\ufeff---\n{frontmatter}\n---\n{BODY}", "bom"),
                        (f"\ufeff---\r\n{frontmatter}\r\n---\r\n{BODY}".replace("\n", "\r\n"), "bom-crlf"),
                        (f"---\n{frontmatter}\n\n{BODY}", "unclosed")):
        verdict = opencode(tmp_path / where, text)
        assert verdict.status == SKIPPED and "cannot read the frontmatter" in verdict.reason, where


def test_a_byte_order_mark_alone_is_dropped(tmp_path):
    """The control: without a refused colon, a byte-order mark before `---` loads (gray-matter drops it)."""
    verdict = opencode(tmp_path, f"\ufeff---\nname: s-one\ndescription: Checks the files.\n---\n{BODY}")
    assert verdict.loads and verdict.description_seen == "Checks the files."


def test_a_colon_in_a_key_with_a_hyphen_or_on_a_continuation_line_is_not_rewritten(tmp_path):
    hyphen = opencode(tmp_path / "h", f"---\nname: s-one\ndescription: Checks.\nx-note: when asked: often\n---\n{BODY}")
    assert hyphen.status == SKIPPED
    continued = opencode(tmp_path / "c", f"---\nname: s-one\ndescription: Checks\n  and then: reports\n---\n{BODY}")
    assert continued.status == SKIPPED
