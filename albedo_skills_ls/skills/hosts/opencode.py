"""OpenCode run here (the version and day: `evidence` below) three times over the same files."""

from __future__ import annotations

from .common import SILENT
from .facts import SkillFacts, with_frontmatter, without_bom
from .model import LOADS, SKIPPED, WARNS, Duplicates, HostModel, Rule, Verdict, Walk, run_here
from .values import kind, type_words, yaml_fields

LABEL = "OpenCode"


def judge(facts: SkillFacts) -> Verdict:
    facts = without_bom(facts)  # a byte-order mark before `---` is dropped (run)
    if facts.opens_after_trim and facts.frontmatter is None:
        # A `---` never closed: the rest of the file is the frontmatter (run: such files loaded when the
        # rest parsed, a body's headings being YAML comments).
        facts = with_frontmatter(facts, "\n".join(facts.body.splitlines()[1:]))
    # A parse that fails on an unquoted `: ` or a tab as indentation is retried (run: both load, the values
    # read as YAML); one that still fails (a key given twice) drops the skill silently.
    fields = yaml_fields(facts, retry=True, tabs=True)
    if fields is None:
        why = facts.yaml_problem.problem if facts.yaml_problem is not None else "no frontmatter"
        return Verdict(SKIPPED, reason=f"{SILENT}: {LABEL} cannot read the frontmatter ({why})")
    name_kind, description_kind = kind(fields, "name"), kind(fields, "description")
    if name_kind != "string":
        said = "needs a `name`" if name_kind in ("absent", "null") else f"needs a text `name`, not {type_words(name_kind)}"
        return Verdict(SKIPPED, reason=f"{SILENT}: {LABEL} {said}")
    if description_kind not in ("absent", "string"):
        return Verdict(SKIPPED, reason=f"{SILENT}: {LABEL} needs a text `description`, not {type_words(description_kind)}")
    name, description = fields["name"], fields.get("description")
    if not description:
        return Verdict(WARNS, name, "", NO_DESCRIPTION)
    return Verdict(LOADS, name, description)


NO_DESCRIPTION = "listed by `opencode debug skill` but left out of what the model sees: it has no description"


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
        Rule("unquoted `: ` in a value, or a tab as indentation: the parse is retried and the skill loads",
             "run"),
        Rule("a key given twice: skipped silently", "run"),
        Rule("a name or description that is not text (null, empty, a number, boolean, date, list): skipped "
             "silently; `name: \"\"` loads under the empty name; `description: \"\"` is listed, not shown", "run"),
        Rule("a `---` never closed: the rest of the file is read as the frontmatter", "run"),
        Rule("a byte-order mark before `---` is dropped: the file loads with its frontmatter", "run"),
        Rule("one name twice: one copy wins, and which one changes from run to run", "run"),
    ),
    judge=judge,
    advice="put the skill in .agents/skills, .claude/skills or .opencode/skills",
)
