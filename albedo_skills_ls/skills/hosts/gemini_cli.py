"""Gemini CLI run here (the version and day: `evidence` below) with the workspace trusted."""

from __future__ import annotations


from ..core import programs
from .common import SILENT
from .facts import SkillFacts
from .model import LOADS, SKIPPED, WARNS, Duplicates, HostModel, Rule, Verdict, Walk, run_here
from .values import kind

LABEL = "Gemini CLI"
_UNSAFE = programs.compile(r'[:\\/<>*?"|]')  # replaced by `-` in the name (source, skillLoader.ts at 5411f11)


def judge(facts: SkillFacts) -> Verdict:
    if not facts.opens_at_byte_0 or facts.frontmatter is None:
        return Verdict(SKIPPED, reason=f"{SILENT}: {LABEL} needs `---` as the file's very first line")
    fields = facts.fields
    parsed = kind(fields, "name") == "string" and kind(fields, "description") == "string"
    if parsed:
        assert fields is not None
        name, description = fields["name"], fields["description"]
    else:
        # js-yaml failed, or gave a name or description that is not a string (a date, a number, null, a
        # list): the simple parser reads both lines as written, quotes and all (run).
        name, description = _simple_name(facts.frontmatter), facts.line_fields.get("description")
    if name is None or description is None:  # present is enough: an empty name or description loads (run)
        missing = " and ".join(key for key, value in (("name", name), ("description", description)) if value is None)
        return Verdict(SKIPPED, reason=f"{SILENT}: {LABEL} needs both `name` and `description`; {missing} missing")
    shown = _UNSAFE.sub("-", name)
    if facts.yaml_problem is not None:
        return Verdict(
            WARNS,
            shown,
            description,
            f"YAML frontmatter parsing failed, falling back to simple parser (line {facts.yaml_problem.line}); "
            "said only with --debug",
        )
    if not parsed:
        return Verdict(WARNS, shown, description, f"the name or description is not text to {LABEL}'s YAML reader, "
                       "which then reads both lines as written")
    return Verdict(LOADS, shown, description)


_NAME_LINE = programs.compile(r"^name:[ \t]*(.*)$")


def _simple_name(frontmatter: str) -> str | None:
    """The last `name:` line's value as written (the simple parser reads no continuation line for it)."""
    found = None
    for line in frontmatter.splitlines():
        match = _NAME_LINE.match(line)
        if match:
            found = match.group(1).strip()
    return found


MODEL = HostModel(
    id="gemini-cli",
    short="gm",
    label=LABEL,
    evidence=run_here(LABEL, "0.61.0", "@google/gemini-cli", "2026-12-01"),
    # later wins in Gemini's own order; listed here highest first
    roots=(
        ("workspace", ".agents/skills"),
        ("workspace", ".gemini/skills"),
        ("home", ".agents/skills"),
        ("home", ".gemini/skills"),
    ),
    walk=Walk(max_levels=1, root_file=True, dot_folders=False),
    duplicates=Duplicates(
        "first",
        'Skill conflict detected: "{name}" from "{winner}" is overriding the same skill from "{loser}".',
        "run; within one root, the order of glob() results, which node-glob does not sort: the winner between "
        "two folders of one root changed between runs (scripts/hosts_conformance)",
        unsorted_within_root=True,
    ),
    budget=None,
    rules=(
        Rule("reads .agents/skills and .gemini/skills (workspace, when trusted, and home)", "run"),
        Rule("`SKILL.md` or `*/SKILL.md`: a SKILL.md directly in a root loads; nothing deeper", "run"),
        Rule("`name` and `description` are required; a skill without either is skipped silently", "run"),
        Rule("unquoted `: `, a tab as indentation or a key given twice: the YAML fails and a line parser reads "
             "name and description as written, quotes and all (--debug says so)", "run"),
        Rule("a name or description that js-yaml does not give as a string (null, empty, a number, boolean, "
             "date, list): the same line parser reads both; an empty `description:` then loads", "run"),
        Rule("the name has `:\\/<>*?\"|` replaced by `-`", "source (skillLoader.ts at 5411f11)"),
        Rule("one name twice: the workspace wins over home, .agents over .gemini, with a warning", "run"),
        Rule("one name twice in one root: not deterministic (the order of an unsorted glob)", "run and source"),
        Rule("workspace skills load only in a trusted folder", "run"),
    ),
    judge=judge,
    advice="put the skill in .agents/skills or .gemini/skills",
)
