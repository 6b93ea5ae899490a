"""Names that are not UTF-8 (docs/design.md#8-trust-boundaries): built for real on disk, shown with escapes in text and
replacement characters in JSON, never a crash; the rest of the tree is still read; a text argument that
is not UTF-8 is refused as a usage error."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_helpers import run_cli, valid, write_skill

BAD_FOLDER = b"bad\xffname"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A workspace with a valid `demo` (one resource named in Latin-1) and a skill folder named with 0xFF."""
    root = tmp_path / "ws" / ".agents" / "skills"
    write_skill(root, "demo", valid("demo"))
    os.mkdir(os.path.join(os.fsencode(root / "demo"), b"references"))
    with open(os.path.join(os.fsencode(root / "demo" / "references"), b"caf\xe9.md"), "wb") as file:
        file.write(b"latin-1 name\n")
    bad = os.path.join(os.fsencode(root), BAD_FOLDER)
    os.mkdir(bad)
    with open(os.path.join(bad, b"SKILL.md"), "wb") as file:
        file.write(b"---\nname: bad\ndescription: Misnamed.\n---\n")
    return tmp_path / "ws"


def check(tree: Path, fmt: str):
    return run_cli("check", tree, "--no-user-roots", "--format", fmt, cwd=tree)


def test_text_shows_the_byte_escaped(tree):
    result = check(tree, "text")
    assert result.returncode == 1  # the misnamed skill is an error, not a crash
    mismatch, unread = result.stdout.decode("utf-8").splitlines()
    assert mismatch == (
        ".agents/skills/bad\\xffname/SKILL.md:2:7: error name-mismatch name `bad` differs from its folder "
        "`bad\\xffname`: rename one so they match"
    )
    # the security reading could not open the resource its name hides, and says so, the byte escaped too
    assert unread.startswith(".agents/skills/demo/references/caf\\xe9.md:1:1: warning security-not-fully-read ")
    assert result.stderr.decode() == "2 skill folders examined, 1 in the catalog, 1 error, 1 warning\n"


def test_github_shows_the_byte_escaped(tree):
    result = check(tree, "github")
    assert result.returncode == 1
    assert result.stdout.decode("utf-8").startswith("::error file=.agents/skills/bad\\xffname/SKILL.md,line=2,")


@pytest.mark.parametrize("verb, fmt", [("check", "json"), ("catalog", "json")])
def test_json_is_utf8_with_replacement_characters(tree, verb, fmt):
    result = run_cli(verb, tree, "--no-user-roots", "--format", fmt)
    assert result.returncode == (1 if verb == "check" else 0), result.stderr
    data = json.loads(result.stdout.decode("utf-8"))  # strict UTF-8: no surrogate reached the bytes
    (finding,) = [d for d in data["diagnostics"] if d["code"] == "name-mismatch"]
    assert finding["path"] == str(tree / ".agents" / "skills" / "bad\ufffdname" / "SKILL.md")
    assert "`bad\ufffdname`" in finding["message"]
    if verb == "catalog":
        assert [s["name"] for s in data["skills"]] == ["demo"]  # the rest of the tree is still read


def test_sarif_uri_keeps_the_true_bytes(tree):
    result = check(tree, "sarif")
    assert result.returncode == 1
    log = json.loads(result.stdout.decode("utf-8"))
    (finding,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "name-mismatch"]
    assert finding["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == ".agents/skills/bad%FFname/SKILL.md"
    assert "\ufffd" in finding["message"]["text"]


def test_catalog_text_and_prompt(tree):
    table = run_cli("catalog", tree, "--no-user-roots", "--format", "text", cwd=tree)
    assert table.returncode == 0
    assert "bad\\xffname" in table.stdout.decode("utf-8")
    prompt = run_cli("catalog", tree, "--no-user-roots", "--format", "prompt")
    assert prompt.returncode == 0 and b"<name>demo</name>" in prompt.stdout


def test_a_workspace_whose_path_is_not_utf8(tmp_path):
    workspace = os.path.join(os.fsencode(tmp_path), b"ws\xfe")
    write_skill(Path(os.fsdecode(workspace)) / ".agents" / "skills", "alpha", valid("alpha"))
    result = run_cli("check", workspace, "--no-user-roots")
    assert result.returncode == 0, result.stderr
    catalog = json.loads(run_cli("catalog", workspace, "--no-user-roots").stdout.decode("utf-8"))
    assert catalog["workspace"] == str(tmp_path / "ws\ufffd")
    assert [s["name"] for s in catalog["skills"]] == ["alpha"]
    sarif = json.loads(run_cli("check", workspace, "--no-user-roots", "--format", "sarif").stdout)
    assert sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/ws%FE/")


def test_resources_and_read_of_a_name_that_is_not_utf8(tree):
    listing = run_cli("resources", "demo", tree, "--no-user-roots")
    assert listing.returncode == 0, listing.stderr
    json.loads(listing.stdout.decode("utf-8"))
    page = run_cli("read", "demo", b"references/caf\xe9.md", tree, "--no-user-roots")
    assert page.returncode == 0, page.stderr
    assert json.loads(page.stdout.decode("utf-8"))["content"] == "latin-1 name\n"


@pytest.mark.parametrize(
    "words",
    [
        (b"invoke", b"/demo", b"\xff\xfe"),
        (b"invoke", b"/d\xffmo"),
        (b"resources", b"de\xffmo"),
        (b"read", b"\xff"),
        (b"new", b"n\xffw"),
        (b"catalog", b"--builtin", b"\xff"),
    ],
)
def test_a_text_argument_that_is_not_utf8_is_a_usage_error(tree, words):
    result = run_cli(*words, "-w", tree, "--no-user-roots")
    assert result.returncode == 2
    assert result.stdout == b""
    assert b"is not valid UTF-8 text (byte \\xff at character " in result.stderr
    assert not (tree / ".agents" / "skills" / "n\udcffw").exists()
