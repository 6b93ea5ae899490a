"""The command line as a new user meets it: where the workspace is, the same workspace form on
every verb, messages in the command line's words, one file checked alone, exit statuses, `new`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import EXAMPLES, REPO, run_cli, valid, write_skill

from albedo_skills_ls.cli.wording import VERB_FOR_ROUTE

WORKSPACE, HOME = EXAMPLES / "workspace", EXAMPLES / "home"
PDF_FORMS = Path("examples/workspace/.agents/skills/pdf-forms/SKILL.md")


def catalog_of(*args, **kwargs) -> dict:
    result = run_cli("catalog", *args, **kwargs)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


# --- the workspace, looked up like git --------------------------------------------------------------------


@pytest.mark.parametrize("marker", [".agents/skills", ".albedo/skills", ".git"])
def test_a_subfolder_finds_the_workspace_above_it(tmp_path, marker):
    project = tmp_path / "project"
    (project / marker).mkdir(parents=True)
    write_skill(project / ".agents" / "skills", "alpha", valid("alpha"))
    deep = project / "src" / "deeper"
    deep.mkdir(parents=True)
    data = catalog_of("--no-user-roots", cwd=deep)
    assert data["workspace"] == str(project)
    assert [s["name"] for s in data["skills"]] == ["alpha"]
    check = run_cli("check", "--no-user-roots", cwd=deep)
    assert check.returncode == 0
    assert check.stderr.decode() == "1 skill folder examined, 1 in the catalog, 0 errors, 0 warnings\n"


def test_a_git_worktree_file_marks_the_workspace_too(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").write_text("gitdir: /elsewhere\n")
    (project / "sub").mkdir()
    assert catalog_of("--no-user-roots", cwd=project / "sub")["workspace"] == str(project)


def test_the_nearest_folder_wins(tmp_path):
    outer = tmp_path / "outer"
    (outer / ".git").mkdir(parents=True)
    write_skill(outer / ".agents" / "skills", "outer-skill", valid("outer-skill"))
    inner = outer / "packages" / "inner"
    write_skill(inner / ".albedo" / "skills", "inner-skill", valid("inner-skill"))
    (inner / "src").mkdir()
    data = catalog_of("--no-user-roots", cwd=inner / "src")
    assert data["workspace"] == str(inner)
    assert [s["name"] for s in data["skills"]] == ["inner-skill"]


def test_the_home_folder_is_not_taken_for_a_workspace(tmp_path):
    home = tmp_path / "home"
    write_skill(home / ".agents" / "skills", "mine", valid("mine"))
    notes = home / "notes"
    notes.mkdir()
    data = catalog_of(cwd=notes, home=home)
    assert data["workspace"] == str(notes)  # nothing found upward but the home folder: the current folder
    assert [(s["name"], s["scope"]) for s in data["skills"]] == [("mine", "user")]


def test_a_named_workspace_is_not_looked_up(tmp_path):
    (tmp_path / ".git").mkdir()
    write_skill(tmp_path / ".agents" / "skills", "alpha", valid("alpha"))
    (tmp_path / "sub").mkdir()
    data = catalog_of("sub", "--no-user-roots", cwd=tmp_path)
    assert data["workspace"] == str(tmp_path / "sub") and data["skills"] == []


def test_a_check_that_examines_nothing_exits_2_saying_what_was_looked_for(tmp_path):
    empty, home = tmp_path / "empty", tmp_path / "home"
    empty.mkdir()
    home.mkdir()
    result = run_cli("check", cwd=empty, home=home)
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr.decode() == (
        "albedo-skills: error: no skill to check: looked in .albedo/skills, .agents/skills, ~/.albedo/skills, "
        "~/.agents/skills, ~/.prime/agent/skills (no folder from the current one upward holds .albedo/skills, "
        ".agents/skills or .git); name what to check: `albedo-skills check PATH` (a skill folder, a SKILL.md, a "
        "skills root or a folder of skill folders)\n"
    )
    named = run_cli("check", "empty", cwd=tmp_path, home=home)
    assert (named.returncode, named.stdout) == (2, b"")
    assert named.stderr.decode() == (
        "albedo-skills: error: empty holds no skill: looked for empty/SKILL.md, skill folders empty/*/SKILL.md, "
        "the skills roots empty/.albedo/skills and empty/.agents/skills, and any SKILL.md beneath it\n"
    )
    # a named workspace holds no skill even when the home folder does: the home's skills are not what was named
    write_skill(home / ".agents" / "skills", "mine", valid("mine"))
    (empty / ".git").mkdir()
    (empty / ".agents" / "skills").mkdir(parents=True)
    repository = run_cli("check", "empty", cwd=tmp_path, home=home)
    assert (repository.returncode, repository.stdout) == (2, b"")
    assert repository.stderr.decode() == (
        "albedo-skills: error: empty holds no skill: looked for skill folders in empty/.albedo/skills, "
        "empty/.agents/skills\n"
    )
    # with no PATH, the user roots are part of what is checked
    found = run_cli("check", cwd=empty, home=home)
    assert found.returncode == 0
    assert found.stderr.decode() == "1 skill folder examined, 1 in the catalog, 0 errors, 0 warnings\n"
    (empty / ".agents" / "skills" / "notes.txt").write_text("a file beside skill folders is no skill")
    assert run_cli("check", "--no-user-roots", cwd=empty, home=home).returncode == 2


def test_a_found_root_is_not_reported_missing(tmp_path):
    write_skill(tmp_path / "ws" / ".agents" / "skills", "alpha", valid("alpha"))
    result = run_cli("check", "--no-user-roots", cwd=tmp_path / "ws")
    assert b"no skills folder" not in result.stderr


# --- the same workspace form on every verb ---------------------------------------------------------------

EXAMPLE_RUNS = {
    "check": ("check",),
    "catalog": ("catalog",),
    "commands": ("commands",),
    "invoke": ("invoke", "/changelog", "notes"),
    "resources": ("resources", "code-review"),
    "read": ("read", "code-review", "references/checklist.md"),
}


@pytest.mark.parametrize("verb", sorted(EXAMPLE_RUNS))
def test_every_verb_takes_the_workspace_as_last_positional_or_w(verb, tmp_path):
    words = EXAMPLE_RUNS[verb]
    home = ("--home", str(HOME))
    positional = run_cli(*words, "examples/workspace", *home, cwd=REPO)
    option = run_cli(*words, "-w", "examples/workspace", *home, cwd=REPO)
    long_option = run_cli(*words, *home, "--workspace", "examples/workspace", cwd=REPO)
    found = run_cli(*words, *home, cwd=WORKSPACE / ".agents" / "skills")  # looked up from a subfolder
    assert positional.returncode in (0, 1) and positional.stdout
    for other in (option, long_option):
        assert (other.returncode, other.stdout, other.stderr) == (positional.returncode, positional.stdout, positional.stderr)
    assert found.returncode == positional.returncode
    if verb != "catalog":  # its table shows paths relative to the current folder; check's to the workspace
        assert found.stdout == positional.stdout
    both = run_cli(*words, "examples/workspace", "-w", "examples", cwd=REPO)
    assert both.returncode == 2 and b"two workspaces named" in both.stderr


# --- messages in the command line's words -----------------------------------------------------------------


def assert_no_route_names(text: str) -> None:
    for route in VERB_FOR_ROUTE:
        assert route not in text


def test_refusals_name_verbs_not_routes():
    ws = ("-w", str(WORKSPACE), "--home", str(HOME))
    missing = run_cli("read", "code-review", "references/nope.md", *ws)
    assert missing.returncode == 1 and missing.stdout == b""
    text = missing.stderr.decode()
    assert "`albedo-skills resources SKILL`" in text
    assert_no_route_names(text)
    folder = run_cli("read", "code-review", "references", *ws).stderr.decode()
    assert "is a folder" in folder and "`albedo-skills resources SKILL`" in folder
    assert_no_route_names(folder)
    unknown = run_cli("invoke", "/nosuch", *ws)
    assert unknown.returncode == 1
    assert unknown.stderr.decode() == (
        "albedo-skills: error: no skill named `/nosuch` in the catalog: run `albedo-skills commands` to list them\n"
    )
    help_text = run_cli("--help").stdout.decode()
    assert_no_route_names(help_text)


@pytest.mark.parametrize(
    "words",
    [("resources", "pdf-forms"), ("read", "pdf-forms"), ("invoke", "/pdf-forms"), ("invoke", "pdf-forms"), ("read", "/skill:pdf-forms")],
)
def test_an_invalid_skill_is_reported_with_its_error(words):
    result = run_cli(*words, "-w", "examples/workspace", "--home", "examples/home", cwd=REPO)
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.decode() == (
        f"albedo-skills: error: `pdf-forms` is not in the catalog: name-mismatch at {PDF_FORMS}:2:7: "
        "name `pdf-form` differs from its folder `pdf-forms`: rename one so they match\n"
    )


def test_a_folder_without_skill_file_is_reported_with_its_error(tmp_path):
    (tmp_path / ".agents" / "skills" / "empty").mkdir(parents=True)
    result = run_cli("resources", "empty", tmp_path, "--no-user-roots", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.decode().startswith(
        "albedo-skills: error: `empty` is not in the catalog: skill-file-missing at .agents/skills/empty:1:1: "
    )


# --- one SKILL.md checked alone ---------------------------------------------------------------------------


def test_check_one_file_as_a_single_skill(tmp_path):
    root = tmp_path / ".agents" / "skills"
    write_skill(root, "alpha", valid("alpha"))
    loser = write_skill(tmp_path / ".albedo" / "skills", "alpha", valid("alpha") + "desciption: typo\n")
    whole = run_cli("check", tmp_path, "--no-user-roots", cwd=tmp_path)
    assert b"collision" in whole.stdout  # in the workspace the second `alpha` is hidden
    alone = run_cli("check", ".albedo/skills/alpha/SKILL.md", cwd=tmp_path)
    assert alone.returncode == 0
    (line,) = alone.stdout.decode().splitlines()
    assert line.startswith(".albedo/skills/alpha/SKILL.md:4:1: warning field-unknown ")
    assert alone.stderr.decode() == "1 skill folder examined, 1 in the catalog, 0 errors, 1 warning\n"
    report = json.loads(run_cli("check", loser, "--format", "json").stdout)
    assert [d["code"] for d in report["diagnostics"]] == ["field-unknown"]
    assert report["diagnostics"][0]["path"] == str(loser)


def test_check_one_file_expects_its_folders_name(tmp_path):
    path = write_skill(tmp_path / "anywhere", "tool", valid("other"))
    result = run_cli("check", path, "--format", "github", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.decode().startswith("::error file=anywhere/tool/SKILL.md,line=2,col=7,")
    assert "title=name-mismatch" in result.stdout.decode()
    sarif = json.loads(run_cli("check", path, "--format", "sarif").stdout)
    (finding,) = sarif["runs"][0]["results"]
    assert finding["ruleId"] == "name-mismatch"
    assert finding["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": path.as_uri()}


def test_check_one_file_that_cannot_be_read_as_a_skill(tmp_path):
    folder = tmp_path / "skill"
    folder.mkdir()
    (folder / "SKILL.md").write_bytes(b"---\nname: skill\ndescription: caf\xe9\n---\n")
    # the skill rules' verdict alone: the security reading's own note on the undecodable file is its business
    encoding = run_cli("check", folder / "SKILL.md", "--disable", "security", cwd=tmp_path)
    assert encoding.returncode == 1
    assert encoding.stdout.decode().startswith("skill/SKILL.md:3:17: error encoding ")
    assert encoding.stderr.decode() == "1 skill folder examined, 0 in the catalog, 1 error, 0 warnings\n"
    fifo_folder = tmp_path / "piped"
    fifo_folder.mkdir()
    os.mkfifo(fifo_folder / "SKILL.md")
    fifo = run_cli("check", fifo_folder / "SKILL.md", cwd=tmp_path)  # never opened, so never blocks
    assert fifo.returncode == 1
    assert b"error skill-file-not-regular SKILL.md is a FIFO" in fifo.stdout


@pytest.mark.parametrize("name, hint", [("README.md", False), ("skill.md", True)])
def test_check_a_file_that_is_not_a_skill_file_is_a_usage_error(tmp_path, name, hint):
    (tmp_path / name).write_text("---\nname: x\n---\n")
    result = run_cli("check", tmp_path / name)
    assert result.returncode == 2 and result.stdout == b""
    assert b"is not a folder, nor a file named SKILL.md" in result.stderr
    assert (b"rename it to SKILL.md" in result.stderr) is hint


# --- exit statuses ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "words",
    [
        ("read", "code-review", "--offset", "-1"),
        ("read", "code-review", "--limit", "-5"),
        ("read", "code-review", "--offset", "ten"),
        ("invoke", ""),
        ("invoke", "   "),
    ],
)
def test_usage_errors_exit_2(words):
    result = run_cli(*words, "-w", str(WORKSPACE), "--home", str(HOME))
    assert result.returncode == 2, result.stderr
    assert result.stdout == b""
    assert result.stderr.decode().count("error:") == 1


def test_the_offset_and_limit_bounds_are_accepted_at_zero():
    page = run_cli("read", "code-review", "--offset", "0", "--limit", "0", "-w", str(WORKSPACE), "--home", str(HOME))
    assert page.returncode == 0, page.stderr
    assert json.loads(page.stdout)["content"] == ""


def run_with_a_bug(tmp_path: Path, exception: str) -> subprocess.CompletedProcess:
    """The real command line with discovery replaced by one that raises: what a bug in the engine looks like."""
    (tmp_path / ".agents" / "skills").mkdir(parents=True, exist_ok=True)  # a workspace, so discovery runs
    code = (
        "import sys\n"
        "import albedo_skills_ls.skills.catalog.discovery as discovery\n"
        "def broken(*args, **kwargs):\n"
        f"    raise {exception}\n"
        "discovery.discover = broken\n"
        "from albedo_skills_ls.cli import main\n"
        f"sys.exit(main(['check', {str(tmp_path)!r}]))\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)


@pytest.mark.parametrize(
    "exception, shown",
    [
        ("KeyError('gone')", "KeyError: 'gone'"),
        ("RuntimeError('two\\nlines')", "RuntimeError: two"),
        ("UnicodeEncodeError('utf-8', '\\udcff', 0, 1, 'surrogates not allowed')", "UnicodeEncodeError: "),
    ],
)
def test_a_bug_exits_3_with_one_line(tmp_path, exception, shown):
    result = run_with_a_bug(tmp_path, exception)
    assert result.returncode == 3
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("albedo-skills: error: internal error (a bug in albedo-skills, please report it): ")
    assert shown in lines[0] and "in broken" in lines[0]
    assert "Traceback" not in lines[0]


# --- new ----------------------------------------------------------------------------------------------------


def test_new_creates_a_valid_skill_whose_placeholder_check_warns_about(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    result = run_cli("new", "release-notes", cwd=tmp_path / "src", home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    created = tmp_path / ".agents" / "skills" / "release-notes" / "SKILL.md"
    assert result.stdout.decode() == (
        f"created {created}: replace its placeholder `description` with what the skill does and when to use it "
        "(`check` warns until you do)\n"
    )
    text = created.read_text(encoding="utf-8")
    assert text.startswith("---\nname: release-notes\ndescription: ")
    check = run_cli("check", "--no-user-roots", cwd=tmp_path)
    assert check.returncode == 0  # valid: in the catalog, with a warning to act on
    assert check.stdout.decode() == (
        ".agents/skills/release-notes/SKILL.md:3:14: warning description-placeholder `description` is still the "
        "placeholder of a new skill: replace it with what the skill does and when to use it (the model reads it "
        "to decide when to use the skill)\n"
    )
    assert check.stderr.decode() == "1 skill folder examined, 1 in the catalog, 0 errors, 1 warning\n"
    assert [s["command"] for s in catalog_of(tmp_path, "--no-user-roots")["skills"]] == ["/release-notes"]
    created.write_text(text.replace("Replace this text with what the skill does and when to use it", "Writes "
                       "release notes from merged changes. Use when preparing a release."), encoding="utf-8")
    replaced = run_cli("check", "--no-user-roots", cwd=tmp_path)
    assert (replaced.returncode, replaced.stdout) == (0, b"")


@pytest.mark.parametrize("root, location", [("albedo", "ws/.albedo/skills"), ("user", "home/.agents/skills"), ("agents", "ws/.agents/skills")])
def test_new_root_option(tmp_path, root, location):
    (tmp_path / "ws").mkdir()
    (tmp_path / "home").mkdir()
    result = run_cli("new", "deploy", tmp_path / "ws", "--root", root, "--home", tmp_path / "home")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / location / "deploy" / "SKILL.md").is_file()
    data = catalog_of(tmp_path / "ws", "--home", tmp_path / "home")
    assert [(s["name"], s["scope"]) for s in data["skills"]] == [("deploy", "user" if root == "user" else "workspace")]


@pytest.mark.parametrize("name", ["Release_Notes", "x-", "a--b", "x" * 65, "ünï"])
def test_new_checks_the_name_first(tmp_path, name):
    result = run_cli("new", name, tmp_path)
    assert result.returncode == 2 and result.stdout == b""
    assert b"is not a valid skill name" in result.stderr
    assert not (tmp_path / ".agents").exists()


def test_new_accepts_a_name_at_the_length_bound(tmp_path):
    from albedo_skills_ls.skills.core.limits import MAX_NAME_CHARS

    name = "x" * MAX_NAME_CHARS
    assert run_cli("new", name, tmp_path).returncode == 0
    assert (tmp_path / ".agents" / "skills" / name / "SKILL.md").is_file()


@pytest.mark.parametrize("existing", ["SKILL.md", "skill.md"])
def test_new_never_overwrites(tmp_path, existing):
    folder = tmp_path / ".agents" / "skills" / "mine"
    folder.mkdir(parents=True)
    (folder / existing).write_text("my own words\n")
    result = run_cli("new", "mine", tmp_path)
    assert result.returncode == 1
    assert b"already exists; nothing was written" in result.stderr
    assert (folder / existing).read_text() == "my own words\n"
    assert sorted(os.listdir(folder)) == [existing]


def test_new_fills_a_folder_that_has_no_skill_file_yet(tmp_path):
    folder = tmp_path / ".agents" / "skills" / "mine"
    (folder / "scripts").mkdir(parents=True)
    assert run_cli("new", "mine", tmp_path).returncode == 0
    assert (folder / "SKILL.md").is_file() and (folder / "scripts").is_dir()
