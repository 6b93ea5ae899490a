"""The engine behind the editor features: references (and their path safety), slash commands, authoring."""

from __future__ import annotations

import os

import pytest

from albedo_skills_ls.skills.catalog import references
from albedo_skills_ls.skills.language import slash
from albedo_skills_ls.skills.authoring.fields import field_documentation
from albedo_skills_ls.skills.authoring.fixes import quick_fixes
from albedo_skills_ls.skills.catalog.discovery import ParseCache, discover
from albedo_skills_ls.skills.core.model import Range
from albedo_skills_ls.skills.document.rules import check_document
from albedo_skills_ls.skills.document.reference_scan import find_references

FRONT = "---\nname: demo\ndescription: Does things.\n---\n"


def targets(body: str) -> list[tuple[str, str]]:
    return [(ref.kind, ref.target) for ref in find_references(FRONT + body)]


@pytest.mark.parametrize(
    "body, expected",
    [
        ("[a](references/a.md)", [("link", "references/a.md")]),
        ("![img](assets/x.png 'title')", [("link", "assets/x.png")]),
        ("[a](<references/my file.md>)", [("link", "references/my file.md")]),
        ("[a](references/my%20file.md#part?x)", [("link", "references/my file.md")]),
        ("[a](./references/../references/a.md)", [("link", "references/a.md")]),
        ("[id]: references/def.md", [("link", "references/def.md")]),
        ("[a](https://x.y/a.md) [m](mailto:a@b) [f](file:///etc/passwd) [p](//host/x.md) [h](#top)", []),
        ("[up](../x.md) [abs](/etc/passwd)", [("link", "../x.md"), ("link", "/etc/passwd")]),
        ("`scripts/run.py` and `./references/a.md`", [("code", "scripts/run.py"), ("code", "references/a.md")]),
        ("`run.py` `scripts/` `a b/c.py` `../x/y.md` `/etc/hosts` `scripts/*.py` `v1.2/3`", []),
        ("[`scripts/run.py`](scripts/run.py)", [("link", "scripts/run.py")]),
        ("```\n[a](references/a.md) `scripts/run.py`\n```\n~~~~\n`x/y.md`\n~~~~", []),
        ("`[a](references/a.md)`", []),
    ],
)
def test_what_counts_as_a_reference(body, expected):
    assert targets(body) == expected


def test_the_frontmatter_is_not_scanned_and_ranges_are_code_points():
    text = "---\nname: demo\ndescription: see [a](references/a.md)\n---\n😀 [b](references/b.md)\n"
    (ref,) = find_references(text)
    assert ref.range == Range.of(4, 6, 4, 21)  # the emoji is one code point
    assert find_references("---\nname: x\n[a](b/c.md)\n") == []  # unterminated: no body
    assert [r.target for r in find_references("no frontmatter [a](b/c.md)")] == ["b/c.md"]


def test_check_document_keeps_references_for_later_checks():
    parsed = check_document(FRONT + "[a](references/a.md)\n", "/x/demo/SKILL.md", "demo")
    assert [r.target for r in parsed.references] == ["references/a.md"]
    assert parsed.valid


def test_missing_and_outside(tmp_path):
    folder = tmp_path / "demo"
    (folder / "references").mkdir(parents=True)
    (folder / "references/a.md").write_text("a")
    (tmp_path / "secret.md").write_text("s")
    os.symlink(tmp_path / "secret.md", folder / "references/abs-link.md")
    os.symlink("../../secret.md", folder / "references/rel-link.md")
    os.symlink("a.md", folder / "references/inner-link.md")
    os.symlink("loop", folder / "references/loop")
    body = (
        "[a](references/a.md) [b](references/b.md) [up](../secret.md) [abs](/etc/passwd)\n"
        "[l1](references/abs-link.md) [l2](references/rel-link.md) [l3](references/inner-link.md)\n"
        "[loop](references/loop) `src/main.py` `scripts/x.py` `references/a.md/deeper.md`\n"
    )
    path = str(folder / "SKILL.md")
    found = references.check_references(path, find_references(FRONT + body))
    assert [(d.code, d.range.start.line, d.message.split("`")[1]) for d in found] == [
        ("reference-missing", 4, "references/b.md"),
        ("reference-outside", 4, "../secret.md"),
        ("reference-outside", 4, "/etc/passwd"),
        ("reference-outside", 5, "references/abs-link.md"),
        ("reference-outside", 5, "references/rel-link.md"),
        ("reference-missing", 6, "references/loop"),
        ("reference-missing", 6, "scripts/x.py"),
        ("reference-missing", 6, "references/a.md/deeper.md"),
    ]
    # a missing code span is only information (docs/design.md#7-what-real-skills-taught): code spans are often examples
    assert [d.severity for d in found] == ["warning"] * 6 + ["information"] * 2
    links = references.document_links(path, FRONT + body)
    assert [link.reference.target for link in links] == ["references/a.md", "references/inner-link.md"]
    assert links[1].target == str(folder / "references/inner-link.md")


def test_nothing_outside_the_skill_folder_is_examined(tmp_path, monkeypatch):
    folder = tmp_path / "skills" / "demo"
    (folder / "references").mkdir(parents=True)
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    os.symlink(outside, folder / "references/out")
    os.symlink("../../../outside/deep", folder / "references/rel-out")
    examined: list[str] = []
    real_lstat, real_readlink = os.lstat, os.readlink

    def lstat(p, *args, **kwargs):
        examined.append(os.fspath(p))
        return real_lstat(p, *args, **kwargs)

    def readlink(p, *args, **kwargs):
        examined.append(os.fspath(p))
        return real_readlink(p, *args, **kwargs)

    real_folder = os.path.realpath(folder)
    monkeypatch.setattr(os, "lstat", lstat)
    monkeypatch.setattr(os, "readlink", readlink)
    for target in ("references/out/deep/x.md", "references/rel-out/x.md", "../outside/deep", "/etc/passwd"):
        assert references.resolve(real_folder, target) == ("outside", None), target
    assert examined and all(p.startswith(real_folder + os.sep) for p in examined), examined


def test_discovery_checks_references_at_every_examination(tmp_path):
    ws = tmp_path / "ws"
    folder = ws / ".agents/skills/demo"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(FRONT + "Read [the guide](references/guide.md).\n")
    cache = ParseCache()
    first = discover(str(ws), str(tmp_path / "home"), cache=cache)
    assert [d.code for d in first.diagnostics] == ["reference-missing"]
    assert first.skills[0].name == "demo"  # a warning keeps the skill
    (folder / "references").mkdir()
    (folder / "references/guide.md").write_text("# Guide\n")
    second = discover(str(ws), str(tmp_path / "home"), cache=cache)
    assert cache.hits == 1  # SKILL.md was not parsed again...
    assert second.diagnostics == ()  # ...but its references were checked again


@pytest.mark.parametrize(
    "text, line, character, expected",
    [
        ("/de", 0, 3, ("command", "/de", Range.of(0, 0, 0, 3))),
        ("  \t/", 0, 4, ("command", "/", Range.of(0, 3, 0, 4))),
        ("😀\n/de", 1, 3, ("command", "/de", Range.of(1, 0, 1, 3))),
        ("/reload ", 0, 8, ("argument", "/reload", Range.of(0, 8, 0, 8))),
        ("/reload se", 0, 10, ("argument", "/reload", Range.of(0, 8, 0, 10))),
        ("and/or", 0, 4, None),
        ("src/x", 0, 4, None),
        ("日本 /x", 0, 5, None),
        ("/usr/bin", 0, 8, None),
        ("/reload session now", 0, 19, None),
        ("```\n/de", 1, 3, None),
    ],
)
def test_typing_at(text, line, character, expected):
    typing = slash.typing_at(text, line, character)
    assert (None if typing is None else (typing.kind, typing.command, typing.replace)) == expected


def test_command_uses():
    text = "/demo x\n  /other\nand/or\n/usr/bin/env\n/\n```\n/fenced\n```\n/after"
    assert [(u.command, u.range) for u in slash.command_uses(text)] == [
        ("/demo", Range.of(0, 0, 0, 5)),
        ("/other", Range.of(1, 2, 1, 8)),
        ("/after", Range.of(8, 0, 8, 6)),
    ]



def test_check_chat_reports_only_unknown_commands_at_message_starts(tmp_path):
    ws = tmp_path / "ws"
    folder = ws / ".agents/skills/demo"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(FRONT)
    catalog = discover(str(ws), str(tmp_path / "home"), user_roots=False)
    text = "/demo x\n/skill:demo\n/help\n  /nope now\nand/or /gone\n```\n/fenced\n```\n/skill:gone\n"
    found = slash.check_chat(catalog, "chat.md", text)
    assert [(d.code, d.severity, d.range) for d in found] == [
        ("unknown-command", "information", Range.of(3, 2, 3, 7)),
        ("unknown-command", "information", Range.of(8, 0, 8, 11)),
    ]
    assert found[0].message.startswith("unknown command `/nope`: check commands.catalog")
    assert found[0].path == "chat.md"

def test_the_quick_fix_template_validates_for_any_folder_name():
    for folder in ("pdf-tools", "My Skill", "日本", "--"):
        path = f"/skills/{folder}/SKILL.md"
        (fix,) = quick_fixes(path, "Body only\n")
        assert fix.diagnostic.code == "frontmatter-missing"
        fixed = fix.edits[0].new_text + "Body only\n"
        parsed = check_document(fixed, path, folder)
        assert "frontmatter-missing" not in [d.code for d in parsed.diagnostics]
        assert "description-missing" not in [d.code for d in parsed.diagnostics]
        assert all(d.code == "name-mismatch" for d in parsed.diagnostics if d.severity == "error"), folder


def test_field_documentation_names_the_bounds():
    from albedo_skills_ls.skills.core import limits

    assert str(limits.MAX_NAME_CHARS) in field_documentation("name")
    assert "Albedo ignores this field" in field_documentation("model")
    assert field_documentation("zzz-nothing-close") is None
