"""The linear code-span and inline-link scanners find exactly what the obvious regular expressions find.

The expressions are kept here, as the specification of the scanners: they are right, only too slow on
hostile lines (tests/hostile/test_linear_scans.py).
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from albedo_skills_ls.skills.document.markdown_spans import code_spans, inline_links

CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]\\]|\\.)*\]"
    r"\(\s*(?:<(?P<angle>[^<>\n]*)>|(?P<bare>(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+))"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)"
)

# the characters the constructs are made of, plus a little prose
lines = st.text(alphabet="[]()<>`\\!\"' ab/.", max_size=60)


def expected_spans(line):
    return [(m.start(), m.end(), m.start(2), m.end(2)) for m in CODE_SPAN.finditer(line)]


def expected_links(line):
    found = []
    for m in INLINE_LINK.finditer(line):
        group = "angle" if m.group("angle") is not None else "bare"
        found.append(((m.start(), m.end(), m.start(group), m.end(group)), group))
    return found


@settings(max_examples=3000, deadline=None)
@given(lines)
def test_code_spans_match_the_expression(line):
    assert [tuple(span) for span in code_spans(line)] == expected_spans(line)


@settings(max_examples=3000, deadline=None)
@given(lines)
def test_inline_links_match_the_expression(line):
    assert [(tuple(span), group) for span, group in inline_links(line)] == expected_links(line)


def test_examples_of_each_shape():
    line = "see ![alt](<a b.png> 'title') and [x](y/z.md \"t\") `a` ``b`c`` [\\]](q(r)s) [n]"
    assert [tuple(s) for s in code_spans(line)] == expected_spans(line)
    assert len(expected_spans(line)) == 2
    assert [(tuple(s), g) for s, g in inline_links(line)] == expected_links(line)
    assert [g for _s, g in inline_links(line)] == ["angle", "bare", "bare"]


# The heading and frontmatter-key scanners of skills/authoring, against the expressions they replace.
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
TOP_KEY = re.compile(r"^([^\s#:'\"\-?][^:]*?|-[^\s:][^:]*?)[ \t]*:(?:[ \t]|$)")


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=" \t#a", max_size=20))
def test_atx_heading_matches_the_expression(line):
    from albedo_skills_ls.skills.authoring.outline import atx_heading

    match = ATX.match(line)
    expected = (len(match.group(1)), (match.group(2) or "").strip()) if match else None
    assert atx_heading(line) == expected


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=" \t:-#'\"?ab\u00a0\x1c", max_size=16))
def test_top_key_matches_the_expression(line):
    from albedo_skills_ls.skills.authoring.fields import top_key

    match = TOP_KEY.match(line)
    assert top_key(line) == (match.group(1) if match else None)
