"""OpenCode run here (the version and day: `evidence` below) three times over the same files."""

from __future__ import annotations

from .common import SILENT
from .facts import SkillFacts, without_bom
from .model import LOADS, SKIPPED, WARNS, Duplicates, HostModel, Rule, Verdict, Walk, run_here

LABEL = "OpenCode"


def judge(facts: SkillFacts) -> Verdict:
    facts = without_bom(facts)  # a byte-order mark before `---` is dropped (run)
    name = facts.lenient("name")  # a frontmatter whose YAML fails still loads, silently (run)
    if not name:
        return Verdict(SKIPPED, reason=f"{SILENT}: {LABEL} needs a `name`")
    description = facts.lenient("description")
    if not description:
        return Verdict(
            WARNS,
            name,
            None,
            "listed by `opencode debug skill` but left out of what the model sees: it has no description",
        )
    return Verdict(LOADS, name, description)


MODEL = HostModel(
    id="opencode",
    label=LABEL,
    evidence=run_here(LABEL, "1.18.33", "opencode-ai", "2026-12-01"),
    roots=(
        ("workspace", ".opencode/skills"),
        ("workspace", ".opencode/skill"),
        ("workspace", ".agents/skills"),
        ("workspace", ".claude/skills"),
        ("home", ".config/opencode/skills"),
        ("home", ".config/opencode/skill"),
        ("home", ".agents/skills"),
        ("home", ".claude/skills"),
    ),
    walk=Walk(max_levels=None, root_file=True),
    duplicates=Duplicates("unstable", evidence='run: the winner changed between runs; WARN "duplicate skill name"'),
    budget=None,
    rules=(
        Rule("reads .agents/skills, .claude/skills and .opencode/skill(s) in the workspace, and in home "
             "~/.agents/skills, ~/.claude/skills, ~/.config/opencode/skill(s)", "run"),
        Rule("`**/SKILL.md`: any depth (8 levels seen), a SKILL.md directly in a root too; links followed", "run"),
        Rule("no name: skipped silently; no description: listed, but not shown to the model", "run"),
        Rule("unquoted `: ` in a value: loads silently", "run"),
        Rule("a byte-order mark before `---` is dropped: the file loads with its frontmatter", "run"),
        Rule("one name twice: one copy wins, and which one changes from run to run", "run"),
    ),
    judge=judge,
    advice="put the skill in .agents/skills, .claude/skills or .opencode/skills",
)
