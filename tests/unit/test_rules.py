"""Every single-document rule of docs/design.md#2-validation-rules, with exact ranges, at each bound and one past it."""

from __future__ import annotations

import pytest

from albedo_skills_ls.skills.core import limits
from albedo_skills_ls.skills.core.model import ERROR, INFORMATION, WARNING
from albedo_skills_ls.skills.document.rules import HOST_SPECIFIC_FIELDS, KNOWN_FIELDS, check_document
from conftest import codes, only, rng, skill_text

PATH = "/skills/demo/SKILL.md"


def check(frontmatter: str, body: str = "", folder: str | None = "demo"):
    """Check a SKILL.md whose frontmatter block (the lines between the `---` lines) is `frontmatter`."""
    return check_document(skill_text(frontmatter, body), PATH, folder)


def fm(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


NAME = "name: demo"
DESCRIPTION = "description: A demo skill."


# -------------------------------------------------------------------------------------- zero noise


RICH_VALID = fm(
    "name: demo",
    "description: >",
    "  Merges several files into one, keeping headings and links intact.",
    "  Use it when the user asks to combine, concatenate or merge documents.",
    "license: Apache-2.0. Complete terms in LICENSE.txt",
    "compatibility: Requires git, python3 and network access to the package index",
    "metadata:",
    "  author: example-org",
    '  version: "1.0"',
    "  tags: merge, files",
    "allowed-tools: Bash(git:*) Read Write",
)


def test_rich_valid_skill_with_all_six_fields_has_no_diagnostics():
    parsed = check(RICH_VALID, body="# Merge\n\nStep 1.\n")
    assert parsed.diagnostics == ()
    assert parsed.valid
    assert parsed.name == "demo"
    assert parsed.description.startswith("Merges several files") and parsed.description.endswith("documents.\n")


@pytest.mark.parametrize(
    "block",
    [
        fm(NAME, "description: |", "  Line one.", "  Line two."),
        fm(NAME, "description: Plain text", "  that continues here."),
        fm(NAME, "description: 'single quoted: with a colon'"),
        fm(NAME, 'description: "double quoted \\u00e9"'),
        fm(NAME, DESCRIPTION, "metadata: {}"),
        fm(NAME, DESCRIPTION, "metadata: {a: b, c: d}"),
        fm(NAME, DESCRIPTION, "license: MIT", "allowed-tools: Read"),
        fm("# a comment", NAME, DESCRIPTION, "# another"),
        fm("description: first", "name: demo"),  # any order
    ],
)
def test_valid_forms_of_the_known_fields_have_no_diagnostics(block):
    parsed = check(block)
    assert parsed.diagnostics == (), [d.message for d in parsed.diagnostics]


# ---------------------------------------------------------------------------------------------- name


def test_name_absent_is_name_missing_on_the_opening_line():
    parsed = check(fm(DESCRIPTION))
    diag = only(parsed.diagnostics, "name-missing")
    assert diag.severity == ERROR and diag.range == rng(0, 0, 0, 3)
    assert not parsed.valid and parsed.name is None


@pytest.mark.parametrize("line, where", [("name: ''", rng(1, 6, 1, 8)), ("name:", rng(1, 5, 1, 5)), ('name: ""', rng(1, 6, 1, 8))])
def test_name_empty_is_name_missing_on_the_value(line, where):
    parsed = check(fm(line, DESCRIPTION))
    diag = only(parsed.diagnostics, "name-missing")
    assert diag.range == where
    assert codes(parsed.diagnostics) == ["name-missing"]
    assert not parsed.valid


@pytest.mark.parametrize(
    "name, named",
    [
        ("Demo", "'D'"),
        ("demO", "'O'"),
        ("my_skill", "'_'"),
        ("Demo_x", "'D'"),  # the first offending character, not the second
        ("my skill", "' '"),
        ("my.skill", "'.'"),
        ("demé", "'é'"),  # ASCII only
        ("déemo_", "'é'"),
        ("-demo", "`-`"),
        ("demo-", "`-`"),
        ("-", "`-`"),
        ("a--b", "`--`"),
    ],
)
def test_name_invalid_names_the_offending_character(name, named):
    parsed = check(fm(f'name: "{name}"', DESCRIPTION), folder=name)
    diag = only(parsed.diagnostics, "name-invalid")
    assert diag.severity == ERROR
    assert diag.range == rng(1, 6, 1, 6 + len(name) + 2)  # the quoted value
    assert named in diag.message
    assert len(parsed.diagnostics) == 1  # no name-mismatch on top: the folder has the same name
    assert not parsed.valid and parsed.name is None


def test_name_invalid_position_in_message():
    diag = only(check(fm("name: ab_c", DESCRIPTION), folder="ab_c").diagnostics, "name-invalid")
    assert "position 3" in diag.message


def test_name_of_the_maximum_length_is_valid_and_one_more_is_not():
    longest = "a" * (limits.MAX_NAME_CHARS - 2) + "-b"
    parsed = check(fm(f"name: {longest}", DESCRIPTION), folder=longest)
    assert parsed.diagnostics == () and parsed.name == longest

    too_long = "a" * (limits.MAX_NAME_CHARS + 1)
    parsed = check(fm(f"name: {too_long}", DESCRIPTION), folder=too_long)
    diag = only(parsed.diagnostics, "name-invalid")
    assert diag.range == rng(1, 6, 1, 6 + limits.MAX_NAME_CHARS + 1)
    assert str(limits.MAX_NAME_CHARS + 1) in diag.message and str(limits.MAX_NAME_CHARS) in diag.message


@pytest.mark.parametrize("name", ["a", "0", "demo", "v2", "pdf-tools", "a1-b2-c3", "123"])
def test_valid_names(name):
    assert check(fm(f"name: {name}", DESCRIPTION), folder=name).diagnostics == ()


def test_name_mismatch_is_placed_on_the_value_of_name():
    parsed = check(fm("name: other-name", DESCRIPTION), folder="demo")
    diag = only(parsed.diagnostics, "name-mismatch")
    assert diag.severity == ERROR
    assert diag.range == rng(1, 6, 1, 16)
    assert "`other-name`" in diag.message and "`demo`" in diag.message
    assert len(parsed.diagnostics) == 1
    assert not parsed.valid


def test_name_mismatch_range_of_a_quoted_name_on_a_later_line():
    parsed = check(fm(DESCRIPTION, "license: MIT", "name:   'other'"), folder="demo")
    assert only(parsed.diagnostics, "name-mismatch").range == rng(3, 8, 3, 15)


def test_name_mismatch_is_case_sensitive_and_exact():
    # the folder "Demo" is not the name "demo" (the name itself is valid)
    assert codes(check(fm(NAME, DESCRIPTION), folder="Demo").diagnostics) == ["name-mismatch"]


def test_without_a_folder_there_is_no_name_check():
    assert check(fm("name: anything", DESCRIPTION), folder=None).diagnostics == ()


# --------------------------------------------------------------------------------------- description


def test_description_absent_is_description_missing_on_the_opening_line():
    parsed = check(fm(NAME))
    diag = only(parsed.diagnostics, "description-missing")
    assert diag.severity == ERROR and diag.range == rng(0, 0, 0, 3)
    assert not parsed.valid and parsed.description is None


@pytest.mark.parametrize(
    "block, where",
    [
        (fm(NAME, "description:"), rng(2, 12, 2, 12)),
        (fm(NAME, "description: ''"), rng(2, 13, 2, 15)),
        (fm(NAME, 'description: "   "'), rng(2, 13, 2, 18)),
        (fm(NAME, 'description: "\\t\\n"'), rng(2, 13, 2, 19)),
        (fm(NAME, "description: |", "", ""), rng(2, 13, 5, 0)),
    ],
)
def test_blank_description_is_description_missing_on_the_value(block, where):
    parsed = check(block)
    diag = only(parsed.diagnostics, "description-missing")
    assert diag.range == where
    assert "blank" in diag.message
    assert not parsed.valid


def test_the_new_skill_placeholder_is_a_warning_on_the_description_that_keeps_the_skill():
    from albedo_skills_ls.skills.authoring.fields import template
    from albedo_skills_ls.skills.core.model import Position, Range

    parsed = check_document(template("demo") + "# Demo\n", "/ws/demo/SKILL.md", "demo")
    diag = only(parsed.diagnostics, "description-placeholder")
    assert len(parsed.diagnostics) == 1 and parsed.valid and parsed.name == "demo"
    assert diag.severity == WARNING
    assert diag.range == Range(Position(2, 13), Position(2, 13 + len("Replace this text with what the skill does and when to use it")))
    assert diag.message.startswith("`description` is still the placeholder of a new skill: replace it")
    # the same words inside a real description are no placeholder
    edited = check(fm(NAME, "description: Replace this text with what the skill does and when to use it. Use when asked."))
    assert edited.diagnostics == ()


def test_description_at_the_bound_is_valid():
    text = "d" * limits.MAX_DESCRIPTION_CHARS
    parsed = check(fm(NAME, f"description: {text}"))
    assert parsed.diagnostics == () and parsed.description == text


def test_description_one_over_the_bound_is_too_long_on_the_value():
    text = "d" * (limits.MAX_DESCRIPTION_CHARS + 1)
    parsed = check(fm(NAME, f"description: {text}"))
    diag = only(parsed.diagnostics, "description-too-long")
    assert diag.severity == ERROR
    assert diag.range == rng(2, 13, 2, 13 + limits.MAX_DESCRIPTION_CHARS + 1)
    assert f"{limits.MAX_DESCRIPTION_CHARS + 1:,}" in diag.message
    assert not parsed.valid


def test_description_bound_counts_characters_not_bytes():
    text = "é" * limits.MAX_DESCRIPTION_CHARS  # 2,048 UTF-8 bytes
    assert check(fm(NAME, f"description: {text}")).diagnostics == ()
    assert codes(check(fm(NAME, f"description: {text}é")).diagnostics) == ["description-too-long"]


def test_folded_description_of_exactly_the_bound_plus_its_final_line_break_is_valid():
    # `>` keeps one final line break: the value is 1,025 characters, but the break is not counted
    half = limits.MAX_DESCRIPTION_CHARS // 2
    block = fm(NAME, "description: >", "  " + "a" * (half - 1), "  " + "b" * half)
    parsed = check(block)
    assert len(parsed.description) == limits.MAX_DESCRIPTION_CHARS + 1 and parsed.description.endswith("\n")
    assert parsed.diagnostics == ()


def test_folded_description_one_over_the_bound_is_too_long():
    half = limits.MAX_DESCRIPTION_CHARS // 2
    block = fm(NAME, "description: >", "  " + "a" * half, "  " + "b" * half)  # 1,025 + the break
    parsed = check(block)
    diag = only(parsed.diagnostics, "description-too-long")
    assert diag.range == rng(2, 13, 5, 0)
    assert f"{limits.MAX_DESCRIPTION_CHARS + 1:,}" in diag.message


def test_literal_description_counts_its_inner_line_breaks():
    half = limits.MAX_DESCRIPTION_CHARS // 2
    # "a"*(half-1) + "\n" + "b"*half + final "\n": 1,024 counted
    assert check(fm(NAME, "description: |", "  " + "a" * (half - 1), "  " + "b" * half)).diagnostics == ()
    # one more inner character: 1,025 counted
    assert codes(check(fm(NAME, "description: |", "  " + "a" * half, "  " + "b" * half)).diagnostics) == [
        "description-too-long"
    ]


def test_keep_chomping_counts_all_but_the_final_line_break():
    text = "d" * (limits.MAX_DESCRIPTION_CHARS - 1)
    # `|+` keeps the empty line: the value is text + "\n\n"; only the last break is not counted -> 1,024
    assert check(fm(NAME, "description: |+", "  " + text, "")).diagnostics == ()


# ------------------------------------------------------------------------------------------ field-type


@pytest.mark.parametrize(
    "block, where, words",
    [
        (fm("name: [a, b]", DESCRIPTION), rng(1, 6, 1, 12), "`name` must be a string, not a list"),
        (fm("name:", "  - a", "  - b", DESCRIPTION), rng(2, 2, 4, 0), "`name` must be a string, not a list"),
        (
            fm(NAME, "description:", "  - Reads PDFs.", "  - Use when asked."),
            rng(3, 2, 5, 0),
            "`description` must be a string, not a list: write one string; to spread it over lines, fold it: "
            "`description: >-`, then the lines indented, without `- `",
        ),
        (
            fm(NAME, "description:", "  Use: when asked"),
            rng(3, 2, 4, 0),
            "`description` must be a string, not a map: write it as one string, in double quotes if it starts with "
            "`{` or holds `: `",
        ),
        (fm(NAME, "description: {a: b}"), rng(2, 13, 2, 19), "`description` must be a string, not a map"),
        (fm(NAME, "description:", "  a: b"), rng(3, 2, 4, 0), "`description` must be a string, not a map"),
        (fm(NAME, DESCRIPTION, "license: [MIT]"), rng(3, 9, 3, 14), "`license` must be a string, not a list"),
        (fm(NAME, DESCRIPTION, "compatibility: {os: linux}"), rng(3, 15, 3, 26), "`compatibility` must be a string, not a map"),
        (fm(NAME, DESCRIPTION, "allowed-tools:", "  - Bash", "  - {a: b}"), rng(4, 2, 6, 0), "`allowed-tools` must be a string"),
        (fm(NAME, DESCRIPTION, "allowed-tools: [Bash, [Read, Grep]]"), rng(3, 15, 3, 35), "`allowed-tools` must be a string"),
        (fm(NAME, DESCRIPTION, "allowed-tools: {Bash: yes}"), rng(3, 15, 3, 26), "`allowed-tools` must be a string, not a map"),
        (fm(NAME, DESCRIPTION, "metadata: text"), rng(3, 10, 3, 14), "`metadata` must be a map"),
        (fm(NAME, DESCRIPTION, "metadata:"), rng(3, 9, 3, 9), "`metadata` must be a map"),
        (fm(NAME, DESCRIPTION, "metadata:", "  - a"), rng(4, 2, 5, 0), "`metadata` must be a map"),
        (fm(NAME, DESCRIPTION, "metadata:", "  tags: [a, b]"), rng(4, 8, 4, 14), "`metadata.tags` must be a string"),
        (fm(NAME, DESCRIPTION, "metadata:", "  owner:", "    team: x"), rng(5, 4, 6, 0), "`metadata.owner` must be a string"),
        (fm(NAME, DESCRIPTION, "metadata:", "  ? [a]", "  : b"), rng(4, 4, 4, 7), "`metadata` keys must be strings"),
        (fm(NAME, DESCRIPTION, "? [a, b]", ": c"), rng(3, 2, 3, 8), "frontmatter keys must be plain strings"),
    ],
)
def test_field_type(block, where, words):
    parsed = check(block)
    diag = only(parsed.diagnostics, "field-type")
    assert diag.severity == ERROR
    assert diag.range == where
    assert words in diag.message
    assert not parsed.valid


def test_field_type_on_name_does_not_also_report_name_missing():
    parsed = check(fm("name: {a: b}", DESCRIPTION))
    assert codes(parsed.diagnostics) == ["field-type"]
    assert parsed.name is None


def test_each_bad_metadata_value_gets_its_own_field_type():
    parsed = check(fm(NAME, DESCRIPTION, "metadata:", "  a: [1]", "  b: ok", "  c: {d: e}"))
    assert [(d.code, d.range.start.line) for d in parsed.diagnostics] == [("field-type", 4), ("field-type", 6)]


# ------------------------------------------------------------------------------- compatibility-invalid


@pytest.mark.parametrize(
    "line, where",
    [("compatibility: ''", rng(3, 15, 3, 17)), ("compatibility:", rng(3, 14, 3, 14)), ("compatibility: '  '", rng(3, 15, 3, 19))],
)
def test_empty_compatibility_is_invalid(line, where):
    parsed = check(fm(NAME, DESCRIPTION, line))
    diag = only(parsed.diagnostics, "compatibility-invalid")
    assert diag.severity == ERROR and diag.range == where
    assert "empty" in diag.message
    assert not parsed.valid


def test_compatibility_at_the_bound_is_valid_and_one_more_is_not():
    ok = "c" * limits.MAX_COMPATIBILITY_CHARS
    assert check(fm(NAME, DESCRIPTION, f"compatibility: {ok}")).diagnostics == ()
    parsed = check(fm(NAME, DESCRIPTION, f"compatibility: {ok}c"))
    diag = only(parsed.diagnostics, "compatibility-invalid")
    assert diag.range == rng(3, 15, 3, 15 + limits.MAX_COMPATIBILITY_CHARS + 1)
    assert str(limits.MAX_COMPATIBILITY_CHARS + 1) in diag.message
    assert not parsed.valid


def test_folded_compatibility_at_the_bound_plus_its_final_line_break_is_valid():
    ok = "c" * limits.MAX_COMPATIBILITY_CHARS
    assert check(fm(NAME, DESCRIPTION, "compatibility: >", f"  {ok}")).diagnostics == ()
    assert codes(check(fm(NAME, DESCRIPTION, "compatibility: >", f"  {ok}c")).diagnostics) == ["compatibility-invalid"]


# ------------------------------------------------------------------------------- unknown and host keys


@pytest.mark.parametrize(
    "key, meant",
    [
        ("desciption", "description"),
        ("licence", "license"),
        ("allowed_tools", "allowed-tools"),
        ("metdata", "metadata"),
        ("Compatibility", "compatibility"),
    ],
)
def test_unknown_field_close_to_a_known_one_suggests_it(key, meant):
    parsed = check(fm(NAME, DESCRIPTION, f"{key}: x"))
    diag = only(parsed.diagnostics, "field-unknown")
    assert diag.severity == WARNING
    assert diag.range == rng(3, 0, 3, len(key))
    assert f"did you mean `{meant}`" in diag.message
    assert parsed.valid  # a warning keeps the skill


def test_unknown_field_far_from_any_known_one_lists_the_known_fields():
    parsed = check(fm(NAME, DESCRIPTION, "  # comment", "owner: me"))
    diag = only(parsed.diagnostics, "field-unknown")
    assert diag.range == rng(4, 0, 4, 5)
    assert "did you mean" not in diag.message
    assert all(field in diag.message for field in KNOWN_FIELDS)


@pytest.mark.parametrize("key", HOST_SPECIFIC_FIELDS)
def test_host_specific_field_is_information_that_albedo_ignores_it(key):
    parsed = check(fm(NAME, DESCRIPTION, f"{key}: something"))
    diag = only(parsed.diagnostics, "field-host-specific")
    assert diag.severity == INFORMATION
    assert "Albedo ignores this field" in diag.message and f"`{key}`" in diag.message
    assert diag.range == rng(3, 0, 3, len(key))
    assert len(parsed.diagnostics) == 1
    assert parsed.valid


def test_the_host_specific_keys():
    assert set(HOST_SPECIFIC_FIELDS) == {
        "effort",
        "paths",
        "argument-hint",
        "user-invocable",
        "disable-model-invocation",
        "model",
        "context",
        "agent",
        "hooks",
        "version",
        "when_to_use",
    }


def test_host_specific_field_with_a_structured_value_is_still_only_information():
    parsed = check(fm(NAME, DESCRIPTION, "hooks:", "  pre: [a, b]", "disable-model-invocation: true"))
    assert codes(parsed.diagnostics) == ["field-host-specific", "field-host-specific"]
    assert parsed.valid


def test_unknown_keys_inside_metadata_are_not_reported():
    assert check(fm(NAME, DESCRIPTION, "metadata:", "  desciption: x", "  model: y")).diagnostics == ()


# ---------------------------------------------------------------------------------------- body-too-long


def test_body_of_the_maximum_line_count_is_fine():
    assert check(fm(NAME, DESCRIPTION), body="x\n" * limits.MAX_BODY_LINES).diagnostics == ()
    # a last line without its line end still counts as a line
    assert check(fm(NAME, DESCRIPTION), body="x\n" * (limits.MAX_BODY_LINES - 1) + "x").diagnostics == ()


def test_body_one_line_over_is_information_on_the_first_line_past_the_bound():
    parsed = check(fm(NAME, DESCRIPTION), body="x\n" * (limits.MAX_BODY_LINES + 1))
    diag = only(parsed.diagnostics, "body-too-long")
    assert diag.severity == INFORMATION
    closing_line = 3
    assert diag.range == rng(closing_line + 1 + limits.MAX_BODY_LINES, 0, closing_line + 1 + limits.MAX_BODY_LINES, 0)
    assert f"{limits.MAX_BODY_LINES + 1:,} lines" in diag.message
    assert parsed.valid
    # and without the final line end
    parsed = check(fm(NAME, DESCRIPTION), body="x\n" * limits.MAX_BODY_LINES + "x")
    assert codes(parsed.diagnostics) == ["body-too-long"]


def test_body_of_the_token_estimate_bound_is_fine():
    body = "w" * (limits.MAX_BODY_TOKENS * limits.CHARS_PER_TOKEN)
    assert check(fm(NAME, DESCRIPTION), body=body).diagnostics == ()


def test_body_one_token_over_is_information_on_the_first_body_line():
    body = "w" * ((limits.MAX_BODY_TOKENS + 1) * limits.CHARS_PER_TOKEN)
    parsed = check(fm(NAME, DESCRIPTION), body=body)
    diag = only(parsed.diagnostics, "body-too-long")
    assert diag.severity == INFORMATION
    assert diag.range == rng(4, 0, 4, 0)
    assert f"{limits.MAX_BODY_TOKENS + 1:,} tokens" in diag.message
    assert parsed.valid


def test_body_one_character_past_the_token_estimate_bound_is_over():
    # characters / 4 > 5,000 as soon as there is one character more than 20,000 (no rounding down)
    body = "w" * (limits.MAX_BODY_TOKENS * limits.CHARS_PER_TOKEN + 1)
    assert codes(check(fm(NAME, DESCRIPTION), body=body).diagnostics) == ["body-too-long"]


def test_body_token_estimate_counts_characters_across_lines():
    line = "w" * 99 + "\n"  # 100 characters a line, well under the line bound
    lines = limits.MAX_BODY_TOKENS * limits.CHARS_PER_TOKEN // len(line)
    assert lines < limits.MAX_BODY_LINES
    assert check(fm(NAME, DESCRIPTION), body=line * lines).diagnostics == ()
    over = line * lines + "w" * limits.CHARS_PER_TOKEN
    assert codes(check(fm(NAME, DESCRIPTION), body=over).diagnostics) == ["body-too-long"]


def test_empty_body_is_fine():
    assert check(fm(NAME, DESCRIPTION), body="").diagnostics == ()


# ---------------------------------------------------------------------------------------- combinations


def test_errors_invalidate_warnings_and_information_do_not():
    parsed = check(fm(NAME, DESCRIPTION, "desciption: x", "model: y"), body="x\n" * (limits.MAX_BODY_LINES + 1))
    assert sorted(d.severity for d in parsed.diagnostics) == sorted([WARNING, INFORMATION, INFORMATION])
    assert parsed.valid and parsed.name == "demo" and parsed.description == "A demo skill."


def test_several_findings_are_all_reported():
    parsed = check(fm("name: Bad_Name", "description: ''", "compatibility: ''", "metadata: x", "licence: y"))
    assert sorted(codes(parsed.diagnostics)) == sorted(
        ["name-invalid", "description-missing", "compatibility-invalid", "field-type", "field-unknown"]
    )


def test_check_document_accepts_text_and_bytes_alike():
    text = skill_text(RICH_VALID, "body\n")
    assert check_document(text, PATH, "demo") == check_document(text.encode(), PATH, "demo")


def test_an_aliased_or_anchored_value_gets_only_the_alias_error():
    # an alias reads as an empty string: `description-missing` or `name-missing` on top would mislead
    parsed = check(fm("name: &n demo", "description: *n"))
    assert codes(parsed.diagnostics) == ["yaml-alias", "yaml-alias"]
    parsed = check(fm(NAME, "description: &d A demo.", "license: *d"))
    assert codes(parsed.diagnostics) == ["yaml-alias", "yaml-alias"]
    # a list behind an anchor is still reported for its shape
    parsed = check(fm(NAME, DESCRIPTION, "allowed-tools: &t [Read]"))
    assert sorted(codes(parsed.diagnostics)) == ["allowed-tools-list", "yaml-alias"]
    parsed = check(fm(NAME, DESCRIPTION, "allowed-tools: &t [{a: b}]"))
    assert sorted(codes(parsed.diagnostics)) == ["field-type", "yaml-alias"]


# ------------------------------------------------------------------ allowed-tools as a list (section 7)


@pytest.mark.parametrize(
    "lines, where",
    [
        (("allowed-tools:", "  - Bash", "  - Read"), rng(4, 2, 6, 0)),
        (("allowed-tools: [Bash, Read]",), rng(3, 15, 3, 27)),
        (("allowed-tools:", "- Bash(git:*)", "- 'Read'"), rng(4, 0, 6, 0)),
        (("allowed-tools: []",), rng(3, 15, 3, 17)),
    ],
)
def test_allowed_tools_as_a_list_of_strings_is_a_warning_and_keeps_the_skill(lines, where):
    parsed = check(fm(NAME, DESCRIPTION, *lines))
    diag = only(parsed.diagnostics, "allowed-tools-list")
    assert diag.severity == WARNING
    assert diag.range == where
    assert "one space-separated string" in diag.message
    assert len(parsed.diagnostics) == 1
    assert parsed.valid and parsed.name == "demo"


def test_allowed_tools_list_beside_other_problems_is_reported_once():
    parsed = check(fm(NAME, DESCRIPTION, "allowed-tools:", "  - Bash", "desciption: typo"))
    assert sorted(codes(parsed.diagnostics)) == ["allowed-tools-list", "field-unknown"]


@pytest.mark.parametrize("key, meant", [("Name", "name"), ("DESCRIPTION", "description")])
def test_a_key_in_other_letter_case_beside_the_field_says_so_rather_than_suggest_it(key, meant):
    parsed = check(fm(NAME, DESCRIPTION, f"{key}: x"))
    diag = only(parsed.diagnostics, "field-unknown")
    assert diag.range == rng(3, 0, 3, len(key))
    assert f"`{meant}` is already set" in diag.message and "did you mean" not in diag.message
    assert parsed.valid


def test_an_unknown_key_far_from_any_field_points_at_metadata():
    diag = only(check(fm(NAME, DESCRIPTION, "author: someone")).diagnostics, "field-unknown")
    assert "under `metadata`" in diag.message
