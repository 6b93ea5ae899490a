"""A `/command` standing alone (skills/language/command_tokens.py), at every boundary the rule names: each
character class that may stand before the `/` and after the name, against each that may not, crossed, for
the plain and the `/skill:` form, at a line's ends and inside a sentence. A mention of skill `demo` is what
`scan_text` finds, the reader rename, references and the lens share."""

from __future__ import annotations

import itertools

import pytest

from albedo_skills_ls.skills.language.command_tokens import CLOSING, OPENING, line_commands, standalone_tokens
from albedo_skills_ls.skills.language.mention_scan import scan_text

# (label, text): what may stand before the `/`; "" is the line start
BEFORE_YES = [("line start", ""), ("space", " "), ("tab", "\t")] + [(f"opening {c}", c) for c in sorted(OPENING)]
BEFORE_NO = [("letter", "a"), ("capital", "A"), ("digit", "1"), ("slash", "/"), ("colon", ":"), ("hyphen", "-"),
             ("dot", "."), ("non-ASCII letter", "é"), ("closing )", ")")]
# what may stand after the name; "" is the line end ("." + space: a sentence ends)
AFTER_YES = [("line end", ""), ("space", " "), ("tab", "\t"), ("full stop then space", ". ")] + [
    (f"closing {c}", c) for c in sorted(CLOSING)
]
AFTER_NO = [("slash", "/x"), ("lone slash", "/"), ("hyphen and name", "-extra"), ("lone hyphen", "-"),
            ("dot and name", ".md"), ("colon and name", ":x"), ("underscore and name", "_x"), ("letter", "s"),
            ("digit", "2"), ("non-ASCII letter", "é"), ("opening (", "("), ("backslash", "\\")]


def _cases():
    for (before_label, before), (after_label, after) in itertools.product(BEFORE_YES + BEFORE_NO, AFTER_YES + AFTER_NO):
        expected = (before_label, before) in BEFORE_YES and (after_label, after) in AFTER_YES
        for form in ("/demo", "/skill:demo"):
            yield pytest.param(before, form, after, expected, id=f"{before_label}|{form}|{after_label}")


@pytest.mark.parametrize(("before", "form", "after", "expected"), list(_cases()))
def test_a_command_stands_alone_exactly_between_the_listed_boundaries(before, form, after, expected):
    line = before + form + after
    column = len(before) + len(form) - len("demo")
    # alone on the line, then inside a sentence (where the line's ends are words instead)
    texts = [line] + ([f"run {line} now"] if before and after.strip() == after and after else [])
    for text in texts:
        shift = text.index(line)
        found = [(item.kind, item.range.start.character) for item in scan_text(text, "demo", "/w/o", [])]
        assert found == ([("command", shift + column)] if expected else []), repr(text)


@pytest.mark.parametrize(
    "text",
    ["/demo", "run /demo.", "`/demo`", "`` /demo x ``", "/skill:demo", "(/demo)"],
)
def test_a_name_no_skill_has_is_never_a_mention(text):
    assert scan_text(text, "showcase", "/w/o", []) == []
    assert scan_text(text.replace("demo", "demo-extra"), "demo", "/w/o", []) == []


def test_fenced_code_holds_no_mention_whatever_it_says():
    body = "run /demo.\n```\nrun /demo.\n(/demo) `/demo`\n```\n~~~md\n/demo\n~~~\nthen /demo\n"
    assert [item.range.start.line for item in scan_text(body, "demo", "/w/o", [])] == [0, 8]


@pytest.mark.parametrize(
    ("line", "kinds"),
    [
        ("`/demo` and `/demo merge` and `` /demo ``", ["code", "code", "code"]),
        ("`ls /demo -la` then /demo", ["command"]),  # inside a code span only its first token counts
        ("`/demo/x` `/demo.md` `/demo-extra`", []),
        ("[run /demo](/demo) then /demo.", ["command", "command"]),  # a destination is a path
        ("[x]: /demo", []),  # so is a link reference definition's
        ("see [/demo](../demo/SKILL.md)", ["command"]),
    ],
)
def test_code_spans_and_links_narrow_the_rule(line, kinds):
    assert [command.kind for command in line_commands(line) if command.token.name == "demo"] == kinds


def test_a_token_ends_where_its_word_ends_and_the_next_slash_is_read_afresh():
    tokens = standalone_tokens("/a /b/c (/skill:d) /skill: /skill:e.f /e")
    # `/skill:` before a space is the word `skill` ending a clause; `/skill:e.f` goes on as a file name
    assert [(token.written, token.slash, token.start) for token in tokens] == [
        ("/a", 0, 1), ("/skill:d", 9, 16), ("/skill", 19, 20), ("/e", 38, 39)
    ]
