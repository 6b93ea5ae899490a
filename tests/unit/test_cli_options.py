"""One option grammar: no prefix matching, the shared options on every verb they make sense for and refused
with a reason by the others, and examples in every verb's `--help` that parse as written."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
from cli_helpers import EXAMPLES, REPO, run_cli, valid, write_skill

from albedo_skills_ls.cli import main
from albedo_skills_ls.cli.options import SHARED_TAKES_VALUE, VERBS, build_parser

VERB_NAMES = [verb.name for verb in VERBS]
REQUIRED = {
    "invoke": ["demo"], "resources": ["demo"], "read": ["demo"], "new": ["demo"],
    "rename": ["demo", "demo-two"], "references": ["demo"],
}


def options_of(verb: str) -> list[str]:
    """The long options a verb's `--help` lists."""
    parser = build_parser([verb])
    (sub,) = [action for action in parser._actions if action.dest == "verb"][0].choices.values()
    return [
        option
        for action in sub._actions
        if action.help != "==SUPPRESS=="
        for option in action.option_strings
        if option.startswith("--")
    ]


def run_main(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 2
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("verb", VERB_NAMES)
def test_no_option_is_taken_from_a_prefix(verb, capsys):
    options = options_of(verb)
    assert "--home" in options and "--workspace" in options
    for option in options:
        prefix = option[:-1]
        if prefix in options or prefix in ("--", "-"):
            continue
        status, out, err = run_main(capsys, verb, *REQUIRED.get(verb, []), prefix, "x")
        assert status == 2 and out == "", (verb, prefix)
        assert f"albedo-skills {verb}: error: unrecognized arguments: {prefix}" in err, err


def test_a_misspelt_option_is_refused_with_the_closest_one(capsys):
    # `--host` was once taken as `--hosts`: now it is refused, naming the option meant
    status, out, err = run_main(capsys, "check", "--host", "codex")
    assert (status, out) == (2, "")
    assert err.splitlines()[-1] == "albedo-skills check: error: unrecognized arguments: --host (did you mean --hosts?)"
    status, _out, err = run_main(capsys, "hosts", "--hosts", "codex")
    assert status == 2
    assert err.splitlines()[-1] == (
        "albedo-skills hosts: error: --hosts means nothing for `hosts`: name the agents with `--host ID` (repeat "
        "it, or separate ids with commas)"
    )


REFUSALS = [(verb.name, option, why) for verb in VERBS for option, why in verb.refuses]


@pytest.mark.parametrize("verb, option, why", REFUSALS, ids=[f"{v}{o}" for v, o, _w in REFUSALS])
def test_a_shared_option_that_means_nothing_for_a_verb_is_refused_saying_why(verb, option, why, capsys):
    value = ["sarif"] if SHARED_TAKES_VALUE[option] else []
    status, out, err = run_main(capsys, verb, *REQUIRED.get(verb, []), option, *value)
    assert (status, out) == (2, "")
    assert err.splitlines()[0].startswith(f"usage: albedo-skills {verb} ")
    assert err.splitlines()[-1] == f"albedo-skills {verb}: error: {option} means nothing for `{verb}`: {why}"
    assert option not in options_of(verb)  # and its --help does not offer it


def test_every_verb_takes_or_refuses_each_shared_option():
    for verb in VERBS:
        refused = {option for option, _why in verb.refuses}
        offered = set(options_of(verb.name))
        for option in SHARED_TAKES_VALUE:
            assert (option in offered) != (option in refused), (verb.name, option)


def test_new_format_sarif_is_refused_by_the_real_command(tmp_path):
    result = run_cli("new", "demo", "--format", "sarif", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr.decode().splitlines()[-1] == (
        "albedo-skills new: error: --format means nothing for `new`: it writes one SKILL.md and prints one line "
        "naming it"
    )
    assert not (tmp_path / ".agents").exists()  # nothing written


def test_the_json_verbs_take_format_json_and_refuse_the_others(tmp_path):
    write_skill(tmp_path / ".agents" / "skills", "demo", valid("demo"))
    plain = run_cli("commands", "--no-user-roots", cwd=tmp_path)
    named = run_cli("commands", "--no-user-roots", "--format", "json", cwd=tmp_path)
    assert plain.returncode == named.returncode == 0 and plain.stdout == named.stdout
    assert [entry["command"] for entry in json.loads(named.stdout)][-1] == "/demo"
    other = run_cli("read", "demo", "--format", "text", cwd=tmp_path)
    assert other.returncode == 2
    assert other.stderr.decode().splitlines()[-1] == (
        "albedo-skills read: error: argument --format: invalid choice: 'text' (choose from 'json')"
    )


def test_hosts_takes_no_user_roots(tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_skill(ws / ".agents" / "skills", "demo", valid("demo"))
    write_skill(home / ".agents" / "skills", "mine", valid("mine"))
    every = json.loads(run_cli("hosts", ws, "--home", home, "--host", "codex", "--format", "json").stdout)
    assert sorted(every["hosts"]["codex"]["skills"]) == [
        str(home / ".agents" / "skills" / "mine" / "SKILL.md"),
        str(ws / ".agents" / "skills" / "demo" / "SKILL.md"),
    ]
    alone = run_cli("hosts", ws, "--home", home, "--host", "codex", "--format", "json", "--no-user-roots")
    assert alone.returncode == 0, alone.stderr
    assert list(json.loads(alone.stdout)["hosts"]["codex"]["skills"]) == [str(ws / ".agents" / "skills" / "demo" / "SKILL.md")]


@pytest.mark.parametrize("verb", VERBS, ids=VERB_NAMES)
def test_each_verbs_help_lists_examples_that_parse(verb, tmp_path):
    result = run_cli(verb.name, "--help", cwd=REPO, env=dict(os.environ, COLUMNS="200"))  # nothing wrapped
    assert result.returncode == 0
    text = result.stdout.decode()
    assert "\nexamples:\n" in text
    assert len(verb.examples) >= 1
    for command, what in verb.examples:
        assert f"  albedo-skills {command}\n      {what}\n" in text
        words = shlex.split(command)
        words = words[: words.index(">")] if ">" in words else words  # the shell's redirection
        parsed = build_parser(words).parse_args(words)  # a usage error would exit here
        assert parsed.verb == verb.name


def test_example_commands_are_never_wrapped_and_their_descriptions_are():
    text = run_cli("check", "--help", env=dict(os.environ, COLUMNS="60")).stdout.decode()
    assert "\n  albedo-skills check --no-user-roots --format sarif > albedo.sarif\n" in text
    assert "\n      the safe fixes as a patch; `git apply fixes.patch`\n      applies it\n" in text


def test_the_programs_help_points_at_each_verbs_help():
    text = run_cli("--help").stdout.decode()
    assert "`albedo-skills VERB --help` lists a verb's options and examples." in text
    for name in VERB_NAMES:
        assert f"    {name}" in text


def test_an_example_runs_as_written_on_the_example_tree():
    # `check --no-user-roots --format sarif`, from the README's example workspace
    result = run_cli("check", "--no-user-roots", "--format", "sarif", cwd=EXAMPLES / "workspace")
    assert result.returncode == 1
    assert json.loads(result.stdout)["runs"][0]["results"]


def test_shared_options_sit_in_one_table(tmp_path: Path):
    # every verb that reads a catalog takes --home, --no-user-roots and --builtin the same way
    for verb in ("check", "catalog", "commands"):
        ran = run_cli(verb, "--no-user-roots", "--builtin", "help", "--home", tmp_path, cwd=EXAMPLES / "workspace")
        assert ran.returncode in (0, 1), ran.stderr
