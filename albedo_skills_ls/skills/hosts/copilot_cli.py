"""GitHub Copilot CLI run here (the version and day: `evidence` below) with COPILOT_OFFLINE=true."""

from __future__ import annotations

from .common import libyaml_words
from .facts import SkillFacts, without_bom
from .model import LOADS, SKIPPED, WARNS, Duplicates, HostModel, Rule, Verdict, Walk, run_here

LABEL = "Copilot CLI"
MAX_DESCRIPTION = 1024


def judge(facts: SkillFacts) -> Verdict:
    facts = without_bom(facts)  # a byte-order mark before `---` is dropped (run; changelog 0.0.415)
    if not facts.opens_after_trim or facts.frontmatter is None:
        return Verdict(SKIPPED, reason="missing or malformed YAML frontmatter")
    refused = facts.yaml_problem
    if refused is not None:
        said = libyaml_words(refused.problem)
        return Verdict(
            SKIPPED,
            reason=f"failed to parse YAML frontmatter: {said} at line {refused.line} column {refused.column}",
        )
    name = facts.string("name")
    if name is not None and (not name.strip() or not name.isascii()):
        return Verdict(SKIPPED, reason="the name is empty or not ASCII, which Copilot CLI refuses (changelog 1.0.70)")
    name = name or facts.folder_name
    description = facts.string("description")
    if description is not None and len(description) > MAX_DESCRIPTION:
        return Verdict(SKIPPED, reason=f"Skill description must be at most {MAX_DESCRIPTION} characters")
    if not description:
        made_up = facts.first_text_line() or ""
        return Verdict(
            WARNS, name, made_up, f"no description: {LABEL} uses the body's first line (\"{made_up}\")"
        )
    return Verdict(LOADS, name, description)


MODEL = HostModel(
    id="copilot-cli",
    label=LABEL,
    evidence=run_here(LABEL, "1.0.102", "@github/copilot", "2026-12-01"),
    roots=(
        ("workspace", ".github/skills"),
        ("workspace", ".agents/skills"),
        ("workspace", ".claude/skills"),
        ("home", ".copilot/skills"),
        ("home", ".agents/skills"),
    ),
    walk=Walk(max_levels=None, root_file=True, dot_folders=False, skill_hides_below=True),
    duplicates=Duplicates("first", evidence="run: the workspace wins, and .agents over .claude, silently"),
    budget=None,
    rules=(
        Rule("reads .github/skills, .agents/skills, .claude/skills in the workspace; ~/.copilot/skills and "
             "~/.agents/skills (not ~/.claude/skills)", "run"),
        Rule("any depth (8 levels seen); a SKILL.md directly in a root loads and hides every skill below it",
             "run (the root case; below any skill folder: inferred)"),
        Rule("folders whose name starts with `.` below a root are not walked", "run"),
        Rule("YAML that does not parse is refused with its line and column", "run"),
        Rule("a description over 1,024 characters is refused", "run"),
        Rule("a byte-order mark before `---` is dropped: the file loads with its frontmatter", "run"),
        Rule("no name: the folder's; no description: the body's first line", "run"),
        Rule("an empty or non-ASCII name is refused", "changelog 1.0.70"),
        Rule("one name twice: the workspace copy wins silently", "run"),
    ),
    judge=judge,
    advice="put the skill in .github/skills, .agents/skills or .claude/skills",
)
