"""The `albedo-skills` command line, run as a real subprocess on real trees (and on examples/)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import EXAMPLES, REPO, run_cli, valid, write_skill

from albedo_skills_ls import __version__
from albedo_skills_ls.cli.formats.github import github_annotation, github_escape_data, github_escape_property
from albedo_skills_ls.skills.catalog.discovery import DEFAULT_BUILTINS
from albedo_skills_ls.skills.core.limits import MAX_CANDIDATES, MAX_DIAGNOSTICS
from albedo_skills_ls.skills.core.model import Diagnostic, Range

# --- helpers ---------------------------------------------------------------------------------------------


def workspace_root(tmp_path: Path, which: str = ".agents") -> Path:
    return tmp_path / "ws" / which / "skills"


def home_root(tmp_path: Path, which: str = ".agents") -> Path:
    return tmp_path / "home" / which / "skills"


def catalog_json(*args: str | os.PathLike, **kwargs) -> dict:
    result = run_cli("catalog", *args, "--format", "json", **kwargs)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def mixed_tree(tmp_path: Path) -> Path:
    """A workspace with one valid skill, one invalid skill and one warning; a home with a user skill."""
    write_skill(workspace_root(tmp_path), "alpha", valid("alpha"))
    write_skill(workspace_root(tmp_path), "beta", "name: betta\ndescription: Misnamed.\n")
    write_skill(workspace_root(tmp_path, ".albedo"), "gamma", valid("gamma") + "desciption: typo\n")
    write_skill(home_root(tmp_path), "personal", valid("personal"))
    return tmp_path


# --- start-up and usage ------------------------------------------------------------------------------------


def test_import_loads_no_lsp_and_no_engine():
    code = (
        "import sys, albedo_skills_ls.cli\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'ruamel', 'json')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_running_check_loads_no_lsp(tmp_path):
    write_skill(workspace_root(tmp_path), "alpha", valid("alpha"))
    code = (
        "import sys, albedo_skills_ls.cli as cli\n"
        f"code = cli.main(['check', {str(tmp_path / 'ws')!r}, '--no-user-roots', '--format', 'sarif'])\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stderr.strip() == "0 []"


def test_version():
    result = run_cli("--version")
    assert result.returncode == 0
    assert result.stdout.decode().strip() == f"albedo-skills {__version__}"


def test_console_script_is_registered():
    from importlib.metadata import entry_points

    scripts = {ep.name: ep.value for ep in entry_points(group="console_scripts")}
    assert scripts["albedo-skills"] == "albedo_skills_ls.cli:main"


def test_help_names_the_engine_default_builtins():
    result = run_cli("check", "--help")
    assert result.returncode == 0
    text = " ".join(result.stdout.decode().split())
    assert "(default: " + ", ".join(DEFAULT_BUILTINS[:-1]) + f" and {DEFAULT_BUILTINS[-1]})" in text


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("frobnicate",),
        ("check", "--format", "xml"),
        ("catalog", "--format", "sarif"),
        ("check", "--bogus"),
    ],
)
def test_usage_errors_exit_2(args, tmp_path):
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert b"usage: albedo-skills" in result.stderr
    assert result.stdout == b""


def test_missing_workspace_exits_2(tmp_path):
    missing = str(tmp_path / "nowhere")
    for verb, what in (("check", ""), ("catalog", "workspace ")):
        result = run_cli(verb, tmp_path / "nowhere")
        assert result.returncode == 2
        assert result.stdout == b""
        assert result.stderr.decode() == f"albedo-skills: error: {what}{missing!r} does not exist\n"


def test_workspace_that_is_a_file_exits_2(tmp_path):
    (tmp_path / "file.txt").write_text("not a folder")
    result = run_cli("check", tmp_path / "file.txt")
    assert result.returncode == 2
    assert result.stderr.decode() == (
        f"albedo-skills: error: {str(tmp_path / 'file.txt')!r} is not a folder, nor a file named SKILL.md\n"
    )


def test_missing_home_exits_2_unless_user_roots_are_off(tmp_path):
    write_skill(workspace_root(tmp_path), "alpha", valid("alpha"))
    result = run_cli("check", tmp_path / "ws", "--home", tmp_path / "no-home")
    assert result.returncode == 2
    assert b"home" in result.stderr and b"does not exist" in result.stderr
    assert run_cli("check", tmp_path / "ws", "--home", tmp_path / "no-home", "--no-user-roots").returncode == 0


# --- check: exit codes and text -------------------------------------------------------------------------------


def test_check_exit_0_when_clean(tmp_path):
    write_skill(workspace_root(tmp_path), "alpha", valid("alpha"))
    write_skill(home_root(tmp_path), "beta", valid("beta"))
    result = run_cli("check", tmp_path / "ws", "--home", tmp_path / "home")
    assert result.returncode == 0
    assert result.stdout == b""
    assert result.stderr.decode() == "2 skill folders examined, 2 in the catalog, 0 errors, 0 warnings\n"


def test_check_exit_0_with_only_warnings(tmp_path):
    write_skill(workspace_root(tmp_path), "alpha", valid("alpha") + "desciption: typo\n")
    result = run_cli("check", tmp_path / "ws", "--no-user-roots")
    assert result.returncode == 0
    assert b"warning field-unknown" in result.stdout
    assert "did you mean `description`" in result.stdout.decode()
    assert result.stderr.decode() == (
        f"albedo-skills: paths are relative to {tmp_path / 'ws'}\n"
        "1 skill folder examined, 1 in the catalog, 0 errors, 1 warning\n"
    )


def test_check_exit_1_on_error_and_catalog_still_exits_0(mixed_tree):
    ws, home = mixed_tree / "ws", mixed_tree / "home"
    result = run_cli("check", ws, "--home", home, cwd=ws)
    assert result.returncode == 1
    # four folders examined, three skills in the catalog: beta's error keeps it out
    assert result.stderr.decode() == "4 skill folders examined, 3 in the catalog, 1 error, 1 warning\n"
    for fmt in ("json", "sarif", "github"):
        assert run_cli("check", ws, "--home", home, "--format", fmt).returncode == 1
    for fmt in ("json", "text", "prompt"):
        assert run_cli("catalog", ws, "--home", home, "--format", fmt).returncode == 0


def test_text_positions_are_the_engine_range_plus_one(tmp_path):
    # `ä` is one code point but two UTF-8 bytes: the column must count code points.
    write_skill(
        workspace_root(tmp_path),
        "alpha",
        "name: alpha\ndescription: Fine.\nmetadata: {ä: [x]}\n",
    )
    write_skill(workspace_root(tmp_path), "beta", "description: x\nname: gamma\n")
    ws = tmp_path / "ws"
    text = run_cli("check", ws, "--no-user-roots").stdout.decode().splitlines()
    engine = json.loads(run_cli("check", ws, "--no-user-roots", "--format", "json").stdout)["diagnostics"]
    assert len(text) == len(engine) == 2
    for line, diagnostic in zip(text, engine):
        start = diagnostic["range"]["start"]
        assert line == (  # the text format shows paths relative to the workspace
            f"{os.path.relpath(diagnostic['path'], ws)}:{start['line'] + 1}:{start['character'] + 1}: "
            f"{diagnostic['severity']} {diagnostic['code']} {diagnostic['message']}"
        )
    field_type = next(d for d in engine if d["code"] == "field-type")
    assert field_type["range"]["start"] == {"line": 3, "character": "metadata: {ä: [x]}".index("[")}
    assert ":4:15: error field-type " in text[0]
    mismatch = next(d for d in engine if d["code"] == "name-mismatch")
    assert mismatch["range"]["start"] == {"line": 2, "character": 6}
    assert text[1] == f"{os.path.relpath(mismatch['path'], ws)}:3:7: error name-mismatch {mismatch['message']}"


def test_text_paths_and_the_paths_in_messages_are_relative_to_the_workspace(tmp_path):
    write_skill(workspace_root(tmp_path, ".albedo"), "dup", valid("dup"))
    write_skill(workspace_root(tmp_path), "dup", valid("dup"))
    write_skill(home_root(tmp_path), "dup", valid("dup"))
    hidden = "warning collision skill `dup` is hidden by .albedo/skills/dup/SKILL.md"
    expected = [  # in the engine's order: by absolute path, and the home folder sorts first here
        f"~/.agents/skills/dup/SKILL.md:2:7: {hidden} (workspace skills win over user skills): rename one of them",
        f".agents/skills/dup/SKILL.md:2:7: {hidden} (an earlier root wins): rename one of them",
    ]
    for cwd, shown in ((tmp_path, "ws"), (tmp_path / "ws" / ".agents", ".."), (REPO, str(tmp_path / "ws"))):
        result = run_cli("check", tmp_path / "ws", cwd=cwd, home=tmp_path / "home")  # $HOME: shown as ~
        assert result.stdout.decode().splitlines() == expected
        assert result.stderr.decode().splitlines()[0] == f"albedo-skills: paths are relative to {shown}"
    github = run_cli("check", "ws", "--home", "home", "--format", "github", cwd=tmp_path)  # shown as typed
    assert github.stdout.decode().splitlines()[0].startswith("::warning file=home/.agents/skills/dup/SKILL.md,")
    assert github.stdout.decode().splitlines()[1] == (
        "::warning file=.agents/skills/dup/SKILL.md,line=2,col=7,endLine=2,endColumn=9,title=collision::"
        "skill `dup` is hidden by .albedo/skills/dup/SKILL.md (an earlier root wins): rename one of them"
    )
    at_home = run_cli("check", "--no-user-roots", cwd=tmp_path / "ws")  # run in the workspace: no note
    assert at_home.stderr.decode() == "2 skill folders examined, 1 in the catalog, 0 errors, 1 warning\n"


def test_text_escapes_control_characters(tmp_path):
    write_skill(workspace_root(tmp_path), "alpha", valid("alpha") + '"red\\e[31m\\nline": x\n')
    result = run_cli("check", tmp_path / "ws", "--no-user-roots")
    out = result.stdout.decode()
    assert "\x1b" not in out
    assert out.count("\n") == 1
    assert "red\\x1b[31m\\nline" in out


def test_check_reports_every_finding_in_every_format_past_the_catalog_bound(tmp_path):
    # the catalog keeps MAX_DIAGNOSTICS (what an editor and a model read); `check`, which CI trusts, drops none
    root = workspace_root(tmp_path)
    for index in range(MAX_DIAGNOSTICS + 6):  # 70 warnings sort before the error
        write_skill(root, f"a{index:02d}", valid(f"a{index:02d}") + "desciption: typo\n")
    write_skill(root, "zz", "name: zz\n")
    ws, total = tmp_path / "ws", MAX_DIAGNOSTICS + 7
    catalog = catalog_json(ws, "--no-user-roots")
    assert catalog["diagnostics_dropped"] == 7  # the catalog's own bound is unchanged
    report = json.loads(run_cli("check", ws, "--no-user-roots", "--format", "json").stdout)
    assert len(report["diagnostics"]) == total
    assert [d["code"] for d in report["diagnostics"]].count("field-unknown") == total - 1
    assert "diagnostic-limit" not in {d["code"] for d in report["diagnostics"]}
    assert report["diagnostic_counts"] == {"error": 1, "warning": total - 1, "information": 0}
    assert (report["skill_folders_examined"], report["skills_in_catalog"]) == (total, total - 1)
    sarif = json.loads(run_cli("check", ws, "--no-user-roots", "--format", "sarif").stdout)
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == [d["code"] for d in report["diagnostics"]]
    github = run_cli("check", "ws", "--no-user-roots", "--format", "github", cwd=tmp_path)
    assert len(github.stdout.decode().splitlines()) == total
    assert github.stdout.decode().splitlines()[-1].startswith("::error file=.agents/skills/zz/SKILL.md,")
    result = run_cli("check", "--no-user-roots", cwd=ws)
    assert result.returncode == 1
    assert len(result.stdout.decode().splitlines()) == total
    assert result.stderr.decode() == f"{total} skill folders examined, {total - 1} in the catalog, 1 error, {total - 1} warnings\n"


@pytest.mark.parametrize("extra", [0, 1])
def test_check_examines_the_skill_folders_past_the_catalog_bound(tmp_path, extra):
    # at the bound nothing is left out; one past it, the last folder is still examined (its error fails the
    # run) and `candidate-limit` sits on its file, not on the workspace
    root = workspace_root(tmp_path)
    for index in range(MAX_CANDIDATES - 1):
        write_skill(root, f"s{index:03d}", valid(f"s{index:03d}"))
    write_skill(root, "y-last-in", valid("y-last-in"))
    if extra:
        write_skill(root, "z-left-out", "name: Z\n")
    result = run_cli("check", "--no-user-roots", cwd=tmp_path / "ws")
    folders = MAX_CANDIDATES + extra
    if not extra:
        assert result.returncode == 0 and result.stdout == b""
        assert result.stderr.decode() == f"{folders} skill folders examined, {MAX_CANDIDATES} in the catalog, 0 errors, 0 warnings\n"
        return
    assert result.returncode == 1
    left_out = ".agents/skills/z-left-out/SKILL.md"
    assert result.stdout.decode().splitlines() == [
        f"{left_out}:1:1: warning candidate-limit 1 skill folder(s) are left out of the catalog, from this one on: "
        f"Albedo's catalog holds the first {MAX_CANDIDATES} skill folders of its roots; remove unused skills "
        "(`albedo-skills check` still validates every one)",
        f"{left_out}:1:1: error description-missing add a `description`: what the skill does and when to use it",
        f"{left_out}:2:7: error name-invalid name `Z` has 'Z' at position 1; use only lowercase ASCII letters, "
        "digits and `-`",
    ]
    assert result.stderr.decode() == f"{folders} skill folders examined, {MAX_CANDIDATES} in the catalog, 2 errors, 1 warning\n"


# --- check: json, sarif, github ---------------------------------------------------------------------------


def test_check_json_is_the_catalog_diagnostics(mixed_tree):
    ws, home = mixed_tree / "ws", mixed_tree / "home"
    report = json.loads(run_cli("check", ws, "--home", home, "--format", "json").stdout)
    catalog = catalog_json(ws, "--home", home)
    assert list(report) == [
        "diagnostics", "diagnostic_counts", "skill_folders_examined", "skills_in_catalog", "silenced"
    ]
    assert report["diagnostics"] == catalog["diagnostics"]  # under the bound, the same diagnostics, same bytes
    assert catalog["diagnostics_dropped"] == 0
    assert report["silenced"] == []  # no security finding in this tree
    assert [d["code"] for d in report["diagnostics"]] == ["name-mismatch", "field-unknown"]
    assert report["diagnostic_counts"] == {"error": 1, "warning": 1, "information": 0}
    assert (report["skill_folders_examined"], report["skills_in_catalog"]) == (4, 3)


def test_sarif_structure(mixed_tree):
    ws, home = mixed_tree / "ws", mixed_tree / "home"
    write_skill(home / ".albedo" / "skills", "alpha", valid("alpha"))  # a user-scope loser: related location
    log = json.loads(run_cli("check", ws, "--home", home, "--format", "sarif").stdout)
    engine = json.loads(run_cli("check", ws, "--home", home, "--format", "json").stdout)["diagnostics"]

    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "albedo-skills"
    assert driver["version"] == __version__
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert rule_ids == sorted({d["code"] for d in engine}) == ["collision", "field-unknown", "name-mismatch"]
    assert all(rule["shortDescription"]["text"] for rule in driver["rules"])
    assert run["columnKind"] == "unicodeCodePoints"
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == ws.as_uri() + "/"

    assert len(run["results"]) == len(engine)
    levels = {"error": "error", "warning": "warning", "information": "note"}
    for result, diagnostic in zip(run["results"], engine):
        assert result["ruleId"] == diagnostic["code"]
        assert driver["rules"][result["ruleIndex"]]["id"] == diagnostic["code"]
        assert result["level"] == levels[diagnostic["severity"]]
        # messages name paths as the text format does: relative to the workspace, the home folder as typed
        shown = diagnostic["message"].replace(f"{ws}/", "").replace(f"{home}/", f"{home}/")
        assert result["message"]["text"] == shown
        (location,) = result["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        path = Path(diagnostic["path"])
        if path.is_relative_to(ws):
            assert artifact == {"uri": path.relative_to(ws).as_posix(), "uriBaseId": "%SRCROOT%"}
        else:
            assert artifact == {"uri": path.as_uri()}
        start, end = diagnostic["range"]["start"], diagnostic["range"]["end"]
        assert location["physicalLocation"]["region"] == {
            "startLine": start["line"] + 1,
            "startColumn": start["character"] + 1,
            "endLine": end["line"] + 1,
            "endColumn": end["character"] + 1,
        }
        assert len(result.get("relatedLocations", [])) == len(diagnostic["related"])

    collision = next(r for r in run["results"] if r["ruleId"] == "collision")
    assert collision["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("file://")
    (related,) = collision["relatedLocations"]
    assert related["id"] == 0
    assert related["physicalLocation"]["artifactLocation"] == {
        "uri": ".agents/skills/alpha/SKILL.md",
        "uriBaseId": "%SRCROOT%",
    }
    assert related["physicalLocation"]["region"]["startLine"] == 2
    assert "wins" in related["message"]["text"]


def test_sarif_uri_is_percent_encoded(tmp_path):
    write_skill(workspace_root(tmp_path), "my skill", valid("my-skill"))
    log = json.loads(run_cli("check", tmp_path / "ws", "--no-user-roots", "--format", "sarif").stdout)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]]
    assert ".agents/skills/my%20skill/SKILL.md" in uris


def test_github_escapes_message_and_properties():
    assert github_escape_data("50%\r\ndone, ok: yes") == "50%25%0D%0Adone, ok: yes"
    assert github_escape_property("a,b:c%d\ne") == "a%2Cb%3Ac%25d%0Ae"
    diagnostic = Diagnostic("/x", "field-unknown", "information", "100%\nsure, really", Range.of(2, 4, 2, 9))
    assert github_annotation(diagnostic) == (
        "::notice file=/x,line=3,col=5,endLine=3,endColumn=9,title=field-unknown::100%25%0Asure, really"
    )
    multi_line = Diagnostic("/x", "yaml-syntax", "error", "m", Range.of(1, 2, 4, 0))
    assert github_annotation(multi_line) == "::error file=/x,line=2,col=3,endLine=5,title=yaml-syntax::m"


def test_github_format_end_to_end(tmp_path):
    # A key holding `%`, a line break and `,` reaches the message; a folder holding `,` and `:` the file property.
    root = workspace_root(tmp_path)
    write_skill(root, "alpha", valid("alpha") + '"50%,\\nmore": x\n')
    write_skill(root, "b,c:d", valid("bcd"))
    result = run_cli("check", "ws", "--no-user-roots", "--format", "github", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.decode().split("\n")
    assert lines[-1] == "" and len(lines) == 3
    warning, error = lines[0], lines[1]
    assert warning.startswith(
        "::warning file=.agents/skills/alpha/SKILL.md,line=4,col=1,endLine=4,endColumn=12,title=field-unknown::"
    )
    assert "unknown field `50%25,%0Amore`" in warning
    assert error.startswith(
        "::error file=.agents/skills/b%2Cc%3Ad/SKILL.md,line=2,col=7,endLine=2,endColumn=9,title=name-mismatch::"
    )


# --- catalog ----------------------------------------------------------------------------------------------


def test_catalog_json_is_the_engine_snapshot(mixed_tree):
    from albedo_skills_ls.skills.catalog.discovery import discover

    ws, home = mixed_tree / "ws", mixed_tree / "home"
    result = run_cli("catalog", ws, "--home", home)  # json is the default
    expected = json.dumps(discover(str(ws), str(home)).to_json(), indent=2, ensure_ascii=False) + "\n"
    assert result.stdout.decode("utf-8") == expected
    data = json.loads(result.stdout)
    assert list(data) == ["workspace", "roots", "skills", "diagnostics", "diagnostics_dropped"]
    assert [s["name"] for s in data["skills"]] == ["alpha", "gamma", "personal"]
    assert {s["name"]: s["scope"] for s in data["skills"]}["personal"] == "user"


@pytest.mark.parametrize(
    "args",
    [
        ("catalog", "--format", "json"),
        ("catalog", "--format", "text"),
        ("catalog", "--format", "prompt"),
        ("check", "--format", "text"),
        ("check", "--format", "json"),
        ("check", "--format", "sarif"),
        ("check", "--format", "github"),
    ],
)
def test_output_is_byte_identical_across_runs(mixed_tree, args):
    verb, *rest = args
    first = run_cli(verb, mixed_tree / "ws", "--home", mixed_tree / "home", *rest)
    second = run_cli(verb, mixed_tree / "ws", "--home", mixed_tree / "home", *rest)
    assert first.stdout and first.stdout == second.stdout
    assert first.stderr == second.stderr
    assert first.returncode == second.returncode


def test_no_user_roots_excludes_user_skills(mixed_tree):
    data = catalog_json(mixed_tree / "ws", "--home", mixed_tree / "home", "--no-user-roots")
    assert [s["name"] for s in data["skills"]] == ["alpha", "gamma"]
    assert {r["scope"] for r in data["roots"]} == {"workspace"}


def test_home_option_is_honoured_and_defaults_to_the_user_home(mixed_tree, tmp_path):
    other_home = tmp_path / "other-home"
    write_skill(other_home / ".prime" / "agent" / "skills", "prime", valid("prime"))
    names = lambda data: [s["name"] for s in data["skills"]]  # noqa: E731
    # --home wins over $HOME
    assert names(catalog_json(mixed_tree / "ws", "--home", mixed_tree / "home", home=other_home)) == [
        "alpha",
        "gamma",
        "personal",
    ]
    # without --home, the user's home ($HOME) is used
    data = catalog_json(mixed_tree / "ws", home=other_home)
    assert names(data) == ["alpha", "gamma", "prime"]
    assert data["roots"][-1]["path"] == str(other_home / ".prime" / "agent" / "skills")


def test_workspace_defaults_to_the_current_folder(mixed_tree):
    data = catalog_json("--no-user-roots", cwd=mixed_tree / "ws")
    assert data["workspace"] == str((mixed_tree / "ws").resolve())
    assert [s["name"] for s in data["skills"]] == ["alpha", "gamma"]


def test_builtin_option_sets_the_builtin_commands(tmp_path):
    write_skill(workspace_root(tmp_path), "deploy", valid("deploy"))
    write_skill(workspace_root(tmp_path), "model", valid("model"))
    ws = tmp_path / "ws"
    commands = lambda *extra: {  # noqa: E731
        s["name"]: s["command"] for s in catalog_json(ws, "--no-user-roots", *extra)["skills"]
    }
    assert commands() == {"deploy": "/deploy", "model": "/skill:model"}
    assert commands("--builtin", "deploy", "--builtin", "help") == {"deploy": "/skill:deploy", "model": "/model"}
    assert commands("--builtin", "") == {"deploy": "/deploy", "model": "/model"}


def test_catalog_text_table(mixed_tree):
    result = run_cli("catalog", "ws", "--home", "home", "--format", "text", cwd=mixed_tree)
    assert result.returncode == 0
    lines = result.stdout.decode().splitlines()
    assert lines[0].split() == ["COMMAND", "SCOPE", "PATH", "DESCRIPTION"]
    assert lines[1].split()[:3] == ["/alpha", "workspace", "ws/.agents/skills/alpha/SKILL.md"]
    assert lines[1].endswith("Does a useful thing. Use when asked.")
    assert lines[3].split()[:3] == ["/personal", "user", "home/.agents/skills/personal/SKILL.md"]
    # columns line up
    assert {line.index("workspace" if "workspace" in line else "user") for line in lines[1:4]} == {
        lines[0].index("SCOPE")
    }
    assert lines[4] == ""
    assert lines[5].startswith("ws/.agents/skills/beta/SKILL.md:2:7: error name-mismatch ")
    assert lines[6].startswith("ws/.albedo/skills/gamma/SKILL.md:4:1: warning field-unknown ")
    assert lines[-1] == "3 skills, 1 error, 1 warning, 0 information"


def test_catalog_text_shows_the_first_line_of_a_long_description(tmp_path):
    write_skill(workspace_root(tmp_path), "alpha", "name: alpha\ndescription: |\n  First line.\n  Second line.\n")
    write_skill(workspace_root(tmp_path), "beta", valid("beta", "word " * 40))
    out = run_cli("catalog", tmp_path / "ws", "--no-user-roots", "--format", "text").stdout.decode()
    assert "First line." in out and "Second line." not in out
    beta = next(line for line in out.splitlines() if line.startswith("/beta"))
    assert beta.endswith("...") and "word word" in beta


def test_catalog_prompt_block(tmp_path):
    write_skill(
        workspace_root(tmp_path),
        "alpha",
        valid("alpha", '"Merge <b> & </skill> tags"') + "license: MIT\n",
        body="# Secret body\n\nNever shown in the catalog.\n",
    )
    write_skill(workspace_root(tmp_path), "model", valid("model"))
    ws = tmp_path / "ws"
    out = run_cli("catalog", ws, "--no-user-roots", "--format", "prompt").stdout.decode()
    alpha = ws / ".agents" / "skills" / "alpha" / "SKILL.md"
    model = ws / ".agents" / "skills" / "model" / "SKILL.md"
    assert out == (
        "<available_skills>\n"
        "<skill>\n"
        "<name>alpha</name>\n"
        "<description>Merge &lt;b&gt; &amp; &lt;/skill&gt; tags</description>\n"
        f"<location>{alpha}</location>\n"
        "<command>/alpha</command>\n"
        "</skill>\n"
        "<skill>\n"
        "<name>model</name>\n"
        "<description>Does a useful thing. Use when asked.</description>\n"
        f"<location>{model}</location>\n"
        "<command>/skill:model</command>\n"
        "</skill>\n"
        "</available_skills>\n"
    )


def test_catalog_prompt_when_empty(tmp_path):
    (tmp_path / "ws").mkdir()
    out = run_cli("catalog", tmp_path / "ws", "--no-user-roots", "--format", "prompt").stdout.decode()
    assert out == "<available_skills>\n</available_skills>\n"


def test_json_is_utf8_whatever_the_locale(tmp_path):
    write_skill(workspace_root(tmp_path), "alpha", valid("alpha", "Résumé ✓ 日本"))
    env = dict(os.environ, PYTHONIOENCODING="ascii", LC_ALL="C")
    result = subprocess.run(
        [sys.executable, "-m", "albedo_skills_ls.cli", "catalog", str(tmp_path / "ws"), "--no-user-roots"],
        capture_output=True,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.decode("utf-8"))["skills"][0]["description"] == "Résumé ✓ 日本"
    text = subprocess.run(
        [sys.executable, "-m", "albedo_skills_ls.cli", "catalog", str(tmp_path / "ws"), "--no-user-roots"]
        + ["--format", "text"],
        capture_output=True,
        env=env,
    )
    assert text.returncode == 0, text.stderr
    assert b"R\\xe9sum\\xe9" in text.stdout


# --- the example tree ---------------------------------------------------------------------------------------


def test_examples_catalog():
    ws, home = EXAMPLES / "workspace", EXAMPLES / "home"
    data = catalog_json(ws, "--home", home)
    skills = {s["name"]: s for s in data["skills"]}
    assert list(skills) == ["changelog", "code-review", "commit-message", "model", "release-notes"]
    assert {name: s["command"] for name, s in skills.items()} == {
        "changelog": "/changelog",
        "code-review": "/code-review",
        "commit-message": "/commit-message",
        "model": "/skill:model",
        "release-notes": "/release-notes",
    }
    assert {name: s["scope"] for name, s in skills.items()} == {
        "changelog": "workspace",
        "code-review": "workspace",
        "commit-message": "user",
        "model": "workspace",
        "release-notes": "workspace",
    }
    winner = str(ws / ".agents" / "skills" / "changelog" / "SKILL.md")
    assert skills["changelog"]["path"] == winner
    assert "\n" in skills["release-notes"]["description"] and not skills["release-notes"]["description"].endswith("\n")

    by_code = {d["code"]: d for d in data["diagnostics"]}
    assert sorted(by_code) == ["collision", "command-collision", "field-host-specific", "name-mismatch"]
    collision = by_code["collision"]
    assert collision["path"] == str(home / ".agents" / "skills" / "changelog" / "SKILL.md")
    assert collision["severity"] == "warning"
    assert winner in collision["message"]
    assert [r["path"] for r in collision["related"]] == [winner]
    invalid = by_code["name-mismatch"]
    assert invalid["path"] == str(ws / ".agents" / "skills" / "pdf-forms" / "SKILL.md")
    assert invalid["severity"] == "error"
    assert "pdf-form" not in skills and "pdf-forms" not in skills
    assert by_code["command-collision"]["path"] == str(ws / ".albedo" / "skills" / "model" / "SKILL.md")


def test_examples_check_as_the_readme_runs_it():
    result = run_cli("check", "examples/workspace", "--home", "examples/home", cwd=REPO)
    assert result.returncode == 1
    assert result.stderr.decode() == (
        "albedo-skills: paths are relative to examples/workspace\n"
        "7 skill folders examined, 5 in the catalog, 1 error, 1 warning, 2 information\n"
    )
    lines = result.stdout.decode().splitlines()
    assert lines == [  # the home folder's paths as --home was typed; the workspace's relative to it
        "examples/home/.agents/skills/changelog/SKILL.md:2:7: warning collision skill `changelog` is hidden by "
        ".agents/skills/changelog/SKILL.md (workspace skills win over user skills): rename one of them",
        ".agents/skills/pdf-forms/SKILL.md:2:7: error name-mismatch name `pdf-form` differs "
        "from its folder `pdf-forms`: rename one so they match",
        ".agents/skills/release-notes/SKILL.md:6:1: information field-host-specific "
        "`argument-hint` is defined by other hosts; Albedo ignores this field",
        ".albedo/skills/model/SKILL.md:2:7: information command-collision `/model` is a "
        "built-in command, so this skill is reachable as `/skill:model`",
    ]
    table = run_cli("catalog", "examples/workspace", "--home", "examples/home", "--format", "text", cwd=REPO)
    assert table.returncode == 0
    assert [line.split()[0] for line in table.stdout.decode().splitlines()[1:6]] == [
        "/changelog",
        "/code-review",
        "/commit-message",
        "/skill:model",
        "/release-notes",
    ]


def test_examples_have_resources_and_real_bodies():
    code_review = EXAMPLES / "workspace" / ".albedo" / "skills" / "code-review"
    references = sorted(p.name for p in (code_review / "references").iterdir())
    assert references == ["checklist.md", "security.md"]
    body = (code_review / "SKILL.md").read_text().split("---\n", 2)[2]
    assert "references/checklist.md" in body and "references/security.md" in body
    for skill_file in EXAMPLES.rglob("SKILL.md"):
        body_lines = skill_file.read_text().split("---\n", 2)[2].strip().splitlines()
        assert 8 <= len(body_lines) <= 40, skill_file


def test_sarif_rules_come_from_the_registry_of_codes(mixed_tree):
    from albedo_skills_ls.skills.core.codes import CODES

    write_skill(mixed_tree / "ws" / ".agents" / "skills", "delta", valid("delta") + "version: 2\n")  # information
    log = json.loads(run_cli("check", mixed_tree / "ws", "--home", mixed_tree / "home", "--format", "sarif").stdout)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == ["field-host-specific", "field-unknown", "name-mismatch"]
    levels = {"error": "error", "warning": "warning", "information": "note"}
    for rule in rules:
        code = CODES[rule["id"]]
        assert rule["shortDescription"] == {"text": code.summary}
        assert rule["help"] == {"text": code.help, "markdown": code.help}
        assert code.when in rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"] == {"level": levels[code.severity]}
        assert rule["properties"] == {"quickFix": code.fixable}
    assert {rule["id"]: rule["properties"]["quickFix"] for rule in rules}["name-mismatch"] is True


def closed_pipe_run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    """Run `argv` with its stdout a pipe whose reader is gone before the first byte (`... | true`)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(argv, stdout=write_end, stderr=subprocess.PIPE, timeout=60, **kwargs)
    finally:
        os.close(write_end)


def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path: Path):
    """`albedo-skills check | head -1` with the reader gone before the first byte: status 1 (as documented),
    no traceback, no "Exception ignored" at exit."""
    for index in range(3):
        write_skill(workspace_root(tmp_path), f"skill-{index}", valid(f"skill-{index}") + "user-invocable: true\n")
    (tmp_path / "home").mkdir()
    for verb in ("check", "catalog"):
        argv = [sys.executable, "-m", "albedo_skills_ls.cli", verb, str(tmp_path / "ws"), "--no-user-roots"]
        done = closed_pipe_run(argv, env=dict(os.environ, HOME=str(tmp_path / "home")))
        assert done.returncode == 1, (verb, done.stderr)
        assert b"Traceback" not in done.stderr and b"Exception ignored" not in done.stderr, (verb, done.stderr)


@pytest.mark.parametrize("reader_gone, status", [(False, 0), (True, 1)])
def test_the_program_ends_itself_once_its_output_is_flushed(reader_gone: bool, status: int):
    """app.leave: what is still buffered is written before the process ends (a pipe is block-buffered), and
    a reader gone by then is status 1, quietly, as a reader gone during the run."""
    code = (
        "import sys\nfrom albedo_skills_ls.cli.app import leave\n"
        "sys.stdout.write('buffered ' * 100)\nprint('written', file=sys.stderr, flush=True)\n"
        "sys.stdin.read(1)\nleave(0)\n"
    )
    read_end, write_end = os.pipe()
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}  # as people run it
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=write_end,
                             stderr=subprocess.PIPE, env=buffered)
    os.close(write_end)
    assert child.stderr.readline() == b"written\n"
    if reader_gone:
        os.close(read_end)  # after the write was buffered, before the flush
    child.stdin.write(b"go")
    child.stdin.close()
    assert child.wait(timeout=60) == status
    assert child.stderr.read() == b""
    child.stderr.close()
    if not reader_gone:
        with os.fdopen(read_end, "rb") as reader:
            assert reader.read() == b"buffered " * 100
