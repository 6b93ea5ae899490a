"""`check --fix`, `--unsafe` and `--diff`: the editor's quick fixes applied to files on disk,
byte for byte, idempotent, and never touching a file they have no fix for."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from cli_helpers import HANG_GUARD_SECONDS, run_cli, valid, write_skill


def root_of(tmp_path: Path) -> Path:
    return tmp_path / ".agents" / "skills"


def snapshot(path: Path) -> tuple[bytes, int, int]:
    info = path.stat()
    return path.read_bytes(), info.st_mtime_ns, info.st_ino


def fix(tmp_path: Path, *extra: str):
    return run_cli("check", tmp_path, "--no-user-roots", "--fix", *extra, cwd=tmp_path)


def test_a_misspelt_key_is_renamed_and_only_its_bytes_change(tmp_path):
    path = root_of(tmp_path) / "alpha" / "SKILL.md"
    path.parent.mkdir(parents=True)
    original = (
        "\ufeff---\r\nname: alpha   # trailing comment\r\ndesciption: Does a thing.  \r\n"
        "license:    MIT\r\n---\r\n# Alpha\r\n\r\nBody  with  spaces.\r\n"
    ).encode("utf-8")
    path.write_bytes(original)
    clean = write_skill(root_of(tmp_path), "beta", valid("beta"))
    untouched = snapshot(clean)
    before = run_cli("check", tmp_path, "--no-user-roots")
    assert before.returncode == 1  # description-missing, until the key is renamed

    result = fix(tmp_path)
    assert result.returncode == 0, result.stderr
    assert path.read_bytes() == original.replace(b"desciption:", b"description:")
    assert snapshot(clean) == untouched  # no fix for it: not even rewritten
    stderr = result.stderr.decode().splitlines()
    assert stderr[0] == ".agents/skills/alpha/SKILL.md:3:1: fixed field-unknown: Rename `desciption` to `description`"
    assert stderr[1] == "albedo-skills: fixed 1 problem in 1 file"
    assert stderr[-1] == "2 skill folders examined, 2 in the catalog, 0 errors, 0 warnings"
    assert result.stdout == b""


def test_fix_is_idempotent(tmp_path):
    write_skill(root_of(tmp_path), "alpha", "name: alpha\ndesciption: Does a thing.\n")
    write_skill(root_of(tmp_path), "gamma", valid("gamma") + "licence: MIT\n")
    assert fix(tmp_path).returncode == 0
    files = sorted(root_of(tmp_path).rglob("SKILL.md"))
    after_first = [snapshot(path) for path in files]
    second = fix(tmp_path)
    assert second.returncode == 0
    assert [snapshot(path) for path in files] == after_first
    assert b"fixed" not in second.stderr


def test_two_misspellings_of_one_key_rename_only_one(tmp_path):
    path = write_skill(root_of(tmp_path), "alpha", "name: alpha\ndesciption: One.\ndescripton: Two.\n")
    first = fix(tmp_path)
    text = path.read_text()
    assert text.count("description:") == 1, text  # renaming both would make a duplicate key
    assert "yaml-duplicate-key" not in first.stdout.decode()
    assert b"warning field-unknown" in first.stdout  # the other one is still reported
    again = snapshot(path)
    fix(tmp_path)
    assert snapshot(path) == again


def test_identity_changing_fixes_need_unsafe(tmp_path):
    path = write_skill(root_of(tmp_path), "tools", "name: tool\ndescription: Does a thing.\n")
    original = snapshot(path)
    safe = fix(tmp_path)
    assert safe.returncode == 1  # name-mismatch is still an error
    assert snapshot(path) == original
    assert b"error name-mismatch" in safe.stdout
    unsafe = fix(tmp_path, "--unsafe")
    assert unsafe.returncode == 0, unsafe.stderr
    assert path.read_text() == "---\nname: tools\ndescription: Does a thing.\n---\n# Body\n\nDo the thing.\n"
    assert "fixed name-mismatch: Set name to the folder's name `tools`" in unsafe.stderr.decode()


def test_diff_shows_the_edits_and_writes_nothing(tmp_path):
    path = write_skill(root_of(tmp_path), "tools", "name: tool\ndesciption: Does a thing.\n")
    original = snapshot(path)
    safe = run_cli("check", tmp_path, "--no-user-roots", "--diff", cwd=tmp_path)
    assert safe.returncode == 1  # the exit status is the check's, of the files as they are
    assert snapshot(path) == original
    assert safe.stdout.decode() == (
        "diff --git a/.agents/skills/tools/SKILL.md b/.agents/skills/tools/SKILL.md\n"
        "--- a/.agents/skills/tools/SKILL.md\n"
        "+++ b/.agents/skills/tools/SKILL.md\n"
        "@@ -1,6 +1,6 @@\n"
        " ---\n"
        " name: tool\n"
        "-desciption: Does a thing.\n"
        "+description: Does a thing.\n"
        " ---\n"
        " # Body\n"
        " \n"
    )
    assert safe.stderr.decode() == "albedo-skills: 1 fix in 1 file would be applied; nothing was written\n"
    unsafe = run_cli("check", tmp_path, "--no-user-roots", "--diff", "--unsafe", cwd=tmp_path)
    assert "\n-name: tool\n" in unsafe.stdout.decode() and "\n+name: tools\n" in unsafe.stdout.decode()
    assert unsafe.stderr.decode() == "albedo-skills: 2 fixes in 1 file would be applied; nothing was written\n"
    assert snapshot(path) == original


def test_fix_of_one_file(tmp_path):
    path = write_skill(tmp_path / "loose", "alpha", "name: alpha\ndescription: x\nlicence: MIT\n")
    result = run_cli("check", path, "--fix", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "license: MIT" in path.read_text()


@pytest.mark.parametrize(
    "words, message",
    [(("--unsafe",), b"--unsafe goes with --fix or --diff"), (("--diff", "--format", "json"), b"takes no --format")],
)
def test_fix_usage_errors(tmp_path, words, message):
    result = run_cli("check", tmp_path, *words)
    assert result.returncode == 2 and message in result.stderr


def test_json_output_after_fix_is_what_is_left(tmp_path):
    write_skill(root_of(tmp_path), "alpha", valid("alpha") + "licence: MIT\n")
    result = run_cli("check", tmp_path, "--no-user-roots", "--fix", "--format", "json")
    assert result.returncode == 0
    assert json.loads(result.stdout)["diagnostics"] == []
    assert b"fixed field-unknown" in result.stderr


def test_a_file_that_is_not_a_regular_file_is_never_fixed(tmp_path):
    real = write_skill(tmp_path / "elsewhere", "alpha", "name: alpha\ndesciption: x\n")
    linked = root_of(tmp_path) / "alpha"
    linked.mkdir(parents=True)
    os.symlink(real, linked / "SKILL.md")  # a link outside its skill folder: refused by discovery
    before = snapshot(real)
    result = fix(tmp_path)
    assert snapshot(real) == before
    assert b"skill-file-not-regular" in result.stdout



def test_a_list_of_allowed_tools_is_joined(tmp_path):
    path = write_skill(
        root_of(tmp_path), "alpha", valid("alpha") + "allowed-tools:\n  - Read\n  - Bash(git:*)\nlicense: MIT\n"
    )
    result = fix(tmp_path)
    assert result.returncode == 0, result.stderr
    assert path.read_text() == (
        "---\nname: alpha\ndescription: Does a useful thing. Use when asked.\nallowed-tools: Read Bash(git:*)\n"
        "license: MIT\n---\n# Body\n\nDo the thing.\n"
    )
    assert b"fixed allowed-tools-list" in result.stderr
    assert result.stderr.decode().splitlines()[-1] == "1 skill folder examined, 1 in the catalog, 0 errors, 0 warnings"


def test_a_lower_case_skill_file_is_renamed(tmp_path):
    folder = root_of(tmp_path) / "alpha"
    folder.mkdir(parents=True)
    (folder / "skill.md").write_text("---\nname: alpha\ndescription: Does a thing.\n---\n")
    diff = run_cli("check", tmp_path, "--no-user-roots", "--diff", cwd=tmp_path)
    assert diff.stdout.decode() == (  # git's rename header, which `git apply` applies
        "diff --git a/.agents/skills/alpha/skill.md b/.agents/skills/alpha/SKILL.md\nsimilarity index 100%\n"
        "rename from .agents/skills/alpha/skill.md\nrename to .agents/skills/alpha/SKILL.md\n"
    )
    assert os.listdir(folder) == ["skill.md"]
    result = fix(tmp_path)
    assert result.returncode == 0, result.stderr
    assert os.listdir(folder) == ["SKILL.md"]
    assert "fixed skill-file-missing: Rename `skill.md` to `SKILL.md`" in result.stderr.decode()
    assert result.stderr.decode().splitlines()[-1] == "1 skill folder examined, 1 in the catalog, 0 errors, 0 warnings"


def test_fix_leaves_the_user_roots_alone(tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    inside = write_skill(ws / ".agents" / "skills", "alpha", valid("alpha") + "licence: MIT\n")
    mine = write_skill(home / ".agents" / "skills", "mine", valid("mine") + "licence: MIT\n")
    before = snapshot(mine)
    result = run_cli("check", ws, "--home", home, "--fix", cwd=tmp_path)
    assert "license: MIT" in inside.read_text()
    assert snapshot(mine) == before
    assert (
        "albedo-skills: left alone outside the workspace: home/.agents/skills/mine/SKILL.md (1 fix); "
        "fix it with `albedo-skills check home/.agents/skills/mine/SKILL.md --fix`"
    ) in result.stderr.decode().splitlines()
    alone = run_cli("check", "home/.agents/skills/mine/SKILL.md", "--fix", cwd=tmp_path)
    assert alone.returncode == 0 and "license: MIT" in mine.read_text()


def git(repository: Path, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", *words],
        cwd=repository, capture_output=True, timeout=HANG_GUARD_SECONDS,
    )


def test_the_diff_is_a_patch_git_apply_applies(tmp_path):
    # edits (a key renamed, a list joined in a CRLF file, a file without a final line break), a rename, and
    # paths git must quote: run from a subfolder, the patch is relative to the workspace, where git applies it
    repository = tmp_path / "repo"
    root = root_of(repository)
    write_skill(root, "alpha", valid("alpha") + "licence: MIT\n", body="# Alpha")
    (root / "beta").mkdir(parents=True)
    (root / "beta" / "skill.md").write_text("---\nname: beta\ndescription: Does b. Use when asked.\n---\n")
    spaced = root / "g a" / "SKILL.md"
    spaced.parent.mkdir()
    spaced.write_bytes(b"---\r\nname: g a\r\ndescription: G.\r\nallowed-tools:\r\n  - Read\r\n  - Grep\r\n---\r\n")
    write_skill(root, "d\u00e9lta", "name: d\u00e9lta\ndescription: D.\nlicence: MIT\n")
    (repository / "src").mkdir()
    assert git(repository, "init", "-q", ".").returncode == 0
    assert git(repository, "add", "-A").returncode == 0
    assert git(repository, "commit", "-qm", "skills").returncode == 0
    patch = run_cli("check", "--no-user-roots", "--diff", cwd=repository / "src")
    assert patch.stderr.decode().splitlines() == [
        "albedo-skills: the patch's paths are relative to ..",
        "albedo-skills: 4 fixes in 4 files would be applied; nothing was written",
    ]
    text = patch.stdout.decode()
    assert "rename from .agents/skills/beta/skill.md\nrename to .agents/skills/beta/SKILL.md\n" in text
    assert 'diff --git "a/.agents/skills/d\\303\\251lta/SKILL.md" "b/.agents/skills/d\\303\\251lta/SKILL.md"\n' in text
    (tmp_path / "fixes.patch").write_bytes(patch.stdout)
    checked = git(repository, "apply", "--check", str(tmp_path / "fixes.patch"))
    assert checked.returncode == 0, checked.stderr
    assert git(repository, "apply", str(tmp_path / "fixes.patch")).returncode == 0
    assert (root / "alpha" / "SKILL.md").read_text().endswith("license: MIT\n---\n# Alpha")  # no final break kept
    assert sorted(os.listdir(root / "beta")) == ["SKILL.md"]
    assert spaced.read_bytes() == b"---\r\nname: g a\r\ndescription: G.\r\nallowed-tools: Read Grep\r\n---\r\n"
    # what is left is what no safe fix can change: the two invalid names
    after = run_cli("check", "--no-user-roots", "--diff", cwd=repository)
    assert after.stdout == b""
    left = run_cli("check", "--no-user-roots", cwd=repository).stdout.decode().splitlines()
    assert [line.split(": error ")[1].split()[0] for line in left] == ["name-invalid", "name-invalid"]


def test_an_unquoted_colon_is_explained_and_fix_quotes_the_value(tmp_path):
    path = write_skill(root_of(tmp_path), "alpha", "name: alpha\ndescription: Use this: when asked\n")
    before = run_cli("check", "--no-user-roots", cwd=tmp_path)
    assert before.returncode == 1
    assert before.stdout.decode() == (
        ".agents/skills/alpha/SKILL.md:3:14: error yaml-unquoted-colon the value of `description` holds `: ` (a colon "
        "and a space), which YAML reads as the start of another key: put the whole value in double quotes (a `\"` "
        "inside it written `\\\"`), or fold it with `>-` and write the text on the next lines, indented\n"
    )
    fixed = fix(tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert fixed.stderr.decode().splitlines()[0] == (
        ".agents/skills/alpha/SKILL.md:3:14: fixed yaml-unquoted-colon: Put the value in double quotes"
    )
    assert path.read_text() == '---\nname: alpha\ndescription: "Use this: when asked"\n---\n# Body\n\nDo the thing.\n'


@pytest.mark.parametrize("applied_in", ["skills", "."])
def test_a_workspace_inside_a_repository_gets_a_patch_from_the_repositorys_top(tmp_path, applied_in):
    # `git apply` reads a patch's paths from the repository's top folder (and skips, silently, the paths
    # outside the folder it runs in): the paths start there, so it applies from the workspace or the top
    repository = tmp_path / "repo"
    path = write_skill(repository / "skills" / ".agents" / "skills", "alpha", valid("alpha") + "licence: MIT\n")
    assert git(repository, "init", "-q", ".").returncode == 0
    assert git(repository, "add", "-A").returncode == 0
    assert git(repository, "commit", "-qm", "skills").returncode == 0
    patch = run_cli("check", "--no-user-roots", "--diff", cwd=repository / "skills")
    assert patch.stdout.decode().startswith(
        "diff --git a/skills/.agents/skills/alpha/SKILL.md b/skills/.agents/skills/alpha/SKILL.md\n"
    )
    assert patch.stderr.decode().splitlines()[0] == "albedo-skills: the patch's paths are relative to .."
    (tmp_path / "fix.patch").write_bytes(patch.stdout)
    applied = git(repository / applied_in, "apply", str(tmp_path / "fix.patch"))
    assert applied.returncode == 0 and applied.stderr == b"", applied.stderr
    assert "license: MIT" in path.read_text()
