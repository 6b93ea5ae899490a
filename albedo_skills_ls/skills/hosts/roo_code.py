"""Roo Code (3.52.1), from Roo Code's source; not run here."""

from __future__ import annotations


from ..core import programs
from .facts import SkillFacts
from .model import LOADS, SKIPPED, Duplicates, HostModel, Rule, Verdict, Walk, read_in_source

LABEL = "Roo Code"
SKILL_NAME = programs.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")  # SKILL_NAME_REGEX
MAX_NAME = 64
MAX_DESCRIPTION = 1024


def judge(facts: SkillFacts) -> Verdict:
    if facts.frontmatter is None or facts.yaml_problem is not None:
        return Verdict(SKIPPED, reason="the frontmatter does not parse (Roo Code logs it to the console only)")
    name, description = facts.string("name"), facts.string("description")
    if name is None or description is None:
        return Verdict(SKIPPED, reason="Roo Code needs `name` and `description` as strings")
    if name != facts.folder_name:
        return Verdict(SKIPPED, reason=f"the name `{name}` must equal the folder's name `{facts.folder_name}`")
    if not (1 <= len(name) <= MAX_NAME) or not SKILL_NAME.match(name):
        return Verdict(SKIPPED, reason=f"the name `{name}` must be 1–{MAX_NAME} lowercase letters, digits and single `-`")
    if not (1 <= len(description.strip()) <= MAX_DESCRIPTION):
        return Verdict(SKIPPED, reason=f"the description must be 1–{MAX_DESCRIPTION:,} characters once trimmed")
    return Verdict(LOADS, name, description)


MODEL = HostModel(
    id="roo-code",
    short="rc",
    label=LABEL,
    evidence=read_in_source("Roo Code", "3.52.1", "(RooCodeInc/Roo-Code at cb83656, SkillsManager.ts)"),
    roots=(
        ("workspace", ".roo/skills"),
        ("workspace", ".agents/skills"),
        ("home", ".roo/skills"),
        ("home", ".agents/skills"),
    ),
    walk=Walk(max_levels=1),
    duplicates=Duplicates("first", evidence="source: project over global, .roo over .agents"),
    budget=None,
    rules=(
        Rule("reads .agents/skills and .roo/skills (workspace and home; the skills-MODE folders are not modelled)",
             "source"),
        Rule("immediate children of a root only; links followed", "source"),
        Rule("the spec's rules: name = folder, [a-z0-9-] 1–64, description 1–1,024", "source"),
        Rule("YAML that does not parse: skipped", "inferred (gray-matter)"),
        Rule("one name twice: project over global, .roo over .agents", "source"),
    ),
    judge=judge,
    advice="put the skill in .agents/skills or .roo/skills",
)
