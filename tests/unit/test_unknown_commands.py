"""`command-unknown` (skills/language/unknown_commands.py): a `/word` standing alone that runs nothing, one edit
from a command that does; never a path, never code, never a word near no command."""

from __future__ import annotations

from pathlib import Path

import pytest

from albedo_skills_ls.skills.authoring.fixes import quick_fixes
from albedo_skills_ls.skills.catalog.discovery import discover
from albedo_skills_ls.skills.core.limits import COMMAND_TYPO_EDITS, MIN_TYPO_COMMAND_CHARS
from albedo_skills_ls.skills.core.model import Range
from albedo_skills_ls.skills.language.unknown_commands import (
    MAX_SUGGESTIONS,
    NEVER_COMMANDS,
    check_text,
    commands_of,
    deletions,
    edit_distance,
)

SKILLS = ("demo", "temp", "user", "etch", "usrs", "binx", "abcdefgh")


def catalog_of(tmp_path: Path, names=SKILLS):
    for name in names:
        folder = tmp_path / "ws/.agents/skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: The {name} skill.\n---\nBody.\n")
    return discover(str(tmp_path / "ws"), str(tmp_path / "home"), user_roots=False)


@pytest.fixture()
def commands(tmp_path):
    return commands_of(catalog_of(tmp_path))


def found(commands, text, **options):
    return [(u.diagnostic.range, u.diagnostic.message, u.replacements()) for u in check_text(commands, "f.md", text, **options)]


def test_a_mistyped_command_in_a_sentence_warns_with_what_was_meant(commands):
    (range_, message, replacements), = found(commands, "Before anything else, run /demoo first.\n")
    assert range_ == Range.of(0, 26, 0, 32)  # the whole token as typed: what the fix replaces
    assert message == "`/demoo` is no command here; did you mean `/demo`?"
    assert replacements == ("/demo",)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("/dmeo", "/demo"), ("/dem", "/demo"), ("/demx", "/demo"), ("/Demo", "/demo"), ("/skill:deme", "/skill:demo"),
     ("/hlep", "/help")],  # swapped, dropped, changed, letter case, the skill form, a built-in
)
def test_each_kind_of_slip_is_one_edit(commands, typed, meant):
    assert [replacements for _r, _m, replacements in found(commands, f"then {typed}.\n")] == [(meant,)]


@pytest.mark.parametrize("word", sorted(NEVER_COMMANDS))
def test_the_top_folders_of_a_file_system_never_warn(commands, word):
    # `temp`, `user`, `etch`, `usrs`, `binx` are skills one edit from `/tmp`, `/usr`, `/etc`, `/bin`
    assert found(commands, f"Write to /{word} and /{word.upper()}, or ({word}).\n/{word}\n") == []


@pytest.mark.parametrize("text", ["Deploy with /deploy now.", "see /api and /v1", "/x /y /zz"])
def test_a_word_near_no_command_is_text(commands, text):
    assert found(commands, text) == []


@pytest.mark.parametrize(
    "text",
    ["`/demoo`", "`/demoo merge`", "```\n/demoo\n```", "~~~\nrun /demoo\n~~~", "/demoo/x", "/demoo.md", "a/demoo",
     "https://x.org/demoo", "[x](/demoo)", "/demo", "/skill:demo"],
)
def test_code_paths_and_known_commands_never_warn(commands, text):
    assert found(commands, text) == []


def test_a_skill_frontmatter_is_data_its_body_is_read(commands):
    text = "---\nname: x\ndescription: Runs after /demoo.\n---\nRun /demoo.\n"
    assert [r.start.line for r, _m, _x in found(commands, text, skip_frontmatter=True)] == [4]
    assert [r.start.line for r, _m, _x in found(commands, text)] == [2, 4]  # an agent or chat file: all of it


def test_one_edit_is_the_bound(tmp_path):
    commands = commands_of(catalog_of(tmp_path, ("abcdefgh",)))
    at_bound = "xyz"[:COMMAND_TYPO_EDITS] + "abcdefgh"[COMMAND_TYPO_EDITS:]
    past = "xyz"[: COMMAND_TYPO_EDITS + 1] + "abcdefgh"[COMMAND_TYPO_EDITS + 1 :]
    assert edit_distance(at_bound, "abcdefgh") == COMMAND_TYPO_EDITS
    assert edit_distance(past, "abcdefgh") == COMMAND_TYPO_EDITS + 1
    assert [x for _r, _m, x in found(commands, f"run /{at_bound}")] == [("/abcdefgh",)]
    assert found(commands, f"run /{past}") == []


def test_commands_shorter_than_the_minimum_are_never_suggested(tmp_path):
    short, long = "a" * (MIN_TYPO_COMMAND_CHARS - 1), "b" * MIN_TYPO_COMMAND_CHARS
    commands = commands_of(catalog_of(tmp_path, (short, long)))
    assert found(commands, f"run /{short}x") == []
    assert [x for _r, _m, x in found(commands, f"run /{long}x")] == [(f"/{long}",)]


def test_the_old_name_of_a_skill_renamed_in_this_session_names_the_new_one(tmp_path):
    catalog = catalog_of(tmp_path, ("showcase",))
    commands = commands_of(catalog, {"demo": "showcase"})
    (_r, message, replacements), = found(commands, "If the merge fails, run /demo again")
    assert message == "`/demo` is no command here: `demo` was renamed to `showcase`; did you mean `/showcase`?"
    assert replacements == ("/showcase",)


def test_a_marker_with_a_reason_silences_it(commands):
    marked = "<!-- albedo-skills-ignore command-unknown: the typo is the lesson -->\nType /demoo to see the error.\n\n/demoo\n"
    assert [r.start.line for r, _m, _x in found(commands, marked)] == [3]  # the marker covers its paragraph only
    unmarked = marked.replace(": the typo is the lesson", "")
    assert [r.start.line for r, _m, _x in found(commands, unmarked)] == [1, 3]  # no reason: nothing silenced


def test_near_commands_are_found_through_deletions_whatever_the_catalog_holds():
    assert deletions("demo") == {"demo", "emo", "dmo", "deo", "dem"}
    assert edit_distance("dmeo", "demo") == 1 and edit_distance("", "demo") == 4


def test_the_quick_fix_writes_each_near_command(tmp_path):
    commands = commands_of(catalog_of(tmp_path, ("demo", "deme")))
    path = str(tmp_path / "x" / "SKILL.md")
    fixes = [fix for fix in quick_fixes(path, "---\nname: x\ndescription: d\n---\nrun /demx now\n", commands)]
    assert [(fix.title, fix.preferred, fix.safe, [e.new_text for e in fix.edits]) for fix in fixes] == [
        ("Change to `/deme`", True, False, ["/deme"]), ("Change to `/demo`", False, False, ["/demo"])
    ]
    assert fixes[0].edits[0].range == Range.of(4, 4, 4, 9)
    assert quick_fixes(path, "---\nname: x\ndescription: d\n---\nrun /demx now\n") == []  # no catalog, no guess


def test_at_most_max_suggestions_are_named_nearest_first(tmp_path):
    names = tuple(f"abc{letter}" for letter in "defg"[: MAX_SUGGESTIONS + 1])
    commands = commands_of(catalog_of(tmp_path, names))
    (_r, message, replacements), = found(commands, "run /abcx")
    assert replacements == tuple(f"/{name}" for name in names[:MAX_SUGGESTIONS])
    assert message.endswith(" or ".join(f"`/{name}`" for name in names[:MAX_SUGGESTIONS]) + "?")
    exact = commands_of(catalog_of(tmp_path / "bound", names[:MAX_SUGGESTIONS]))
    assert len(found(exact, "run /abcx")[0][2]) == MAX_SUGGESTIONS
    both = commands_of(catalog_of(tmp_path / "nearest", ("abcy", "abcxe")))
    assert found(both, "run /abcx")[0][2] == ("/abcxe", "/abcy")  # equally near: by name
