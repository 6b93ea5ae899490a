"""Each agent model's rules, one fixture tree built in tmp per case, asserted against what running the agents
showed (research/host-oracles.md §4) or what their source says (research/hosts.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from albedo_skills_ls.skills import hosts
from albedo_skills_ls.skills.core import limits
from albedo_skills_ls.skills.hosts.model import NOT_DETERMINISTIC, NOT_SEEN, SKIPPED, WARNS
from albedo_skills_ls.skills.hosts.walker import Cut

RUN_HERE = ("codex", "claude-code", "gemini-cli", "opencode", "copilot-cli")


def skill(root: Path, folder: str, text: str, file_name: str = "SKILL.md") -> Path:
    path = root / folder / file_name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def front(name: str | None, description: str | None, body: str = "# Instructions\n\nDo the thing, then report.\n") -> str:
    lines = [f"name: {name}"] if name is not None else []
    lines += [f"description: {description}"] if description is not None else []
    return "---\n" + "".join(line + "\n" for line in lines) + "---\n" + body


@pytest.fixture
def tree(tmp_path: Path):
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    return project, home


def verdicts(project: Path, home: Path, ids=None):
    found = hosts.report(str(project), str(home), ids)
    return {entry.host.id: entry.verdicts for entry in found.hosts}


def test_broken_yaml_only_copilot_refuses_with_line_and_column(tree):
    project, home = tree
    path = str(skill(project / ".agents/skills", "a-bad", front("a-bad", "Use this: when YAML is malformed")))
    seen = verdicts(project, home)
    for host in ("codex", "gemini-cli", "opencode"):
        assert seen[host][path].loads and seen[host][path].description_seen == "Use this: when YAML is malformed"
    assert seen["gemini-cli"][path].status == WARNS and "falling back to simple parser" in seen["gemini-cli"][path].reason
    copilot = seen["copilot-cli"][path]
    assert not copilot.loads
    assert copilot.reason == (
        "failed to parse YAML frontmatter: mapping values are not allowed in this context at line 2 column 22"
    )
    assert not seen["zed"][path].loads and not seen["skills-ref"][path].loads
    # Albedo's own verdict is discovery's: its YAML error
    assert not seen["albedo"][path].loads and "YAML" in seen["albedo"][path].reason


def test_broken_yaml_under_claude_skills_loads_in_claude_code(tree):
    project, home = tree
    path = str(skill(project / ".claude/skills", "c-bad", front("c-bad", "Use this: when YAML is malformed")))
    verdict = verdicts(project, home, ("claude-code",))["claude-code"][path]
    assert verdict.loads and verdict.description_seen == "Use this: when YAML is malformed"


def test_no_description(tree):
    project, home = tree
    agents = str(skill(project / ".agents/skills", "a-nodesc", front("a-nodesc", None)))
    claude = str(skill(project / ".claude/skills", "c-nodesc", front("c-nodesc", None)))
    seen = verdicts(project, home)
    assert seen["codex"][agents] == seen["codex"][agents]._replace(status=SKIPPED, reason="missing field `description`")
    assert seen["gemini-cli"][agents].status == SKIPPED and "silently" in seen["gemini-cli"][agents].reason
    opencode = seen["opencode"][agents]
    assert opencode.loads and opencode.description_seen == "" and "left out of what the model sees" in opencode.reason
    copilot = seen["copilot-cli"][agents]
    assert copilot.status == WARNS and copilot.description_seen == "Do the thing, then report."
    made_up = seen["claude-code"][claude]
    assert made_up.status == WARNS and made_up.description_seen == "Instructions" and "makes one up" in made_up.reason


def test_no_frontmatter_only_claude_code_loads(tree):
    project, home = tree
    claude = str(skill(project / ".claude/skills", "c-nofm", "# c-nofm\n\nBody.\n"))
    seen = verdicts(project, home)
    assert seen["claude-code"][claude].loads and seen["claude-code"][claude].description_seen == "c-nofm"
    assert seen["copilot-cli"][claude].reason == "missing or malformed YAML frontmatter"
    assert not seen["opencode"][claude].loads
    agents = str(skill(project / ".agents/skills", "a-nofm", "# a-nofm\n\nBody.\n"))
    assert verdicts(project, home, ("codex",))["codex"][agents].reason == "missing YAML frontmatter delimited by ---"


@pytest.mark.parametrize("length", [limits.MAX_DESCRIPTION_CHARS, limits.MAX_DESCRIPTION_CHARS + 1])
def test_description_length_at_the_bound_and_one_past(tree, length):
    project, home = tree
    text = "x" * length
    path = str(skill(project / ".agents/skills", "a-long", front("a-long", text)))
    seen = verdicts(project, home)
    over = length > 1024
    assert seen["copilot-cli"][path].loads is not over
    if over:
        assert seen["copilot-cli"][path].reason == "Skill description must be at most 1024 characters"
        assert seen["codex"][path].status == WARNS and seen["codex"][path].description_seen == "x" * 1021 + "..."
        assert seen["zed"][path].status == WARNS
    else:
        assert seen["codex"][path].description_seen == text and seen["codex"][path].reason is None
    assert seen["gemini-cli"][path].description_seen == text and seen["opencode"][path].loads


def test_name_differs_from_folder_claude_code_names_the_command_after_the_folder(tree):
    project, home = tree
    agents = str(skill(project / ".agents/skills", "a-mismatch", front("a-other-name", "Does it.")))
    claude = str(skill(project / ".claude/skills", "c-mismatch", front("c-other-name", "Does it.")))
    seen = verdicts(project, home)
    for host in ("codex", "gemini-cli", "opencode", "copilot-cli", "zed"):
        assert seen[host][agents].name == "a-other-name", host
    assert seen["claude-code"][claude].name == "c-mismatch"
    assert seen["vscode"][agents].name == "a-mismatch"
    assert not seen["cline"][agents].loads and not seen["roo-code"][agents].loads and not seen["skills-ref"][agents].loads


@pytest.mark.parametrize("levels", [1, 2, 6, 7])
def test_depth(tree, levels):
    project, home = tree
    folders = "/".join(f"d{index}" for index in range(levels))
    path = str(skill(project / ".agents/skills", folders, front(f"d{levels - 1}", "Deep.")))
    seen = verdicts(project, home)
    assert seen["codex"][path].loads is (levels <= 6)
    assert seen["gemini-cli"][path].loads is (levels == 1)
    assert seen["zed"][path].loads is (levels == 1)
    assert seen["opencode"][path].loads and seen["copilot-cli"][path].loads
    if levels > 1:
        assert "levels down" in seen["gemini-cli"][path].reason


def test_claude_code_reads_immediate_children_only(tree):
    project, home = tree
    path = str(skill(project / ".claude/skills", "group/c-nested", front("c-nested", "Nested.")))
    verdict = verdicts(project, home, ("claude-code",))["claude-code"][path]
    assert verdict.status == SKIPPED and "1 level" in verdict.reason


def test_symlinked_skill_file_codex_ignores_it(tree, tmp_path):
    project, home = tree
    elsewhere = skill(tmp_path / "elsewhere", "a-link", front("a-link", "Linked file."))
    folder = project / ".agents/skills/a-link"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").symlink_to(elsewhere)
    path = str(folder / "SKILL.md")
    seen = verdicts(project, home)
    assert seen["codex"][path].status == SKIPPED and "symbolic link" in seen["codex"][path].reason
    for host in ("gemini-cli", "opencode", "copilot-cli"):
        assert seen[host][path].loads, host


def test_linked_folder_keeps_its_link_path(tree, tmp_path):
    project, home = tree
    skill(tmp_path / "elsewhere", "target", front("a-linked", "Linked folder."))
    root = project / ".agents/skills"
    root.mkdir(parents=True)
    (root / "a-linked").symlink_to(tmp_path / "elsewhere/target")
    found = hosts.report(str(project), str(home))
    assert [f.path for f in found.files] == [str(root / "a-linked/SKILL.md")]
    seen = {entry.host.id: entry.verdicts for entry in found.hosts}
    path = str(root / "a-linked/SKILL.md")
    for host in RUN_HERE[:1] + RUN_HERE[2:]:
        assert seen[host][path].loads, host
    assert not seen["goose"][path].loads  # Goose's walk does not follow links (source)


def test_skill_file_directly_in_a_root_hides_copilots_siblings(tree):
    project, home = tree
    root = project / ".agents/skills"
    direct = str(skill(project / ".agents", "skills", front("in-root", "In the root.")))
    sibling = str(skill(root, "a-sibling", front("a-sibling", "A sibling.")))
    seen = verdicts(project, home)
    assert seen["copilot-cli"][direct].loads
    assert seen["copilot-cli"][sibling].status == SKIPPED and direct in seen["copilot-cli"][sibling].reason
    assert seen["codex"][direct].loads and seen["gemini-cli"][direct].loads and seen["opencode"][direct].loads
    assert seen["codex"][sibling].loads and seen["gemini-cli"][sibling].loads
    assert seen["zed"][direct].status == SKIPPED


def test_one_name_in_project_and_user(tree):
    project, home = tree
    mine = str(skill(project / ".agents/skills", "a-dup", front("a-dup", "Project copy.")))
    theirs = str(skill(home / ".agents/skills", "a-dup", front("a-dup", "User copy.")))
    seen = verdicts(project, home)
    assert seen["codex"][mine].loads and seen["codex"][theirs].loads  # both kept
    gemini = seen["gemini-cli"]
    assert gemini[mine].loads and not gemini[theirs].loads
    assert gemini[theirs].reason.startswith(f'Skill conflict detected: "a-dup" from "{mine}" is overriding')
    assert seen["copilot-cli"][mine].loads and "silently" in seen["copilot-cli"][theirs].reason
    for path in (mine, theirs):
        assert seen["opencode"][path].reason.startswith(NOT_DETERMINISTIC)
    assert seen["albedo"][mine].loads and not seen["albedo"][theirs].loads
    assert seen["cline"][theirs].loads and not seen["cline"][mine].loads  # Cline: global wins (source)


def test_one_name_in_claude_and_agents_roots(tree):
    project, home = tree
    agents = str(skill(project / ".agents/skills", "xroot", front("xroot", "In .agents.")))
    claude = str(skill(project / ".claude/skills", "xroot", front("xroot", "In .claude.")))
    seen = verdicts(project, home)
    assert seen["copilot-cli"][agents].loads and not seen["copilot-cli"][claude].loads
    assert seen["opencode"][agents].reason.startswith(NOT_DETERMINISTIC)
    assert seen["claude-code"][agents].status == NOT_SEEN and seen["claude-code"][claude].loads
    assert seen["zed"][claude].status == NOT_SEEN and "only .agents/skills" in seen["zed"][claude].reason
    assert "ln -s" in seen["claude-code"][agents].reason  # what to do: link it under .claude/skills


def test_lower_case_skill_file_is_skipped_by_every_agent_run_here(tree):
    project, home = tree
    path = str(skill(project / ".agents/skills", "a-lower", front("a-lower", "Lower."), "skill.md"))
    seen = verdicts(project, home)
    for host in ("codex", "gemini-cli", "opencode", "copilot-cli"):
        assert seen[host][path].status == SKIPPED and "rename skill.md to SKILL.md" in seen[host][path].reason
    assert "case-sensitive" in seen["albedo"][path].reason
    assert seen["skills-ref"][path].loads  # skills-ref falls back to skill.md (source)


def test_no_name(tree):
    project, home = tree
    path = str(skill(project / ".agents/skills", "a-noname", front(None, "No name.")))
    seen = verdicts(project, home)
    assert seen["codex"][path].name == "a-noname" and seen["copilot-cli"][path].name == "a-noname"
    assert not seen["gemini-cli"][path].loads and not seen["opencode"][path].loads


def test_zed_file_size_bound(tree):
    project, home = tree
    from albedo_skills_ls.skills.hosts import zed


    def sized(name: str, size: int) -> str:
        header = front(name, "Big.", "")
        return str(skill(project / ".agents/skills", name, header + "x" * (size - len(header))))

    at, past = sized("a-at", zed.MAX_FILE_BYTES), sized("a-past", zed.MAX_FILE_BYTES + 1)
    seen = verdicts(project, home, ("zed",))["zed"]
    assert os.path.getsize(at) == zed.MAX_FILE_BYTES and seen[at].loads
    assert os.path.getsize(past) == zed.MAX_FILE_BYTES + 1 and not seen[past].loads


def _codex_cost(name: str, text: str) -> int:
    from albedo_skills_ls.skills.hosts import codex

    return codex.estimated_tokens(codex.MODEL.budget.line(name, text, f"{name}/SKILL.md"))


def test_codex_estimates_a_line_in_tokens_of_four_bytes_rounded_up():
    from albedo_skills_ls.skills.hosts import codex

    assert codex.estimated_tokens("abc") == 1 and codex.estimated_tokens("abcd") == 2  # the line break counts
    assert codex.estimated_tokens("é" * 2) == 2  # 4 bytes and the line break


def test_codex_budget_at_the_bound_and_one_past(tree):
    """Codex holds its prompt's skill lines (its system skills too) to 10,000 estimated tokens; one token past,
    the description space is shared out and the longest descriptions are cut, the list then fitting."""
    from albedo_skills_ls.skills.hosts import codex

    project, home = tree
    system = sum(_codex_cost(name, text) for name, text, _where in codex.SYSTEM_SKILLS)
    names = [f"s{index:02d}" for index in range(39)]
    lengths = [950] * 38
    left = codex.CATALOG_TOKENS - system - sum(_codex_cost(n, "d" * k) for n, k in zip(names, lengths))
    lengths.append(next(k for k in range(950, 0, -1) if _codex_cost(names[-1], "d" * k) == left))
    for name, length in zip(names, lengths):
        skill(project / ".agents/skills", name, front(name, "d" * length))
    budget = hosts.report(str(project), str(home), ("codex",)).hosts[0].budget
    assert budget.used == codex.CATALOG_TOKENS == budget.total and not budget.over and budget.cut == ()
    skill(project / ".agents/skills", names[0], front(names[0], "d" * 954))  # four bytes more: one token
    found = hosts.report(str(project), str(home), ("codex",)).hosts[0]
    assert found.budget.used == codex.CATALOG_TOKENS + 1 and found.budget.over and found.budget.cut
    shown = {path.split("/")[-2]: verdict.description_seen for path, verdict in found.verdicts.items()}
    assert system + sum(_codex_cost(name, shown[name]) for name in names) <= codex.CATALOG_TOKENS
    assert all(len(shown[name]) >= 940 for name in names[:-1])  # a few characters off the longest only
    cut = found.verdicts[found.budget.cut[0]]
    assert f"description cut to {len(cut.description_seen):,} characters" in cut.reason


def test_claude_code_budget_keeps_the_first_descriptions_and_names_the_rest(tree):
    """30,000 columns with its own 6,049 always shown; past it, in list order, each description that still
    fits is kept (source 2.1.332; run: the generated batches)."""
    from albedo_skills_ls.skills.hosts import claude_code

    project, home = tree
    for index in range(24):
        skill(project / ".claude/skills", f"s{index:02d}", front(f"s{index:02d}", "d" * 1000))
    last = skill(project / ".claude/skills", "s99", front("s99", "short"))
    found = hosts.report(str(project), str(home), ("claude-code",)).hosts[0]
    described = sorted(path for path, verdict in found.verdicts.items() if verdict.description_seen)
    # 6,049 + 25 names (6 each) + init and security-review (7 and 18) = 6,224; 23 x 1,002 fit the 23,776
    # left, a 24th does not (730 left), and `short` (7) after it still does
    assert found.budget.total == claude_code.CATALOG_COLUMNS
    assert described == sorted(found.verdicts)[:23] + [str(last)]
    named = found.verdicts[sorted(found.verdicts)[23]]
    assert named.description_seen == "" and named.loads and "listed by name alone" in named.reason


def test_claude_code_budget_counts_terminal_columns(tree):
    """A CJK character takes two columns (Bun.stringWidth, as its source sums): 500 of them cost what 1,000
    ASCII characters do, so again 23 of 30 keep their description."""
    project, home = tree
    for index in range(30):
        skill(project / ".claude/skills", f"s{index:02d}", front(f"s{index:02d}", "日" * 500))
    found = hosts.report(str(project), str(home), ("claude-code",)).hosts[0]
    assert sum(1 for verdict in found.verdicts.values() if verdict.description_seen) == 23


def test_claude_code_budget_counts_the_name_it_writes_beside_the_command(tree):
    """`- folder (name): …` when the file's name differs from its folder's: the aside costs columns too
    (source 2.1.332; run: `- s10400044-alpha (1.5): …`)."""
    project, home = tree
    for index in range(22):
        skill(project / ".claude/skills", f"s{index:02d}", front(f"s{index:02d}", "d" * 1000))
    skill(project / ".claude/skills", "s50", front("x" * 200, "d" * 1600))
    skill(project / ".claude/skills", "s51", front("s51", "short"))
    found = hosts.report(str(project), str(home), ("claude-code",)).hosts[0]
    seen = {path.split("/")[-2]: verdict.description_seen for path, verdict in found.verdicts.items()}
    # 6,049 + 23 names of 6 + `- s50 (xxx…)` (209) + own commands (25) = 6,421; 22 x 1,002 leave 1,535, and
    # s50's 1,538 (cut to 1,536) no longer fit, which they would without its 203-column aside; s51's 7 do
    assert seen["s50"] == "" and seen["s51"] == "short" and all(seen[f"s{index:02d}"] for index in range(22))


def test_walk_bound_on_skill_files(tree, monkeypatch):
    project, home = tree
    monkeypatch.setattr(limits, "MAX_HOST_SKILL_FILES", 3)
    for index in range(4):
        skill(project / ".agents/skills", f"s{index}", front(f"s{index}", "d"))
    found = hosts.report(str(project), str(home), ("codex",))
    assert len(found.files) == 3
    assert found.truncated == Cut("MAX_HOST_SKILL_FILES", 3, str(project / ".agents/skills/s3/SKILL.md"))
    assert found.to_json()["truncated"] == {"limit": "MAX_HOST_SKILL_FILES", "value": 3, "more": 0,
                                            "first_not_walked": str(project / ".agents/skills/s3/SKILL.md")}
    monkeypatch.setattr(limits, "MAX_HOST_SKILL_FILES", 4)
    assert hosts.report(str(project), str(home), ("codex",)).truncated is None


def test_link_loop_is_walked_once(tree):
    project, home = tree
    root = project / ".agents/skills"
    skill(root, "a-loop", front("a-loop", "Loop."))
    (root / "a-loop" / "again").symlink_to(root)
    found = hosts.report(str(project), str(home), ("opencode",))
    assert [f.path for f in found.files] == [str(root / "a-loop/SKILL.md")]


def test_every_agent_has_a_verdict_for_every_file_and_albedo_is_unchanged(tree):
    from albedo_skills_ls.skills.catalog.discovery import discover

    project, home = tree
    skill(project / ".agents/skills", "a-valid", front("a-valid", "Valid."))
    skill(project / ".claude/skills", "c-valid", front("c-valid", "Valid."))
    before = discover(str(project), str(home)).to_json()
    found = hosts.report(str(project), str(home))
    assert [entry.host.id for entry in found.hosts] == list(hosts.HOST_IDS)
    for entry in found.hosts:
        assert set(entry.verdicts) == {f.path for f in found.files}
        assert entry.host.version and str(entry.host.evidence)
    assert discover(str(project), str(home)).to_json() == before


def test_walk_depth_bound_at_the_bound_and_one_past(tree, monkeypatch):
    project, home = tree
    monkeypatch.setattr(limits, "MAX_HOST_WALK_DEPTH", 2)
    root = project / ".agents/skills"
    at = skill(root, "a/b", front("b", "At the bound."))
    other = skill(home / ".agents/skills", "h", front("h", "In another root, walked after the cut."))
    found = hosts.report(str(project), str(home), ("opencode",))
    assert {f.path for f in found.files} == {str(at), str(other)} and found.truncated is None
    past = skill(root, "a/b/c", front("c", "One past."))
    found = hosts.report(str(project), str(home), ("opencode",))
    assert str(past) not in {f.path for f in found.files} and str(other) in {f.path for f in found.files}
    assert found.truncated == Cut("MAX_HOST_WALK_DEPTH", 2, str(past.parent))
    assert found.truncated.sentence() == f"the walk stops 2 levels below a root, at {past.parent}"


def test_walk_entries_bound_at_the_bound_and_one_past(tree, monkeypatch):
    project, home = tree
    for index in range(3):
        skill(project / ".agents/skills", f"s{index}", front(f"s{index}", "d"))
    monkeypatch.setattr(limits, "MAX_HOST_WALK_ENTRIES", 6)  # three folders in the root, one file in each
    assert hosts.report(str(project), str(home), ("codex",)).truncated is None
    monkeypatch.setattr(limits, "MAX_HOST_WALK_ENTRIES", 5)
    found = hosts.report(str(project), str(home), ("codex",))
    assert found.truncated.limit == "MAX_HOST_WALK_ENTRIES" and found.truncated.value == 5 and len(found.files) == 2
    assert found.truncated.sentence().startswith("the walk stopped after 5 entries")


def _walked(files) -> list[tuple]:
    """What a walk found, without the access time: reading a file may move its atime (relatime), so the fresh
    walk after the cached one's reads can see a later atime on the same unchanged file."""
    return [(f.path, f.root, f.parts, f.file_link, f.folder_link, f.info.st_mode, f.info.st_ino, f.info.st_dev,
             f.info.st_size, f.info.st_mtime_ns) for f in files]


def test_server_walks_and_reads_once_for_diagnostics_and_hover(tree, monkeypatch):
    """The server asks for the chosen agents' refusals (`albedoSkills.hosts`) and, on hover, for every agent:
    both come from one walk and one read of each file until the next reload, and agree with a fresh report."""
    from albedo_skills_ls.lsp.host_findings import HostFindings
    from albedo_skills_ls.skills.hosts import verdicts as verdicts_module

    project, home = tree
    skill(project / ".agents/skills", "a-one", front("a-one", "One."))
    skill(project / ".claude/skills", "c-two", front("c-two", "Use this: when YAML is malformed"))
    walks, reads = [], []
    real_walk, real_read = hosts.walk, verdicts_module.read_facts
    monkeypatch.setattr(hosts, "walk", lambda roots: walks.append(1) or real_walk(roots))
    monkeypatch.setattr(verdicts_module, "read_facts", lambda found: reads.append(found.path) or real_read(found))
    findings = HostFindings()
    chosen = findings.diagnostics(str(project), str(home), ("copilot-cli", "gemini-cli"))
    every = findings.report(str(project), str(home), None)
    assert len(walks) == 1 and sorted(reads) == sorted(set(reads)) and len(reads) == 2
    fresh = hosts.report(str(project), str(home))
    assert every.to_json() == fresh.to_json() and _walked(every.files) == _walked(fresh.files)
    from albedo_skills_ls.skills.hosts.diagnostics import host_diagnostics

    assert chosen == host_diagnostics(hosts.report(str(project), str(home), ("copilot-cli", "gemini-cli")))
    findings.clear()
    findings.report(str(project), str(home), None)
    assert len(walks) == 4  # the two fresh reports above, and the one after clear()


@pytest.mark.parametrize("shape", ["[%s]", "{a: %s}"])
def test_yaml_nesting_bound_at_the_bound_and_one_past(shape):
    from albedo_skills_ls.skills.hosts.facts import parse_yaml

    def nested(levels: int) -> str:  # `levels` collections in all, the top mapping included
        inner = "x"
        for _ in range(levels - 1):
            inner = shape % inner
        return "key: " + inner + "\n"

    fields, problem = parse_yaml(nested(limits.MAX_HOST_YAML_NESTING))
    assert problem is None and fields is not None and "key" in fields
    fields, problem = parse_yaml(nested(limits.MAX_HOST_YAML_NESTING + 1))
    assert fields is None and problem is not None
    assert problem.problem.startswith(f"nested deeper than {limits.MAX_HOST_YAML_NESTING:,} levels")
