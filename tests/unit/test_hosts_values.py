"""The value types, strict YAML and name rules each agent applies, as the generated batches showed them when
run (scripts/hosts_conformance `generated`; docs/hosts-conformance.md has the figures): one small tree per
case, the real engine, every verdict checked for the five agents that run here."""

from __future__ import annotations

from pathlib import Path

import pytest

from albedo_skills_ls.skills import hosts
from albedo_skills_ls.skills.hosts.model import SKIPPED, UNKNOWN


def write(root: Path, folder: str, frontmatter: str, body: str = "# Steps\n\nDo it.\n") -> str:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{frontmatter}\n---\n{body}", encoding="utf-8")
    return str(path)


def judged(tmp_path: Path, frontmatter: str, root: str = ".agents/skills"):
    project, home = tmp_path / "p", tmp_path / "h"
    home.mkdir(parents=True, exist_ok=True)
    path = write(project / root, "s-one", frontmatter)
    found = hosts.report(str(project), str(home), ("codex", "claude-code", "gemini-cli", "opencode", "copilot-cli"))
    return {entry.host.id: entry.verdicts[path] for entry in found.hosts}


@pytest.mark.parametrize("value", ["~", "null", "", "[a, b]", "42", "true"])
def test_a_description_that_is_not_text_is_refused_by_copilot_cli(tmp_path, value):
    seen = judged(tmp_path, f"name: s-one\ndescription: {value}")
    assert seen["copilot-cli"].status == SKIPPED and seen["copilot-cli"].reason == "Skill description must be a string"


def test_a_date_is_text_to_copilot_cli_and_codex_and_not_to_opencode(tmp_path):
    seen = judged(tmp_path, "name: s-one\ndescription: 2024-01-02")
    assert seen["copilot-cli"].description_seen == "2024-01-02" and seen["codex"].description_seen == "2024-01-02"
    assert not seen["opencode"].loads and "not a date" in seen["opencode"].reason
    gemini = seen["gemini-cli"]  # js-yaml gives a Date: its simple parser reads the line as written
    assert gemini.loads and gemini.description_seen == "2024-01-02"


def test_a_null_description_is_missing_to_codex_and_made_up_by_claude_code(tmp_path):
    seen = judged(tmp_path, "name: s-one\ndescription: ~")
    assert seen["codex"].reason == "missing field `description`"
    claude = judged(tmp_path / "c", "name: s-one\ndescription: ~", ".claude/skills")["claude-code"]
    assert claude.loads and claude.description_seen == "Steps"


def test_a_number_as_description_is_read_as_written_by_codex_and_claude_code(tmp_path):
    seen = judged(tmp_path, "name: s-one\ndescription: 007")
    assert seen["codex"].description_seen == "007"
    assert judged(tmp_path / "c", "name: s-one\ndescription: 1.50", ".claude/skills")["claude-code"].description_seen == "1.50"


def test_a_key_given_twice_and_a_tab_as_indentation(tmp_path):
    twice = judged(tmp_path, "name: s-one\nname: s-two\ndescription: D.")
    assert twice["codex"].reason == "invalid YAML: duplicate field `name`"
    assert not twice["opencode"].loads and twice["gemini-cli"].name == "s-two"  # the simple parser: the last line
    tab = judged(tmp_path / "t", "name: s-one\ndescription: D.\nmetadata:\n\towner: me")
    assert tab["codex"].reason.startswith("invalid YAML: found character that cannot start any token at line 4")
    assert tab["opencode"].loads and tab["opencode"].name == "s-one"  # OpenCode reads the tab as indentation


def test_codex_quotes_an_unquoted_colon_and_gives_the_first_error_when_that_fails(tmp_path):
    fixed = judged(tmp_path, "name: s-one # a comment\ndescription: Use this: when asked")
    assert fixed["codex"].name == "s-one" and fixed["codex"].description_seen == "Use this: when asked"
    still = judged(tmp_path / "b", "name: s-one\ndescription: Use this: when asked\nname: again")
    assert still["codex"].reason == "invalid YAML: mapping values are not allowed in this context at line 2 column 22"  # as Codex said when run


@pytest.mark.parametrize(("written", "verdict"), [
    ("a b c", "a-b-c"),  # spaces become `-`
    ("'x' ", None),  # a quote: refused
    ("café", None),  # not ASCII: refused
    ("n" * 64, "n" * 64),
    ("n" * 65, None),
])
def test_copilot_cli_name_rules(tmp_path, written, verdict):
    seen = judged(tmp_path, f"name: \"{written}\"\ndescription: D.")["copilot-cli"]
    assert seen.loads is (verdict is not None)
    if verdict is None:
        assert seen.reason.startswith(("Skill name must start with an ASCII letter", "Skill name must be at most 64"))
    else:
        assert seen.name == verdict


def test_copilot_cli_counts_the_description_in_utf16_units(tmp_path):
    at = "x" * 1020 + "😀😀"  # 1,022 characters, 1,024 UTF-16 units
    past = "x" * 1021 + "😀😀"  # 1,023 characters, 1,025 units
    assert judged(tmp_path, f"name: s-one\ndescription: {at}")["copilot-cli"].loads
    refused = judged(tmp_path / "b", f"name: s-one\ndescription: {past}")["copilot-cli"]
    assert refused.reason == "Skill description must be at most 1024 characters"


def test_empty_values(tmp_path):
    seen = judged(tmp_path, 'name: s-one\ndescription: ""')
    assert seen["copilot-cli"].loads and seen["copilot-cli"].description_seen == ""  # by name alone
    assert seen["gemini-cli"].loads and seen["opencode"].loads and seen["opencode"].description_seen == ""
    empty_name = judged(tmp_path / "n", 'name: ""\ndescription: D.')
    assert empty_name["opencode"].loads and empty_name["opencode"].name == ""
    assert empty_name["gemini-cli"].loads and empty_name["gemini-cli"].name == ""


def test_claude_code_disable_model_invocation_is_a_command_the_model_is_not_shown(tmp_path):
    seen = judged(tmp_path, "name: s-one\ndescription: D.\ndisable-model-invocation: true", ".claude/skills")
    claude = seen["claude-code"]
    assert claude.loads and claude.name == "s-one" and claude.description_seen == ""
    assert "disable-model-invocation: true" in claude.reason


def test_claude_code_quotes_an_unquoted_colon_and_drops_the_frontmatter_when_that_fails(tmp_path):
    kept = judged(tmp_path, "name: s-one\ndescription: Use this: when asked", ".claude/skills")["claude-code"]
    assert kept.loads and kept.description_seen == "Use this: when asked"
    folded = "name: >\n  s-one\ndescription: Use this: when asked"  # quoted, `>` breaks the folded lines
    dropped = judged(tmp_path / "b", folded, ".claude/skills")["claude-code"]
    assert dropped.loads and dropped.description_seen == "Steps" and "every frontmatter field is dropped" in dropped.reason


def test_a_copy_chosen_at_random_is_not_known(tmp_path):
    project, home = tmp_path / "p", tmp_path / "h"
    mine = write(project / ".agents/skills", "twin", "name: twin\ndescription: Mine.")
    theirs = write(home / ".agents/skills", "twin", "name: twin\ndescription: Theirs.")
    found = hosts.report(str(project), str(home), ("opencode",))
    for path in (mine, theirs):
        verdict = found.hosts[0].verdicts[path]
        assert verdict.status == UNKNOWN and verdict.to_json()["loads"] is None
        assert verdict.reason.startswith("not deterministic")


def test_claude_code_retries_without_quoting_a_crlf_file(tmp_path):
    """Its retry's line pattern cannot match a line that ends in CR (source 2.1.332; run: the CRLF files of
    seeds 100-109 got a made-up description)."""
    project, home = tmp_path / "p", tmp_path / "h"
    home.mkdir(parents=True)
    path = project / ".claude/skills/s-one/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"---\r\nname: s-one\r\ndescription: Use this: when asked\r\n---\r\n# Steps\r\n")
    claude = hosts.report(str(project), str(home), ("claude-code",)).hosts[0].verdicts[str(path)]
    assert claude.loads and claude.description_seen == "Steps" and "every frontmatter field is dropped" in claude.reason
    lf = judged(tmp_path / "lf", "name: s-one\ndescription: Use this: when asked", ".claude/skills")["claude-code"]
    assert lf.description_seen == "Use this: when asked"


def test_claude_code_retry_quotes_only_the_values_that_need_it(tmp_path):
    """A two-line plain description stays unquoted, so it still reads, while the name's `: ` is quoted."""
    seen = judged(tmp_path, "name: s: one\ndescription: first line\n  second line", ".claude/skills")["claude-code"]
    assert seen.description_seen == "first line second line"


@pytest.mark.parametrize("frontmatter, shown", [
    ("name: s-one\ndescription: |\n\tline one", "Steps"),  # `|` quoted, the tab line then breaks the retry
    ("name: s-one\ndescription: Use this: now\nmetadata:\n\tx: y", "Use this: now"),  # quoted, tab as spaces
    ("name: s: one\ndescription: first\ndescription: second", "second"),  # a key twice: the last copy
    ("name: s-one\ndescription: |\n\tbroken\ndescription: second", "Steps"),  # an earlier copy must parse too
    ("name: s-one\ndescription: |\n  line one\n  line two", "line one line two"),  # one line for the model
])
def test_claude_code_reads_a_failed_frontmatter_as_its_retry_does(tmp_path, frontmatter, shown):
    assert judged(tmp_path, frontmatter, ".claude/skills")["claude-code"].description_seen == shown


def test_claude_code_lists_nowhere_a_skill_hidden_from_its_model_and_from_you(tmp_path):
    hidden = "name: s-one\ndescription: D.\ndisable-model-invocation: true\nuser-invocable: false"
    claude = judged(tmp_path, hidden, ".claude/skills")["claude-code"]
    assert claude.status == SKIPPED and "lists it nowhere" in claude.reason
    command = judged(tmp_path / "b", "name: s-one\ndescription: D.\ndisable-model-invocation: true\nuser-invocable: true",
                     ".claude/skills")["claude-code"]
    assert command.loads and command.description_seen == ""
