"""The server bundled in the VS Code extension runs on ruamel.yaml's pure-Python parser, and finds the same.

The universal .vsix leaves out ruamel.yaml.clibz (libyaml, a compiled module), so on a user's machine the
engine reads YAML with the pure-Python parser that our own environment never uses. This builds the bundle
with the extension's own script, runs `albedo-skills check` in a fresh interpreter whose only packages are
the bundle's (`-I`, nothing from this virtualenv), and compares with the same check here, on libyaml.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from albedo_skills_ls.skills.document import yaml_events

EXTENSION = Path(__file__).resolve().parents[2] / "vscode-extension"

# Frontmatter that exercises the YAML reader: block and folded scalars, flow collections, quoting, comments,
# duplicate keys, anchors, tags, syntax errors, a BOM, CRLF line ends and non-ASCII text.
SKILLS = {
    "folded": "---\nname: folded\ndescription: >\n  Folded text\n  over two lines.\nlicense: MIT\n---\nBody.\n",
    "literal": "---\nname: literal\ndescription: |\n  Keeps\n  line breaks.\nmetadata:\n  owner: ops  # a comment\n  tags: [a, 'b', \"c\"]\n---\n",
    "duplicate": "---\nname: duplicate\ndescription: first\ndescription: second\n---\n",
    "anchored": "---\nname: anchored\ndescription: &text shared\nmetadata:\n  again: *text\n---\n",
    "tagged": "---\nname: tagged\ndescription: !!str tagged\ncompatibility: !custom x\n---\n",
    "broken": "---\nname: broken\ndescription: \"never closed\n---\n",
    "bad-indent": "---\nname: bad-indent\ndescription: ok\n  metadata: nested wrongly\n---\n",
    "mismatch": "---\nname: other-name\ndescription: The folder says mismatch.\n---\n",
    "crlf": "---\r\nname: crlf\r\ndescription: Windows line ends, déjà vu ✓\r\n---\r\n",
    "bom": "\ufeff---\nname: bom\ndescription: Starts with a byte order mark.\n---\n",
    "flow": "---\nname: flow\ndescription: {not: a string}\nallowed-tools: [Read, Write\n---\n",
    "empty": "---\n---\n",
}

CHECK = (
    "import json, sys\n"
    "from albedo_skills_ls.cli import main\n"
    "from albedo_skills_ls.skills.document import yaml_events\n"
    "sys.stderr.write('c_parser=%s\\n' % (yaml_events._Yaml.load().c_parser is not None))\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


@pytest.fixture(scope="module")
def bundled_libs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    libs = tmp_path_factory.mktemp("bundle") / "libs"
    subprocess.run(
        [sys.executable, str(EXTENSION / "scripts" / "bundle-server.py"), "--out", str(libs)],
        check=True,
        capture_output=True,
    )
    return libs


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    for folder, text in SKILLS.items():
        skill = root / ".agents" / "skills" / folder
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_bytes(text.encode("utf-8"))
    return root


def check(python_args: list[str], workspace: Path, first_on_path: Path | None = None) -> tuple[bool, dict]:
    code = CHECK if first_on_path is None else f"import sys; sys.path.insert(0, {str(first_on_path)!r})\n{CHECK}"
    result = subprocess.run(
        [*python_args, "-c", code, "check", "--no-user-roots", "--format", "json", str(workspace)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=workspace,
    )
    assert result.returncode in (0, 1), result.stderr
    c_parser = result.stderr.splitlines()[0]
    return c_parser == "c_parser=True", json.loads(result.stdout)


def test_the_bundle_has_no_compiled_module(bundled_libs: Path):
    assert (bundled_libs / "albedo_skills_ls" / "skills" / "document" / "frontmatter.py").is_file()
    assert (bundled_libs / "ruamel" / "yaml" / "__init__.py").is_file()
    assert [path.name for path in bundled_libs.rglob("*") if path.suffix in (".so", ".pyd", ".dylib")] == []


def test_the_pure_python_parser_finds_what_libyaml_finds(bundled_libs: Path, workspace: Path):
    # `-I -S`: no PYTHONPATH, no site-packages at all, no working folder: the standard library and the bundle.
    used_c, with_libyaml = check([sys.executable], workspace)
    bundled_used_c, pure = check([sys.executable, "-I", "-S"], workspace, first_on_path=bundled_libs)

    assert used_c, "this environment should have ruamel.yaml.clibz, or the comparison proves nothing"
    assert not bundled_used_c, "the bundle must not reach the compiled parser"
    assert yaml_events._Yaml.load().c_parser is not None
    # Everything agrees (files, codes, severities, places, related places, counts, the advice on a common
    # mistake) except the parser's words quoted by another syntax error ("not allowed in this context" / "here").
    assert comparable(pure) == comparable(with_libyaml)
    syntax = [d for d in with_libyaml["diagnostics"] if d["code"] == "yaml-syntax"]
    assert len(syntax) >= 3, "the fixture should hold several syntax errors"
    # The fixture really exercises the reader: several kinds of findings.
    assert len({diagnostic["code"] for diagnostic in with_libyaml["diagnostics"]}) >= 5


def comparable(report: dict) -> dict:
    def without_parser_words(diagnostic: dict) -> dict:
        # a common mistake is explained in the engine's own words, the same whichever parser stopped; any other
        # syntax error quotes the parser's words, which differ
        generic = re.fullmatch(r"YAML syntax error: .+(: fix the frontmatter; .+)", diagnostic["message"])
        if diagnostic["code"] == "yaml-syntax" and generic:
            return {**diagnostic, "message": f"YAML syntax error: …{generic.group(1)}"}
        return diagnostic

    return {**report, "diagnostics": [without_parser_words(diagnostic) for diagnostic in report["diagnostics"]]}
