"""Cline (the VS Code extension 4.1.13), from Cline's source; not run here."""

from __future__ import annotations

from .facts import SkillFacts
from .model import LOADS, SKIPPED, Duplicates, HostModel, Rule, Verdict, Walk, read_in_source

LABEL = "Cline"


def judge(facts: SkillFacts) -> Verdict:
    if facts.frontmatter is None or facts.yaml_problem is not None:
        return Verdict(SKIPPED, reason="the frontmatter does not parse (Cline logs a warning only)")
    name, description = facts.string("name"), facts.string("description")
    if not name or not name.strip() or not description or not description.strip():
        return Verdict(SKIPPED, reason="Cline needs a non-empty `name` and `description` (it logs a warning only)")
    if name != facts.folder_name:
        return Verdict(SKIPPED, reason=f'Skill name "{name}" doesn\'t match directory "{facts.folder_name}"')
    return Verdict(LOADS, name, description)


MODEL = HostModel(
    id="cline",
    short="cl",
    label=LABEL,
    evidence=read_in_source("Cline", "4.1.13", "(cline/cline at 21cb8d2, apps/vscode skills.ts)"),
    # global skills take precedence over the project's (source: getAvailableSkills)
    roots=(
        ("home", ".cline/skills"),
        ("home", ".agents/skills"),
        ("workspace", ".clinerules/skills"),
        ("workspace", ".cline/skills"),
        ("workspace", ".claude/skills"),
        ("workspace", ".agents/skills"),
    ),
    walk=Walk(max_levels=1),
    duplicates=Duplicates("first", evidence="source: global over project"),
    budget=None,
    rules=(
        Rule("reads .clinerules/skills, .cline/skills, .claude/skills, .agents/skills (workspace), "
             "~/.cline/skills and ~/.agents/skills", "source"),
        Rule("immediate children of a root only; links followed", "source"),
        Rule("`name` and `description` required; the name must equal the folder exactly", "source"),
        Rule("YAML that does not parse: skipped", "inferred (a js-yaml parser)"),
        Rule("one name twice: the global copy wins over the project's", "source"),
    ),
    judge=judge,
    advice="put the skill in .agents/skills, .claude/skills or .cline/skills",
)
