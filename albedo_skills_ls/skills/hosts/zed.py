"""Zed's agent skills (crates/agent_skills), from Zed's source; not run here."""

from __future__ import annotations


from ..core import programs
from .common import libyaml_words
from .facts import SkillFacts
from .model import LOADS, SKIPPED, WARNS, Budget, Duplicates, HostModel, Rule, Verdict, Walk, read_in_source

LABEL = "Zed"
MAX_FILE_BYTES = 100 * 1024  # MAX_SKILL_FILE_SIZE
MAX_NAME_BYTES = 64
MAX_DESCRIPTION_BYTES = 1024
MAX_CATALOG_BYTES = 50 * 1024  # MAX_SKILL_DESCRIPTIONS_SIZE
_NAME = programs.compile(r"[a-z0-9-]+\Z")


def judge(facts: SkillFacts) -> Verdict:
    if facts.size > MAX_FILE_BYTES:
        return Verdict(SKIPPED, reason=f"the file is {facts.size:,} bytes; Zed reads skill files up to {MAX_FILE_BYTES:,}")
    if not facts.opens_after_trim or facts.frontmatter is None:
        return Verdict(SKIPPED, reason="no frontmatter: Zed needs `---` first and a closing `---` line")
    if facts.yaml_problem is not None:
        return Verdict(SKIPPED, reason=f"Invalid YAML frontmatter: {libyaml_words(facts.yaml_problem.problem)}")
    name, description = facts.string("name"), facts.string("description")
    for key, value in (("name", name), ("description", description)):
        if value is None:
            return Verdict(SKIPPED, reason=f"Invalid YAML frontmatter: missing field `{key}`")
    assert name is not None and description is not None
    if not name or len(name.encode()) > MAX_NAME_BYTES or not _NAME.match(name) or name[0] == "-" or name[-1] == "-":
        return Verdict(
            SKIPPED,
            reason=f"the name `{name}` is refused: Zed needs 1 to {MAX_NAME_BYTES} bytes of lowercase ASCII "
            "letters, digits and inner `-`",
        )
    if not description.strip():
        return Verdict(SKIPPED, reason="the description is empty")
    size = len(description.encode())
    if size > MAX_DESCRIPTION_BYTES:
        return Verdict(
            WARNS,
            name,
            description,
            f"Skill description is {size} bytes, exceeding the {MAX_DESCRIPTION_BYTES}-byte limit. The skill was loaded",
        )
    return Verdict(LOADS, name, description)


MODEL = HostModel(
    id="zed",
    short="zd",
    label=LABEL,
    evidence=read_in_source(
        "Zed",
        "1597378f",
        "(zed-industries/zed crates/agent_skills: skill.rs at 1597378f, README at 24e27b61, a later "
        "agent_skills.rs)",
    ),
    roots=(("workspace", ".agents/skills"), ("home", ".agents/skills")),
    walk=Walk(max_levels=1),
    duplicates=Duplicates("first", evidence="source: project over global; within one, the first by path, logged"),
    budget=Budget(
        MAX_CATALOG_BYTES, None, "bytes", "drop",
        "50 KB (51,200 bytes) for all names and descriptions (MAX_SKILL_DESCRIPTIONS_SIZE, source; the order "
        "in which skills are dropped is not verified)",
    ),
    rules=(
        Rule("reads only .agents/skills (worktree and home); no other folder", "source"),
        Rule("immediate children of a root only; a file up to 100 KB", "source"),
        Rule("`name` and `description` required; name 1–64 bytes of [a-z0-9-], no hyphen at either end", "source"),
        Rule("YAML that does not parse: \"Invalid YAML frontmatter\"", "source"),
        Rule("a description over 1,024 bytes loads with a warning", "source (the later agent_skills.rs)"),
        Rule("one name twice: project over global", "source"),
    ),
    judge=judge,
    advice="Zed reads only .agents/skills: move or link the skill folder there",
)
