"""Which of the engine's stages each verb loads, and the server before it answers `initialize`.

The engine's subpackages are stages (`albedo_skills_ls/skills/__init__.py`); a verb imports the stages it
uses when it runs, so a one-skill `check` in a pre-commit hook does not pay for the agent models, the
language features or the authoring help. Each case below runs the real program in a fresh interpreter and
compares the set of stages it imported with the set the verb uses: a verb that starts importing a stage it
does not use fails here, and so does one that stops loading a stage the table says it needs (the table is
then out of date).
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import valid, write_skill

ENGINE = "albedo_skills_ls.skills."
REPO = Path(__file__).resolve().parents[2]

# verb (its words after the program's name, with WS for the workspace) -> the stages it uses
VERB_STAGES = {
    # validation and the security reading, over the catalog
    # and `command-unknown`, which compares the `/words` of the texts with the commands
    ("check", "WS", "--no-user-roots"): {"core", "document", "resources", "catalog", "security", "language"},
    ("catalog", "WS", "--no-user-roots"): {"core", "document", "catalog"},
    # the activation reads the session's catalog, which keeps the resources' encoding verdicts
    ("invoke", "alpha", "merge these", "--workspace", "WS", "--no-user-roots"): {
        "core", "document", "resources", "catalog", "activation",
    },
    ("read", "alpha", "--workspace", "WS", "--no-user-roots"): {"core", "document", "resources", "catalog"},
    ("hosts", "WS", "--no-user-roots"): {"core", "document", "catalog", "hosts"},
}
# the server registers every feature before `initialize`; the agent models and the security reading are
# read when a setting, a hover or an open SKILL.md asks for them
SERVER_STAGES_AT_INITIALIZE = {"core", "document", "resources", "catalog", "activation", "language", "authoring"}


def stages_of(modules: set[str]) -> set[str]:
    return {name[len(ENGINE):].split(".")[0] for name in modules if name.startswith(ENGINE)}


def modules_loaded_by_the_cli(words: list[str], cwd: Path, bare: bool = False) -> set[str]:
    """The modules the program imported to run `words`. `bare`: without `site` (`python -S`), the package
    from this tree and the installed ones from site-packages, as a regular install loads them: an editable install's import hook brings pathlib and
    urllib.parse into every start, so a test about the standard library's modules cannot see through it."""
    flags = ["-S"] if bare else []
    # the installed packages stay importable (the grammars); their `.pth` files, which `site` runs, do not run
    path = os.pathsep.join([str(REPO), *site.getsitepackages()])
    env = {**os.environ, "PYTHONPATH": path} if bare else None
    code = (
        "import sys, albedo_skills_ls.cli as cli\n"
        f"status = cli.main({words!r})\n"
        "print(status, ' '.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True, timeout=60, cwd=cwd,
                          env=env)
    assert done.returncode == 0, done.stderr
    status, _, modules = done.stdout.splitlines()[-1].partition(" ")
    assert status == "0", done.stdout + done.stderr  # the verb did its job: the list is the real one
    return set(modules.split())


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    write_skill(tmp_path / ".agents" / "skills", "alpha", valid("alpha"))
    return tmp_path


@pytest.mark.parametrize("words", list(VERB_STAGES), ids=lambda words: words[0])
def test_a_verb_loads_only_the_stages_it_uses(words, workspace):
    argv = [str(workspace) if word == "WS" else word for word in words]
    loaded = modules_loaded_by_the_cli(argv, workspace)
    assert stages_of(loaded) == VERB_STAGES[words]


def test_check_on_skills_of_the_common_shape_does_not_load_the_event_reader(workspace):
    loaded = modules_loaded_by_the_cli(["check", str(workspace), "--no-user-roots"], workspace)
    assert f"{ENGINE}document.fastyaml" in loaded  # the frontmatter was parsed
    assert f"{ENGINE}document.yaml_events" not in loaded and "ruamel" not in {m.split(".")[0] for m in loaded}


def test_check_on_links_without_percent_escapes_does_not_load_url_parsing(workspace):
    """urllib.parse (with ipaddress) costs a start about 2 ms: imported only to decode a `%` in a link."""
    write_skill(workspace / ".agents" / "skills", "beta", valid("beta"), "# Beta\n\nSee [the guide](references/guide.md).\n")
    (workspace / ".agents" / "skills" / "beta" / "references").mkdir()
    (workspace / ".agents" / "skills" / "beta" / "references" / "guide.md").write_text("# Guide\n")
    loaded = modules_loaded_by_the_cli(["check", str(workspace), "--no-user-roots"], workspace, bare=True)
    assert f"{ENGINE}document.reference_scan" in loaded  # the link was read
    assert "urllib.parse" not in loaded and "string" not in loaded

    write_skill(workspace / ".agents" / "skills", "gamma", valid("gamma"),
                "# Gamma\n\nSee [the guide](references/my%20guide.md).\n")
    (workspace / ".agents" / "skills" / "gamma" / "references").mkdir()
    (workspace / ".agents" / "skills" / "gamma" / "references" / "my guide.md").write_text("# Guide\n")
    loaded = modules_loaded_by_the_cli(["check", str(workspace), "--no-user-roots"], workspace, bare=True)
    assert "urllib.parse" in loaded  # the escaped link was decoded, so its file was found (status 0)


def test_check_parses_python_only_for_a_script_that_names_a_secret_and_a_sink(workspace):
    """`ast` and the flow reading (a few ms of a start) load for a script whose words name a source and a
    sink; a skill bundling no such script never loads them."""
    python_reading = {"ast", f"{ENGINE}security.python_flow"}
    skills = workspace / ".agents" / "skills"
    write_skill(skills, "beta", valid("beta"), "# Beta\n\nRun `scripts/tidy.py`.\n")
    (skills / "beta" / "scripts").mkdir()
    (skills / "beta" / "scripts" / "tidy.py").write_text("print(sorted(['b', 'a']))\n")
    loaded = modules_loaded_by_the_cli(["check", str(workspace), "--no-user-roots"], workspace, bare=True)
    assert f"{ENGINE}security.python_script" in loaded  # the security reading ran over the script
    assert not python_reading & loaded

    # the skill's own key sent where keys go: parsed and followed, and no warning (the run must pass)
    (skills / "beta" / "scripts" / "send.py").write_text(
        "import os, requests\n"
        "requests.get('https://example.invalid', headers={'Authorization': os.environ['API_TOKEN']})\n"
    )
    loaded = modules_loaded_by_the_cli(["check", str(workspace), "--no-user-roots"], workspace, bare=True)
    assert python_reading <= loaded


def test_check_parses_shell_without_the_grammar_packages_start_up(workspace):
    """A shell block is parsed with tree-sitter's Bash grammar, loaded from the wheel's compiled module alone:
    the package's own `__init__` would import importlib.resources (with pathlib, tempfile, shutil, bz2,
    lzma...), 7 to 14 ms of each process that reads one shell block (security/grammars.py)."""
    write_skill(workspace / ".agents" / "skills", "beta", valid("beta"),
                "# Beta\n\n```bash\ncurl -s https://example.com/data.json | jq .name\n```\n")
    loaded = modules_loaded_by_the_cli(["check", str(workspace), "--no-user-roots"], workspace, bare=True)
    assert "tree_sitter_bash._binding" in loaded  # the block was parsed
    assert not {"tree_sitter_bash", "importlib.resources", "tempfile", "shutil"} & loaded


def test_check_loads_the_event_reader_for_frontmatter_the_fast_reader_hands_over(workspace):
    flow = valid("beta") + "metadata: {team: docs}\n"
    write_skill(workspace / ".agents" / "skills", "beta", flow)
    loaded = modules_loaded_by_the_cli(["check", str(workspace), "--no-user-roots"], workspace)
    assert f"{ENGINE}document.yaml_events" in loaded


def framed(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def test_the_server_loads_the_stages_its_features_register_before_initialize(workspace):
    """`initialize`, then the end of stdin: the server answers, then stops at its next read."""
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": None, "rootUri": workspace.as_uri(), "capabilities": {},
                   "workspaceFolders": [{"uri": workspace.as_uri(), "name": "ws"}]},
    }
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "albedo_skills_ls"],
        input=framed(initialize), capture_output=True, timeout=120, cwd=workspace,
    )
    assert b'"id": 1' in done.stdout and b'"capabilities"' in done.stdout, done.stderr[-2000:]
    lines = done.stderr.decode("utf-8", "replace").splitlines()
    imported = {line.rpartition("|")[2].strip() for line in lines if line.startswith("import time:")}
    assert stages_of(imported) == SERVER_STAGES_AT_INITIALIZE
