"""Other agents in the editor, over stdio: the agent table on the opening `---`, and `albedoSkills.hosts`
turning the chosen agents' refusals (and a blown catalog budget) into diagnostics."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .editing import feature_caps, hover, open_until, until
from .harness import uri, write_skill

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

BROKEN = "name: a-bad\ndescription: Use this: when YAML is malformed"


def tree(tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    bad = write_skill(ws / ".agents/skills", "a-bad", BROKEN)
    good = write_skill(ws / ".agents/skills", "a-good", "name: a-good\ndescription: Does a useful thing.")
    claude = write_skill(ws / ".claude/skills", "group/c-nested", "name: c-nested\ndescription: Nested too deep.")
    home.mkdir()
    return ws, home, bad, good, claude


def host_codes(session, path) -> list[str]:
    return sorted(str(d.code) for d in session.client.diagnostics.get(uri(path), []) if str(d.code).startswith("host-"))


async def test_hover_on_the_opening_line_shows_every_agent(servers, tmp_path):
    ws, home, bad, _good, _claude = tree(tmp_path)
    session = await servers([ws], home, caps=feature_caps())
    text = bad.read_text()
    await open_until(session, bad, text)
    found = await hover(session, bad, types.Position(line=0, character=1))
    assert found is not None and found.range == types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=0, character=3)
    )
    shown = found.contents.value
    lines = shown.splitlines()
    assert lines[0] == "**Loads in 4 of 13 agents**"  # compact: the count, then only the exceptions
    exceptions = [line for line in lines if line[:3] in ("- ✗", "- !", "- ·", "- ?")]
    assert len(exceptions) >= 13 - 4 and len(exceptions) < 13
    copilot = next(line for line in lines if line.startswith("- ✗ Copilot CLI 1.0.102: skipped"))
    assert "line 2 column 22" in copilot
    assert not any(line.startswith("- ✓ Codex CLI") for line in lines)  # loads cleanly: not an exception
    assert "- · Claude Code 2.1.332: not seen — Claude Code does not read .agents/skills" in shown  # relative path
    assert str(ws) not in shown
    assert "- Codex CLI 0.171.0: " in shown and " of 10,000 tokens (" in shown  # the budgets, in a few words
    assert shown.rstrip().endswith("The whole story, agent by agent: `albedo-skills hosts --why a-bad`")
    # the rest of the frontmatter keeps its own hover
    key = await hover(session, bad, types.Position(line=1, character=1))
    assert key is not None and "Which agents" not in key.contents.value


async def test_no_agent_diagnostics_by_default_then_the_setting_turns_them_on_and_off(servers, tmp_path):
    ws, home, bad, good, claude = tree(tmp_path)
    session = await servers([ws], home)
    assert host_codes(session, bad) == [] and host_codes(session, good) == []
    assert uri(claude) not in session.client.diagnostics

    settings = {"albedoSkills": {"home": str(home), "hosts": ["copilot-cli", "claude-code"]}}
    session.client.set_configuration(settings)
    first = session.expect("textDocument/publishDiagnostics")
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))
    await until(session, lambda: host_codes(session, claude) == ["host-skipped"], first)
    assert host_codes(session, bad) == ["host-not-seen", "host-skipped"]
    skipped = next(d for d in session.client.diagnostics[uri(bad)] if d.code == "host-skipped")
    assert skipped.severity == types.DiagnosticSeverity.Warning
    assert "Copilot CLI 1.0.102 skips this skill: failed to parse YAML frontmatter" in skipped.message
    assert host_codes(session, good) == ["host-not-seen"]  # Claude Code never reads .agents/skills
    nested = session.client.diagnostics[uri(claude)][0]
    assert "Claude Code 2.1.332 skips this skill silently" in nested.message
    assert "yaml-unquoted-colon" in [str(d.code) for d in session.client.diagnostics[uri(bad)]]  # Albedo's own stays

    settings = {"albedoSkills": {"home": str(home), "hosts": []}}
    session.client.set_configuration(settings)
    first = session.expect("textDocument/publishDiagnostics")
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))
    await until(session, lambda: host_codes(session, bad) == [] and not session.client.diagnostics.get(uri(claude)), first)


async def test_budget_overflow_is_information_where_a_chosen_agent_is_over(servers, tmp_path):
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    paths = [write_skill(ws / ".agents/skills", f"s{index}", f"name: s{index}\ndescription: {'d' * 1000}") for index in range(45)]
    session = await servers([ws], home, settings={"hosts": ["codex"]})
    found = [d for d in session.client.diagnostics[uri(paths[0])] if d.code == "host-budget"]
    assert len(found) == 1 and found[0].severity == types.DiagnosticSeverity.Information
    assert "Codex CLI 0.171.0: description cut to" in found[0].message and "10,000 tokens" in found[0].message


async def test_an_unknown_agent_in_the_setting_is_reported(servers, tmp_path):
    ws, home, bad, _good, _claude = tree(tmp_path)
    session = await servers([ws], home, settings={"hosts": ["codex", "cursor"]})
    text = " ".join(message.message for message in session.client.messages)
    assert "albedoSkills.hosts" in text and "unknown agent cursor" in text and "claude-code" in text
    assert host_codes(session, bad) == []  # the whole value fell back to its default, none
