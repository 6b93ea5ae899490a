"""Claude Code run here (the version and day: `evidence` below) against a fake model on loopback."""

from __future__ import annotations

from .common import cut, loaded
from .facts import BOM, SkillFacts
from .model import Budget, Duplicates, HostModel, Rule, Verdict, Walk, run_here

LABEL = "Claude Code"
MAX_ENTRY = 1_536  # characters of description + when_to_use in the listing (changelog 2.1.105)


def judge(facts: SkillFacts) -> Verdict:
    command = facts.folder_name  # the command is the folder's name, whatever `name:` says (run)
    notes = []
    written = facts.lenient("description")  # the runtime keeps a frontmatter whose YAML fails (run)
    extra = facts.string("when_to_use")
    if written:
        description = written if not extra else f"{written} {extra}"
    else:
        description = _made_up(facts)
        notes.append(
            f"no description: {LABEL} makes one up from the body (\"{description}\"); write a `description`"
        )
    if not facts.has_frontmatter:
        marked = " (a byte-order mark before `---` leaves it none)" if facts.bom else ""
        notes.insert(0, f"no frontmatter{marked}: it loads, named after its folder")
    named = facts.lenient("name")
    if named and named != command:
        notes.append(f"the command is /{command}, after the folder, not `{named}`")
    description, cut_note = cut(description, MAX_ENTRY, " in the listing")
    return loaded(command, description, notes + [cut_note])


def _made_up(facts: SkillFacts) -> str:
    """The description Claude Code shows for a skill without one: the body's first line that is not blank,
    its heading marks and a byte-order mark dropped (run: `# c-nofm` gave "c-nofm", a BOM file "---")."""
    for line in facts.body.splitlines():
        text = line.lstrip(BOM).strip().lstrip("#").strip()
        if text:
            return text
    return ""


MODEL = HostModel(
    id="claude-code",
    label=LABEL,
    evidence=run_here(LABEL, "2.1.332", "@anthropic-ai/claude-code", "2026-12-03"),
    roots=(("home", ".claude/skills"), ("workspace", ".claude/skills")),
    walk=Walk(max_levels=1),
    duplicates=Duplicates("all", evidence="run: both copies listed to the model, user first"),
    budget=Budget(
        8_000,
        MAX_ENTRY,
        "chars",
        "names-only",
        "about 8,000 characters (200,000 tokens × 4 × 1%) and 1,536 per entry (constants from an analysis of "
        "the 2.1.220 binary and the changelog; not measured here)",
    ),
    rules=(
        Rule("reads .claude/skills (workspace and home), never .agents/skills", "run"),
        Rule("immediate children of a root only; no SKILL.md directly in the root", "run"),
        Rule("the command is the folder's name, even when `name:` differs", "run"),
        Rule("no description, or no frontmatter: loads, the description made up from the body's first line", "run"),
        Rule("unquoted `: ` in a value: loads with its description (its own validator says otherwise)", "run"),
        Rule("a byte-order mark before `---`: no frontmatter is read; it loads, named after its folder, with a "
             "made-up description (the changelog says such files were hidden before 2.1.239; 2.1.197 loads them)",
             "run"),
        Rule("one name twice: both copies are listed to the model", "run"),
    ),
    judge=judge,
    advice="Claude Code reads only .claude/skills: link the folder there "
    "(`ln -s ../../.agents/skills/NAME .claude/skills/NAME`)",
)
