"""Goose (block/goose), from its source; not run here."""

from __future__ import annotations

from .facts import SkillFacts
from .model import LOADS, SKIPPED, Duplicates, HostModel, Rule, Verdict, Walk, read_in_source

LABEL = "Goose"


def judge(facts: SkillFacts) -> Verdict:
    if facts.frontmatter is None or facts.yaml_problem is not None:
        return Verdict(SKIPPED, reason="the frontmatter does not parse (Goose logs a warning only)")
    name = facts.string("name")
    if not name or "/" in name:
        return Verdict(SKIPPED, reason="missing a required 'name' (non-empty, without `/`)")
    return Verdict(LOADS, name, facts.string("description") or "")


MODEL = HostModel(
    id="goose",
    short="gs",
    label=LABEL,
    evidence=read_in_source("Goose", "8386a1a9", "(block/goose crates/goose/src/skills/mod.rs, listing commit 8386a1a9)"),
    roots=(
        ("workspace", ".agents/skills"),
        ("workspace", ".goose/skills"),
        ("workspace", ".claude/skills"),
        ("home", ".agents/skills"),
        ("home", ".config/goose/skills"),
        ("home", ".claude/skills"),
        ("home", ".config/agents/skills"),
    ),
    walk=Walk(max_levels=None, root_file=True, file_links=False, folder_links=False),
    duplicates=Duplicates("first", evidence="source: the first found wins, project before global"),
    budget=None,
    rules=(
        Rule("reads .agents/skills, .goose/skills, .claude/skills (workspace) and ~/.agents/skills, "
             "~/.config/goose/skills, ~/.claude/skills, ~/.config/agents/skills", "source"),
        Rule("a recursive walk that does not follow links", "source (linked roots: not traced)"),
        Rule("`name` required (no `/`); `description` optional", "source"),
        Rule("YAML that does not parse: skipped", "inferred (serde_yaml)"),
        Rule("one name twice: the first found wins, project before global", "source"),
    ),
    judge=judge,
    advice="put the skill in .agents/skills, .goose/skills or .claude/skills",
)
