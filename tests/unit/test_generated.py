"""Every file (or marked section) written from the declarations is what `python -m albedo_skills_ls.generate`
writes now: a declaration changed without running the command, or a generated file edited by hand, fails here
with the command to run. The generator itself is tested on a scratch copy of its outputs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from albedo_skills_ls import generate
from albedo_skills_ls.generate import editors, sections, vscode
from albedo_skills_ls.lsp import settings
from albedo_skills_ls.skills.hosts import HOST_IDS

REPO = Path(__file__).resolve().parents[2]


def test_the_committed_files_are_what_the_declarations_give():
    changed = generate.differences(str(REPO))
    assert not changed, f"{sorted(changed)} differ from the declarations: run `python -m albedo_skills_ls.generate`"


WHOLLY_GENERATED = (
    "vscode-extension/src/declared.ts", "lua/albedo_skills/declared.lua", "docs/diagnostics.md",
    "editors/helix/languages.toml",
)


def test_every_generated_file_says_so_in_its_first_lines_or_its_markers():
    for relative, _render in generate.OUTPUTS:
        text = (REPO / relative).read_text(encoding="utf-8")
        if relative.endswith(".json"):  # JSON holds no comment: docs/design.md says which part is generated
            continue
        where = "\n".join(text.splitlines()[:5]) if relative in WHOLLY_GENERATED else text
        assert f"by `{sections.COMMAND}`" in where, relative


@pytest.fixture
def scratch(tmp_path) -> Path:
    """A copy of every output, to regenerate without touching the tree."""
    for relative, _render in generate.OUTPUTS:
        target = tmp_path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / relative, target)
    return tmp_path


def test_a_changed_declaration_changes_every_file_that_shows_it(scratch, monkeypatch):
    changed = settings.SETTINGS["folding"]._replace(description="Fold the frontmatter (a changed description).")
    monkeypatch.setitem(settings.SETTINGS, "folding", changed)
    monkeypatch.setattr(vscode, "DECLARED", (*settings.SETTINGS.values(), *settings.EDITOR_SETTINGS))
    differ = generate.differences(str(scratch))
    assert set(differ) == {"vscode-extension/package.json", "vscode-extension/README.md", "docs/server.md"}
    manifest = json.loads(differ["vscode-extension/package.json"])
    properties = manifest["contributes"]["configuration"]["properties"]
    assert properties["albedoSkills.folding"]["markdownDescription"] == changed.description
    assert "| `folding` | `true` | Fold the frontmatter (a changed description). |" in differ["docs/server.md"]


def test_the_command_writes_what_check_finds_and_then_finds_nothing(scratch, monkeypatch):
    monkeypatch.setattr(generate, "REPOSITORY", str(scratch))
    readme = scratch / "vscode-extension" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace("| `albedoSkills.enable` | `true` |", "| `x` | `1` |"),
                      encoding="utf-8")
    (scratch / "lua" / "albedo_skills" / "declared.lua").unlink()
    assert generate.main(["--check"]) == 1
    assert generate.main([]) == 0
    assert generate.main(["--check"]) == 0
    assert (scratch / "vscode-extension" / "README.md").read_text(encoding="utf-8") == \
        (REPO / "vscode-extension" / "README.md").read_text(encoding="utf-8")
    assert (scratch / "lua" / "albedo_skills" / "declared.lua").exists()


def test_the_command_line_entry_point_checks_the_tree():
    done = subprocess.run([sys.executable, "-m", "albedo_skills_ls.generate", "--check"], capture_output=True,
                          text=True, cwd=REPO, check=False)
    assert (done.returncode, done.stdout) == (0, ""), done.stdout + done.stderr
    wrong = subprocess.run([sys.executable, "-m", "albedo_skills_ls.generate", "--wrong"], capture_output=True,
                           text=True, cwd=REPO, check=False)
    assert wrong.returncode == 2 and "usage" in wrong.stderr


def test_a_section_needs_its_two_markers_once():
    begin, end = sections.markers("x", "<!-- -->", "here")
    text = f"a\n{begin}\nold\n{end}\nb\n"
    assert sections.replace_section(text, "x", "<!-- -->", "here", "new\n") == f"a\n{begin}\nnew\n{end}\nb\n"
    # the opening marker is found by the section's name: what follows it is rewritten
    stale = text.replace(begin, "<!-- BEGIN generated x: by an older command -->")
    assert sections.replace_section(stale, "x", "<!-- -->", "here", "new\n") == f"a\n{begin}\nnew\n{end}\nb\n"
    for broken in ("a\nb\n", f"a\n{begin}\nold\n", f"{end}\n{begin}\n", f"{begin}\n{begin}\n{end}\n"):
        with pytest.raises(LookupError):
            sections.replace_section(broken, "x", "<!-- -->", "here", "new\n")


def test_the_hosts_page_has_a_section_for_every_agent():
    text = (REPO / "docs" / "hosts.md").read_text(encoding="utf-8")
    for host_id in HOST_IDS:
        assert f"### `{host_id}`" in text


# The Emacs regexp is checked against fnmatch in the real Emacs by tests/clients/test_client_defaults.py;
# here, the translation's refusals and its shape.
def test_a_glob_becomes_an_emacs_regexp_over_the_base_name():
    assert editors.glob_to_emacs_regexp("*.chat.md") == "\\(?:\\`\\|/\\)[^/]*\\.chat\\.md\\'"
    assert editors.glob_to_emacs_regexp("t?[!x].md") == "\\(?:\\`\\|/\\)t[^/][^x]\\.md\\'"
    with pytest.raises(ValueError):
        editors.glob_to_emacs_regexp("chats/*.md")
