"""The body read one way down: a prose line into its spans (markdown_spans.py), the spans into references
(reference_scan.py), each distinct line read once and every occurrence placed on its own line, CRLF as LF.

The scanners' agreement with the regular expressions that specify them is tested in test_inline_scan.py,
fences in test_markdown.py, the shapes of references in test_reference_shapes.py; their linearity on
hostile lines in tests/hostile/test_linear_scans.py.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from albedo_skills_ls.skills.document.markdown_spans import Span, line_spans
from albedo_skills_ls.skills.document.reference_scan import find_references, line_references

from cli_helpers import run_cli, valid, write_skill


def test_a_line_reads_into_its_code_spans_links_and_images_with_exact_columns():
    line = 'See `a/b.md` and [x](<c d.md> "t") then ![i](e.png)'
    spans = line_spans(line)
    assert [line[span.start : span.end] for span in spans.code] == ["`a/b.md`"]
    assert [line[span.begin : span.stop] for span in spans.code] == ["a/b.md"]
    assert [line[span.start : span.end] for span in spans.links] == ['[x](<c d.md> "t")', "![i](e.png)"]
    assert [spans.plain[span.begin : span.stop] for span in spans.links] == ["c d.md", "e.png"]
    assert spans.definition is None


def test_links_are_read_with_the_code_spans_blanked_so_a_link_inside_code_is_none():
    line = "`[x](y.md)` [z](w.md)"
    spans = line_spans(line)
    assert spans.code == [Span(0, 11, 1, 10)]
    assert spans.plain == " " * 11 + " [z](w.md)"  # same length: the links keep the line's columns
    assert spans.links == [Span(12, 21, 16, 20)]


def test_a_definition_is_the_whole_line_and_a_footnote_is_none():
    assert line_spans('[id]: refs/x.md "Title"').definition == Span(0, 23, 6, 15)
    assert line_spans("  [id]: <refs/a b.md>").definition == Span(0, 21, 9, 20)
    assert line_spans("[^1]: refs/x.md").definition is None
    assert line_spans("[id]: refs/x.md and more").definition is None


def test_a_line_without_brackets_or_backticks_holds_no_span():
    spans = line_spans("plain words, a/b.md and (c)")
    assert (spans.code, spans.links, spans.definition) == ([], [], None)


def test_references_of_a_line_come_in_column_order_with_a_code_span_in_a_link_text_dropped():
    line = "[`scripts/a.py`](scripts/a.py) then `references/b.md` and [c](assets/c.png)"
    assert [(found.kind, found.written, found.begin, found.end) for found in line_references(line)] == [
        ("link", "scripts/a.py", 17, 29),
        ("code", "references/b.md", 37, 52),
        ("link", "assets/c.png", 62, 74),
    ]


FRONT = f"---\n{valid('demo')}---\n"  # the body starts on line 4


def test_a_repeated_line_is_placed_on_each_of_its_lines_and_not_inside_a_fence():
    repeated = "See [g](reference/g.md) and `reference/g.md`.\n"
    text = FRONT + repeated * 3 + "```\n" + repeated + "```\n" + repeated
    found = find_references(text)
    assert [(r.kind, r.range.start.line, r.range.start.character, r.range.end.character) for r in found] == [
        (kind, line, start, end)
        for line in (4, 5, 6, 10)
        for kind, start, end in (("link", 8, 22), ("code", 29, 43))
    ]


_PIECES = ["See ", "[a](refs/a.md)", "`scripts/b.py`", "[id]: refs/c.md", "```", "~~~", "`", "[", "](", "x", " ", "é", "\t"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=6).map("".join), max_size=10))
def test_a_crlf_file_gives_the_references_of_its_lf_twin_at_the_same_places(lines):
    lf = FRONT + "".join(line + "\n" for line in lines)
    crlf = lf.replace("\n", "\r\n")
    assert find_references(crlf) == find_references(lf)


def test_the_cli_lists_every_occurrence_of_a_repeated_missing_link_at_its_place_in_a_crlf_file(tmp_path):
    workspace = tmp_path / "ws"
    root = workspace / ".agents" / "skills"
    path = write_skill(root, "demo", valid("demo"), "")
    (root / "demo" / "references").mkdir()
    (root / "demo" / "references" / "g.md").write_text("# G\n", encoding="utf-8")
    body = "Read [g](reference/g.md) first.\n" * 50
    path.write_bytes((path.read_text(encoding="utf-8") + body).replace("\n", "\r\n").encode("utf-8"))
    result = run_cli("check", workspace, "--no-user-roots", "--format", "json", home=tmp_path)
    assert result.returncode == 0, result.stderr
    found = [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "reference-missing"]
    assert [(d["range"]["start"]["line"], d["range"]["start"]["character"], d["range"]["end"]["character"]) for d in found] == [
        (line, 9, 23) for line in range(4, 54)
    ]
    assert {d["message"] for d in found} == {
        "`reference/g.md` does not exist in the skill folder, but `references/g.md` does (in `references/`, not "
        "`reference/`): fix the path"
    }
