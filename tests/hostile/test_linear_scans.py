"""No input makes a scan of file text super-linear (docs/design.md#8-trust-boundaries).

One adversarial line per pattern that runs over file text, about 1 MiB long (the size of the largest
`SKILL.md`): a scan that restarts from every start position would need minutes to hours on it, a linear one
well under a second. `finishes` is a hang guard, not a timing assertion.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest
from lsprotocol import types

from albedo_skills_ls.skills.document import markdown_spans, reference_scan, rules
from albedo_skills_ls.skills.language import mention_scan, slash, unknown_commands
from albedo_skills_ls.skills.authoring.completion import complete_frontmatter
from albedo_skills_ls.skills.authoring.hover import hover_field
from albedo_skills_ls.skills.authoring.outline import outline
from albedo_skills_ls.skills.document.frontmatter import split_and_parse
from albedo_skills_ls.skills.document.markdown_spans import code_spans, inline_links
from albedo_skills_ls.skills.catalog.discovery import discover
from lsp.harness import uri, valid, write_skill

from .guard import HANG_GUARD_SECONDS, finishes

SIZE = 1024 * 1024 - 4096  # one line that still fits in a SKILL.md with its frontmatter


def _repeat(unit: str) -> str:
    return unit * (SIZE // len(unit))


def _growing_backtick_runs() -> str:
    """Backtick runs of lengths 1, 2, 3... once each: no run has a closer, and each failed opener would scan
    to the end of the line."""
    parts, total, length = [], 0, 1
    while total < SIZE:
        parts.append("`" * length + "a")
        total += length + 1
        length += 1
    return "".join(parts)


# Lines aimed at the inline-link and code-span scans (the issue's `[\` first) and at the expressions
# that stay in reference_scan.py, markdown_spans.py, slash.py and authoring/.
LINK_LINES = {
    "backslash-bracket": _repeat("[\\"),
    "open-brackets": _repeat("["),
    "bracket-paren": _repeat("]("),
    "escaped-brackets-then-destination": "[" + _repeat("\\[") + "](" + _repeat("a")[:1000],
    "many-texts-one-long-destination": _repeat("[\\[")[: SIZE // 2] + "](" + _repeat("b")[: SIZE // 2],
    "unclosed-angle": _repeat("[a](<"),
    "unclosed-title": _repeat('[a](b "'),
    "unclosed-paren-title": _repeat("[a](b ("),
    "nested-parens": _repeat("[a](b(c"),
    "images": _repeat("!["),
}
CODE_LINES = {
    "growing-runs": _growing_backtick_runs(),
    "one-run": _repeat("`"),
    "alternating": _repeat("`a``"),
    "path-like": "`" + _repeat("a/") + "!`",
    "dots": "`" + _repeat("a.") + "`",
}
DEFINITION_LINES = {
    "unclosed-label": "[" + _repeat("\\["),
    "long-target": "[a]: " + _repeat("b"),
    "scheme-like-target": "[a](" + _repeat("a") + ":)",
}


def scan_line(line: str) -> None:
    reference_scan.line_references(line)


def check_whole_skill(line: str) -> None:
    rules.check_document(f"---\n{valid('demo')}\n---\n{line}\n", "/nowhere/demo/SKILL.md", "demo")


@pytest.mark.parametrize("shape", sorted(LINK_LINES))
def test_inline_link_scan_is_linear(shape):
    line = LINK_LINES[shape]
    finishes(inline_links, line)
    finishes(check_whole_skill, line)


@pytest.mark.parametrize("shape", sorted(CODE_LINES))
def test_code_span_scan_is_linear(shape):
    line = CODE_LINES[shape]
    finishes(code_spans, line)
    finishes(check_whole_skill, line)


@pytest.mark.parametrize("shape", sorted(DEFINITION_LINES))
def test_definition_and_target_expressions_are_linear(shape):
    finishes(scan_line, DEFINITION_LINES[shape])


@pytest.mark.parametrize("shape", sorted({**LINK_LINES, **CODE_LINES, **DEFINITION_LINES}))
def test_reading_a_line_into_its_spans_is_linear(shape):
    line = {**LINK_LINES, **CODE_LINES, **DEFINITION_LINES}[shape]
    finishes(markdown_spans.line_spans, line)


def distinct_reference_lines(count: int) -> None:
    # no line repeats, so none is read from what an earlier line gave: each is read into its spans
    body = "".join(f"[`a/{number}.md`](b/{number}.md) `c/{number}.py` [d]: e/{number}.md\n" for number in range(count))
    reference_scan.find_references(body, (0, 0))


def test_a_body_of_distinct_reference_lines_is_read_in_linear_time():
    finishes(distinct_reference_lines, SIZE // 60)


def many_links_and_code_spans(count: int) -> None:
    # every code span inside a link's text is checked against the links: by bisection, not pairwise
    reference_scan.line_references("[`a/b.md`](c.md) " * count)


def test_code_spans_inside_many_links_are_matched_without_a_pairwise_scan():
    finishes(many_links_and_code_spans, SIZE // 17)


def fences(line: str) -> None:
    markdown_spans.fenced_lines([line, line + "\n", "```\n"] * 3)


@pytest.mark.parametrize("line", [_repeat(" ") + "```", _repeat("`"), _repeat("~ ")])
def test_fence_expression_is_linear(line):
    finishes(fences, line)


def slash_line(line: str) -> None:
    slash.command_uses(line)
    slash.typing_at(line, 0, len(line))


@pytest.mark.parametrize("line", ["/" + _repeat("a"), "/x" + _repeat(" a"), _repeat(" \t") + "/x y", "/" + _repeat("/")])
def test_slash_command_expressions_are_linear(line):
    finishes(slash_line, line)


def mentions_line(line: str) -> None:
    mention_scan.scan_text(line, "x", "/w/o", [])


# every `/` a token to look at, each standing alone or stopped at once; code spans and links beside them
@pytest.mark.parametrize(
    "line",
    [_repeat("/x "), _repeat("(/x) "), _repeat("`/x` /x "), _repeat("[/x](/x) /x "), _repeat("a/"), _repeat("/skill:"),
     _repeat("/x."), _repeat(" /x-"), "/" + _repeat("x")],
)
def test_command_token_scan_is_linear(line):
    finishes(mentions_line, line)


@pytest.fixture(scope="module")
def many_commands(tmp_path_factory):
    """A catalog of 100 skills, `demo` among them, with names of every length from 4 to 64."""
    root = tmp_path_factory.mktemp("commands") / ".agents" / "skills"
    names = ["demo"] + [(f"s{index:02d}" + "x" * 64)[: 4 + (index * 7) % 61] for index in range(99)]
    for name in names:
        write_skill(root, name, valid(name))
    return unknown_commands.commands_of(discover(str(root.parent.parent), user_roots=False))


# 100,000 `/x` and worse: each distinct word is looked up once, through its deletions, whatever the catalog
@pytest.mark.parametrize(
    "text",
    ["/x " * 100_000, "/x\n" * 100_000, " ".join(f"/w{index:05d}" for index in range(100_000)),
     " ".join(["/demox"] * 100_000), _repeat("/skill:a "), "/" + _repeat("a") + " now"],
    ids=["x-one-line", "x-per-line", "distinct", "near-misses", "skill-form", "one-long-word"],
)
def test_command_unknown_is_linear(text, many_commands):
    finishes(unknown_commands.check_text, many_commands, "/w/AGENTS.md", text)


def frontmatter_line(line: str) -> None:
    text = f"---\n{line}\n---\nbody\n"
    complete_frontmatter(text, 1, len(line), "demo")
    hover_field(text, 1, 0)
    split_and_parse(text, "/x/SKILL.md")


@pytest.mark.parametrize(
    "line",
    [_repeat("a") + ":", "a:" + _repeat(" \t") + "x", _repeat("a-"), _repeat("\r"), "a" + _repeat(" ") + "x",
     "-a" + _repeat("\t") + "x:y"],
)
def test_frontmatter_expressions_are_linear(line):
    finishes(frontmatter_line, line)


def headings(line: str) -> None:
    outline(f"---\n{valid('demo')}\n---\n{line}\n", "/x/demo/SKILL.md")


@pytest.mark.parametrize("line", ["# a" + _repeat(" ") + "x", "#" + _repeat(" #"), "## " + _repeat("a \t")])
def test_heading_scan_is_linear(line):
    finishes(headings, line)


def names(name: str) -> None:
    rules.name_problem(name)
    rules.suggest_name(name)


@pytest.mark.parametrize("name", [_repeat("a-") + "!", _repeat("-a") + "A", _repeat("--") + "x"])
def test_name_expressions_are_linear(name):
    finishes(names, name)


# ----------------------------------------------------------------------------------- CLI and server


def test_cli_check_of_a_skill_with_a_hostile_line_finishes(tmp_path):
    write_skill(tmp_path / ".agents/skills", "demo", valid("demo"), "# Demo\n\n" + LINK_LINES["backslash-bracket"] + "\n")
    (tmp_path / "home").mkdir()
    finished = subprocess.run(
        [sys.executable, "-m", "albedo_skills_ls.cli", "check"],
        capture_output=True,
        cwd=tmp_path,
        env={**os.environ, "HOME": str(tmp_path / "home")},
        timeout=HANG_GUARD_SECONDS,
    )
    assert finished.returncode == 0, finished.stdout.decode()[-2000:] + finished.stderr.decode()[-2000:]


async def test_server_answers_after_a_hostile_buffer_and_a_hostile_installed_skill(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    hostile = LINK_LINES["backslash-bracket"]
    write_skill(ws / ".agents/skills", "installed", valid("installed"), "# I\n\n" + hostile + "\n")  # discovery
    path = write_skill(ws / ".agents/skills", "demo", valid("demo"), "# Demo\n")
    session = await asyncio.wait_for(servers([ws], home), HANG_GUARD_SECONDS)
    published = session.expect(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    session.open(path, f"---\n{valid('demo')}\n---\n{hostile}\n{CODE_LINES['growing-runs'][:200000]}\n")
    await asyncio.wait_for(published, HANG_GUARD_SECONDS)
    symbols = await asyncio.wait_for(
        session.client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri(path)))
        ),
        HANG_GUARD_SECONDS,
    )
    assert symbols
    catalog = await asyncio.wait_for(session.command("commands.catalog"), HANG_GUARD_SECONDS)
    assert {"/demo", "/installed"} <= {entry["command"] for entry in catalog}
