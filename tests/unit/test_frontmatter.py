"""Reading a SKILL.md (docs/design.md#1-reading-a-skillmd): bytes to text, the `---` block, the failsafe YAML tree."""

from __future__ import annotations

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from albedo_skills_ls.skills.document.frontmatter import closing_line, lines_of, read_text
from albedo_skills_ls.skills.core.limits import MAX_FRONTMATTER_BYTES
from albedo_skills_ls.skills.core.model import ERROR
from albedo_skills_ls.skills.document.rules import check_document
from albedo_skills_ls.skills.document.yamltree import Mapping, Scalar, Sequence
from conftest import codes, only, rng

PATH = "/skills/demo/SKILL.md"
VALID = "---\nname: demo\ndescription: A demo skill.\n---\n# Demo\n"


def check(text: str | bytes, folder: str | None = "demo"):
    return check_document(text, PATH, folder)


def fields(text: str | bytes) -> dict[str, object]:
    """The top-level mapping as plain values (scalars as strings), for asserting what the reader built."""
    root = read_text(text, PATH).frontmatter.root
    assert isinstance(root, Mapping)

    def plain(node):
        if isinstance(node, Scalar):
            return node.value
        if isinstance(node, Sequence):
            return [plain(item) for item in node.items]
        return {plain(e.key): plain(e.value) for e in node.entries}

    return plain(root)


# ------------------------------------------------------------------------------------------- encoding


def test_valid_document_has_no_findings_and_exact_value_ranges():
    parsed = check(VALID)
    assert parsed.diagnostics == ()
    assert parsed.valid and parsed.name == "demo" and parsed.description == "A demo skill."
    assert parsed.name_range == rng(1, 6, 1, 10)


def test_utf8_bom_is_skipped_and_positions_do_not_shift():
    parsed = check(b"\xef\xbb\xbf" + VALID.encode())
    assert parsed.diagnostics == ()
    assert parsed.name == "demo"
    assert parsed.name_range == rng(1, 6, 1, 10)  # the BOM takes no column on line 0 or after
    # the same for an editor buffer's text
    assert check("\ufeff" + VALID).diagnostics == ()


def test_a_bom_that_is_not_the_first_thing_is_not_skipped():
    # Only a *leading* BOM is skipped: after it the first line must be `---`.
    parsed = check(b"\n\xef\xbb\xbf" + VALID.encode())
    assert codes(parsed.diagnostics) == ["frontmatter-missing"]


def test_non_utf8_byte_is_an_encoding_error_at_its_position():
    data = b"---\nname: demo\ndescription: caf\xe9\n---\n"
    parsed = check(data)
    diag = only(parsed.diagnostics, "encoding")
    assert diag.severity == ERROR
    assert diag.range == rng(2, 16, 2, 17)  # "description: caf" is 16 characters
    assert "0xe9" in diag.message and "offset 31" in diag.message  # 15 bytes of lines 0-1, then 16
    assert not parsed.valid and parsed.name is None
    assert read_text(data, PATH).text is None


def test_encoding_position_counts_characters_not_bytes_and_ignores_the_bom():
    data = b"\xef\xbb\xbf---\nname: d\xc3\xa9\xf0\x9f\x98\x80\xff\n"
    diag = only(check(data).diagnostics, "encoding")
    # "name: dé😀" is 9 code points although it is 12 bytes
    assert diag.range == rng(1, 9, 1, 10)
    assert "0xff" in diag.message and "offset 20" in diag.message  # 3 (BOM) + 4 (---\n) + 13


def test_truncated_multibyte_sequence_at_end_of_file_is_an_encoding_error():
    diag = only(check(VALID.encode() + b"\xe2\x82").diagnostics, "encoding")
    assert diag.range == rng(5, 0, 5, 1)


# ------------------------------------------------------------------------------------------ line ends


def test_crlf_line_ends_everywhere():
    text = VALID.replace("\n", "\r\n")
    parsed = check(text.encode())
    assert parsed.diagnostics == ()
    assert parsed.description == "A demo skill."  # no stray \r in the value
    assert parsed.name_range == rng(1, 6, 1, 10)
    assert read_text(text, PATH).body == "# Demo\r\n"


def test_mixed_line_ends():
    text = "---\r\nname: demo\ndescription: |\r\n  one\n  two\r\n---\nbody\r\n"
    parsed = check(text)
    assert parsed.diagnostics == ()
    assert parsed.description == "one\ntwo\n"  # line breaks inside a block scalar are normalised to \n


def test_lone_cr_or_unicode_line_separator_inside_the_frontmatter_is_a_syntax_error_at_it():
    for odd, code_point in (("\r", "U+000D"), ("\u2028", "U+2028"), ("\x85", "U+0085"), ("\u2029", "U+2029")):
        parsed = check(f"---\nname: demo\ndescription: a{odd}b\n---\n")
        diag = only(parsed.diagnostics, "yaml-syntax")
        assert diag.range == rng(2, 14, 2, 15), odd
        assert code_point in diag.message


def test_odd_line_separators_in_the_body_are_fine():
    parsed = check("---\nname: demo\ndescription: d\n---\nbody\u2028more\rand more\x85\n")
    assert parsed.diagnostics == ()


# -------------------------------------------------------------------------------------- the --- block


@pytest.mark.parametrize(
    "text, first_line_length",
    [
        ("", 0),
        ("# Demo\n", 6),
        ("\n---\nname: demo\n---\n", 0),  # a blank line before the opening
        (" ---\nname: demo\ndescription: d\n---\n", 4),
        ("--- \nname: demo\ndescription: d\n---\n", 4),  # trailing space: the first line is not exactly ---
        ("----\nname: demo\ndescription: d\n---\n", 4),
        ("---name: demo\n", 13),
        ("--\n", 2),
    ],
)
def test_first_line_must_be_exactly_three_dashes(text, first_line_length):
    parsed = check(text)
    diag = only(parsed.diagnostics, "frontmatter-missing")
    assert len(parsed.diagnostics) == 1
    assert diag.severity == ERROR
    assert diag.range == rng(0, 0, 0, first_line_length)
    assert not parsed.valid


@pytest.mark.parametrize(
    "text, says",
    [
        ("# Sample\n\n---\nname: demo\ndescription: d\n---\n", "line 3"),
        ("\n---\nname: demo\ndescription: d\n---\n", "blank line"),
        ("\n\n---\nname: demo\ndescription: d\n---\n", "2 blank lines"),
        ("<!-- generated -->\n---\nname: demo\ndescription: d\n---\n", "line 2"),
    ],
)
def test_frontmatter_missing_after_text_or_blank_lines_says_so(text, says):
    diag = only(check(text).diagnostics, "frontmatter-missing")
    assert says in diag.message
    assert "before" in diag.message and "first line" in diag.message


@pytest.mark.parametrize("before", ["# Sample\n\n", "\n", "<!-- x -->\n\n\n"])
def test_the_fix_for_a_late_frontmatter_removes_what_is_above_it(before):
    from albedo_skills_ls.skills.authoring.fixes import quick_fixes

    skill = "---\nname: demo\ndescription: d\n---\n# Body\n"
    (fix,) = quick_fixes(PATH, before + skill)
    assert fix.title.startswith("Remove") and not fix.safe  # it deletes text the author wrote
    (edit,) = fix.edits
    assert edit.new_text == "" and edit.range == rng(0, 0, before.count("\n"), 0)
    assert check(skill).diagnostics == ()  # what is left checks clean


def test_frontmatter_missing_without_any_delimiter_keeps_the_plain_advice():
    diag = only(check("# Demo\n\nNo frontmatter at all.\n").diagnostics, "frontmatter-missing")
    assert "before" not in diag.message


def test_no_closing_line_is_unterminated_at_the_opening():
    for text in ("---\n", "---", "---\nname: demo\ndescription: d\n", "---\nname: demo\n----\n -- -\n"):
        parsed = check(text)
        diag = only(parsed.diagnostics, "frontmatter-unterminated")
        assert len(parsed.diagnostics) == 1
        assert diag.range == rng(0, 0, 0, 3)


def test_closing_line_may_have_trailing_spaces():
    for closing in ("---   ", "--- ", "---  \r"):
        parsed = check(f"---\nname: demo\ndescription: d\n{closing}\nbody\n")
        assert parsed.diagnostics == (), closing
        assert read_text(f"---\nname: demo\ndescription: d\n{closing}\nbody\n", PATH).body == "body\n"


def test_closing_line_is_the_first_exact_dash_line_and_the_rest_is_body():
    text = "---\nname: demo\ndescription: d\n---\n---\nmore\n---\n"
    skill = read_text(text, PATH)
    assert skill.frontmatter.end_line == 3
    assert skill.body == "---\nmore\n---\n"
    assert check(text).diagnostics == ()


def test_indented_dashes_inside_a_literal_block_do_not_end_the_frontmatter():
    text = "---\nname: demo\ndescription: |\n  above\n  ---\n  below\n---\nbody\n"
    assert fields(text)["description"] == "above\n---\nbelow\n"
    assert read_text(text, PATH).body == "body\n"
    assert check(text).diagnostics == ()


def test_indented_dashes_inside_a_plain_multiline_value_do_not_end_the_frontmatter():
    text = "---\nname: demo\ndescription: a\n  ---\n  b\n---\n"
    assert fields(text)["description"] == "a --- b"
    assert check(text).diagnostics == ()


def test_dashes_inside_a_quoted_value_do_not_end_the_frontmatter():
    text = '---\nname: demo\ndescription: "x\n  ---\n  y --- z"\n---\n'
    assert fields(text)["description"] == "x --- y --- z"


def test_a_line_that_is_exactly_dashes_ends_the_frontmatter_even_inside_a_block_scalar():
    # The line is exactly `---`, so it closes the block (YAML would read it as a document marker too):
    # the literal value stops there and the rest is body.
    text = "---\nname: demo\ndescription: |\n  first\n---\n  second\n---\n"
    assert fields(text)["description"] == "first\n"
    assert read_text(text, PATH).body == "  second\n---\n"
    assert check(text).diagnostics == ()


def test_empty_frontmatter_is_an_empty_mapping():
    skill = read_text("---\n---\nbody", PATH)
    assert isinstance(skill.frontmatter.root, Mapping) and skill.frontmatter.root.entries == ()
    parsed = check("---\n---\nbody")
    assert codes(parsed.diagnostics) == ["name-missing", "description-missing"]
    assert all(d.range == rng(0, 0, 0, 3) for d in parsed.diagnostics)


@pytest.mark.parametrize(
    "yaml, expected_range",
    [
        ("- a\n- b\n", rng(1, 0, 3, 0)),  # a block list: up to the closing line
        ("[a, b]\n", rng(1, 0, 1, 6)),
        ("just some text\n", rng(1, 0, 1, 14)),
        ("'quoted'\n", rng(1, 0, 1, 8)),
    ],
)
def test_top_level_must_be_a_mapping(yaml, expected_range):
    parsed = check(f"---\n{yaml}---\n")
    diag = only(parsed.diagnostics, "frontmatter-not-mapping")
    assert len(parsed.diagnostics) == 1
    assert diag.range == expected_range
    assert not parsed.valid


def test_frontmatter_of_exactly_the_byte_bound_is_read():
    head = "name: demo\ndescription: d\nlicense: "
    pad = MAX_FRONTMATTER_BYTES - len(head) - 1  # the license line's own "\n"
    block = head + "x" * pad + "\n"
    assert len(block.encode()) == MAX_FRONTMATTER_BYTES
    parsed = check(f"---\n{block}---\n")
    assert parsed.diagnostics == ()


def test_frontmatter_one_byte_over_the_bound_is_too_large():
    head = "name: demo\ndescription: d\nlicense: "
    block = head + "x" * (MAX_FRONTMATTER_BYTES - len(head)) + "\n"
    assert len(block.encode()) == MAX_FRONTMATTER_BYTES + 1
    parsed = check(f"---\n{block}---\nbody\n")
    diag = only(parsed.diagnostics, "frontmatter-too-large")
    assert len(parsed.diagnostics) == 1
    assert diag.range == rng(0, 0, 4, 3)  # from the opening to the closing `---`
    assert f"{MAX_FRONTMATTER_BYTES + 1:,}" in diag.message
    assert not parsed.valid


def test_frontmatter_bound_counts_utf8_bytes_not_characters():
    head = "name: demo\ndescription: d\nlicense: "
    # 2-byte characters: fewer characters than the bound, but one byte over it
    count = (MAX_FRONTMATTER_BYTES - len(head)) // 2
    block = head + "é" * count + "x" * ((MAX_FRONTMATTER_BYTES - len(head)) % 2) + "\n"
    assert len(block) < MAX_FRONTMATTER_BYTES < len(block.encode())
    assert codes(check(f"---\n{block}---\n").diagnostics) == ["frontmatter-too-large"]


def test_frontmatter_bound_counts_crlf_bytes():
    head = "name: demo\r\ndescription: d\r\nlicense: "
    ok = head + "x" * (MAX_FRONTMATTER_BYTES - len(head) - 2) + "\r\n"
    assert len(ok.encode()) == MAX_FRONTMATTER_BYTES
    assert check(f"---\r\n{ok}---\r\n").diagnostics == ()
    over = head + "x" * (MAX_FRONTMATTER_BYTES - len(head) - 1) + "\r\n"
    assert codes(check(f"---\r\n{over}---\r\n").diagnostics) == ["frontmatter-too-large"]


# ----------------------------------------------------------------------------------- failsafe schema


def test_failsafe_every_scalar_is_the_string_as_written():
    text = (
        "---\nname: demo\ndescription: null\nlicense: true\ncompatibility: 0x1F\n"
        "metadata:\n  int: 123\n  float: 1.50\n  tilde: ~\n  date: 2024-01-01\n  no: no\n  empty:\n---\n"
    )
    values = fields(text)
    assert values["description"] == "null"
    assert values["license"] == "true"
    assert values["compatibility"] == "0x1F"
    assert values["metadata"] == {
        "int": "123",
        "float": "1.50",
        "tilde": "~",
        "date": "2024-01-01",
        "no": "no",
        "empty": "",
    }
    assert check(text).diagnostics == ()


def test_numeric_name_is_the_string_and_can_match_a_numeric_folder():
    parsed = check("---\nname: 123\ndescription: d\n---\n", folder="123")
    assert parsed.diagnostics == ()
    assert parsed.name == "123"
    parsed = check("---\nname: 0123\ndescription: d\n---\n", folder="0123")
    assert parsed.name == "0123"  # not the integer 83 or 123


def test_null_and_true_descriptions_are_strings():
    assert check("---\nname: demo\ndescription: null\n---\n").description == "null"
    assert check("---\nname: demo\ndescription: true\n---\n").description == "true"
    assert check("---\nname: demo\ndescription: ~\n---\n").description == "~"


@pytest.mark.parametrize(
    "value, shown, expected_range",
    [
        ("!!int 1", "!!int", rng(3, 9, 3, 16)),
        ("!!bool true", "!!bool", rng(3, 9, 3, 20)),
        ("!!binary aGVsbG8=", "!!binary", rng(3, 9, 3, 26)),
        ("!!python/object:os.system x", "!!python/object:os.system", rng(3, 9, 3, 36)),
        ("!foo bar", "!foo", rng(3, 9, 3, 17)),
        ("!!set {a}", "!!set", rng(3, 9, 3, 16)),
    ],
)
def test_non_failsafe_tags_are_rejected_on_the_node(value, shown, expected_range):
    parsed = check(f"---\nname: demo\ndescription: d\nlicense: {value}\n---\n")
    diag = only(parsed.diagnostics, "yaml-tag")
    assert diag.range == expected_range
    assert f"`{shown}`" in diag.message
    assert not parsed.valid


def test_python_object_tag_constructs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    text = f"---\nname: demo\ndescription: !!python/object/apply:os.system ['touch {marker}']\n---\n"
    parsed = check(text)
    assert "yaml-tag" in codes(parsed.diagnostics)
    assert not marker.exists()


def test_failsafe_tags_are_accepted():
    text = (
        "---\nname: !!str demo\ndescription: !<tag:yaml.org,2002:str> d\nlicense: ! 42\n"
        "metadata: !!map\n  a: !!str b\n---\n"
    )
    parsed = check(text)
    assert parsed.diagnostics == ()
    assert parsed.name == "demo" and parsed.description == "d"
    assert fields(text)["license"] == "42"


def test_seq_tag_is_not_a_tag_error_but_a_type_error():
    parsed = check("---\nname: demo\ndescription: d\nlicense: !!seq [MIT]\n---\n")
    assert codes(parsed.diagnostics) == ["field-type"]


def test_tagged_key_is_rejected():
    parsed = check("---\n!!int 1: x\nname: demo\ndescription: d\n---\n")
    assert only(parsed.diagnostics, "yaml-tag").range == rng(1, 0, 1, 7)


def test_anchor_and_alias_are_rejected_where_they_stand():
    parsed = check("---\nname: &n demo\ndescription: *n\n---\n")
    anchor, alias = [d for d in parsed.diagnostics if d.code == "yaml-alias"]
    assert anchor.range == rng(1, 6, 1, 13) and "`&n`" in anchor.message
    assert alias.range == rng(2, 13, 2, 15) and "`*n`" in alias.message
    assert not parsed.valid


def test_merge_key_alias_is_rejected():
    parsed = check("---\nname: demo\ndescription: d\nbase: &b\n  k: v\nmetadata:\n  <<: *b\n---\n")
    found = [d for d in parsed.diagnostics if d.code == "yaml-alias"]
    assert [d.range.start.line for d in found] == [3, 6]


def test_duplicate_top_level_key_is_placed_on_the_second_key():
    parsed = check("---\nname: demo\ndescription: d\nname: demo\n---\n")
    diag = only(parsed.diagnostics, "yaml-duplicate-key")
    assert diag.range == rng(3, 0, 3, 4)
    assert "`name`" in diag.message
    assert not parsed.valid


def test_duplicate_key_inside_metadata_is_placed_on_the_second_key():
    parsed = check("---\nname: demo\ndescription: d\nmetadata:\n  owner: a\n  team: b\n  owner: c\n---\n")
    diag = only(parsed.diagnostics, "yaml-duplicate-key")
    assert diag.range == rng(6, 2, 6, 7)
    assert not parsed.valid


def test_same_key_in_different_maps_is_not_a_duplicate():
    text = "---\nname: demo\ndescription: d\nmetadata:\n  name: x\n  description: y\n---\n"
    assert check(text).diagnostics == ()


@pytest.mark.parametrize(
    "yaml, code, where",
    [
        # an unquoted `: ` in a one-line value: the whole value, which the quick fix quotes
        ("description: d\nfoo: bar: baz\n", "yaml-unquoted-colon", rng(3, 5, 3, 13)),
        ("description: d\n  bad: indent\n", "yaml-syntax", rng(3, 5, 3, 6)),
        ("description: 'never closed\n", "yaml-syntax", rng(2, 13, 2, 14)),  # the quote that was never closed
        ("description: [a, b\n", "yaml-syntax", rng(3, 0, 3, 1)),  # end of the block: on the closing line
        ("description: d\n\t- tab\n", "yaml-syntax", rng(3, 0, 3, 1)),
        ("description: \U0001f600\U0001f600: x\n", "yaml-unquoted-colon", rng(2, 13, 2, 18)),  # code points
        # libyaml stops after the last character of `*`: the range stays on the line (zero width at its end)
        ("description: d\n*\n", "yaml-syntax", rng(3, 1, 3, 1)),
        ("description: d\nlicense: &\n", "yaml-syntax", rng(3, 10, 3, 10)),
        ("description: d\r\n*\r\n", "yaml-syntax", rng(3, 1, 3, 1)),
    ],
)
def test_yaml_syntax_error_is_placed_where_the_parser_stopped(yaml, code, where):
    parsed = check(f"---\nname: demo\n{yaml}---\n")
    diag = only(parsed.diagnostics, code)
    assert len(parsed.diagnostics) == 1
    assert diag.range == where
    assert not parsed.valid and parsed.name is None


def test_control_character_is_a_syntax_error_at_the_character():
    parsed = check("---\nname: demo\ndescription: d\u00e9\U0001f600\x07x\n---\n")
    diag = only(parsed.diagnostics, "yaml-syntax")
    assert diag.range == rng(2, 16, 2, 17)  # "description: dé😀" is 16 code points (20 UTF-8 bytes)
    assert "U+0007" in diag.message
    assert len(parsed.diagnostics) == 1


def test_lone_surrogate_in_a_buffer_is_a_syntax_error_not_a_crash():
    # an editor buffer (JSON text) can carry a lone surrogate, which no file can
    parsed = check("---\nname: demo\ndescription: a\ud800b\n---\n")
    assert codes(parsed.diagnostics) == ["yaml-syntax"]
    assert not parsed.valid


def test_second_document_in_the_frontmatter_is_a_syntax_error():
    parsed = check("---\nname: demo\ndescription: d\n--- x\nlicense: y\n---\n")
    assert only(parsed.diagnostics, "yaml-syntax").range == rng(3, 0, 3, 3)


def test_document_end_marker_alone_is_accepted():
    assert check("---\nname: demo\ndescription: d\n...\n---\n").diagnostics == ()


def test_deep_nesting_is_a_syntax_error_not_a_crash():
    parsed = check("---\nname: " + "[" * 20000 + "\n---\n")
    assert codes(parsed.diagnostics) == ["yaml-syntax"]


# ------------------------------------------------------------------------- multi-line descriptions


@pytest.mark.parametrize(
    "block, value",
    [
        ("description: >\n  one\n  two\n\n  three\n", "one two\nthree\n"),
        ("description: >-\n  one\n  two\n", "one two"),
        ("description: |\n  one\n  two\n", "one\ntwo\n"),
        ("description: |-\n  one\n  two\n", "one\ntwo"),
        ("description: one\n  two\n  three\n", "one two three"),
        ("description:\n  one\n  two\n", "one two"),
        ('description: "one\n  two"\n', "one two"),
    ],
)
def test_folded_literal_and_plain_multiline_descriptions(block, value):
    parsed = check(f"---\nname: demo\n{block}---\n")
    assert parsed.diagnostics == ()
    assert parsed.description == value


def test_body_is_everything_after_the_closing_line():
    skill = read_text("---\nname: demo\ndescription: d\n---\n# Title\n\ntext", PATH)
    assert skill.frontmatter.end_line == 3
    assert skill.body == "# Title\n\ntext"
    assert read_text("# no frontmatter\n", PATH).body == ""


# The plain definitions `closing_line` and `lines_of` are fast versions of: they must agree everywhere.
def _closing_line_by_definition(lines):
    for number in range(1, len(lines)):
        line = lines[number].removesuffix("\n").removesuffix("\r")
        if line.rstrip(" \t") == "---":
            return number
    return None


_LINE_PIECES = ["---", "----", "--- ", "---\t", " ---", "---x", "a", "", "\r", "\x0b", "\u2028", "é"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_LINE_PIECES), max_size=8), st.booleans())
def test_closing_line_and_lines_of_agree_with_their_definitions(pieces, final_break):
    text = "---\n" + "\n".join(pieces) + ("\n" if final_break and pieces else "")
    lines = lines_of(text)
    by_definition = [part + "\n" for part in text.split("\n")]
    by_definition[-1] = by_definition[-1][:-1]
    assert lines == [line for line in by_definition if line]
    assert closing_line(lines) == _closing_line_by_definition(lines)


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(["---\n", "---\r\n", "--- \n", "---", "----\n", "a\n", ""]), st.lists(st.sampled_from(_LINE_PIECES), max_size=8))
def test_the_block_found_in_the_text_is_the_one_the_lines_define(opening, pieces):
    # split_and_parse finds the block by searching the text, without splitting it into lines: it must
    # place the frontmatter and the body exactly where the line definitions do
    text = opening + "\n".join(pieces)
    lines = lines_of(text)
    skill = read_text(text, PATH)
    opens = bool(lines) and lines[0].removesuffix("\n").removesuffix("\r") == "---"
    closing = _closing_line_by_definition(lines) if opens else None
    if closing is None:
        assert skill.frontmatter is None
        assert skill.body == ""
    else:
        assert skill.frontmatter.end_line == closing
        assert skill.body == "".join(lines[closing + 1 :])
    assert skill.lines == lines
