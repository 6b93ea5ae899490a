"""GitHub Copilot CLI run here (the version and day: `evidence` below) with COPILOT_OFFLINE=true."""

from __future__ import annotations


from ..core import programs
from .common import libyaml_words, utf16_length
from .facts import SkillFacts, without_bom
from .model import LOADS, SKIPPED, WARNS, Duplicates, HostModel, Rule, Verdict, Walk, run_here
from .values import as_written, kind

LABEL = "Copilot CLI"
MAX_DESCRIPTION = 1024  # UTF-16 code units (run: 1,024 characters with astral ones in them are refused)
MAX_NAME = 64  # UTF-16 code units (run)
NAME_RULE = ("Skill name must start with an ASCII letter or number and contain only ASCII letters (a-z, A-Z), "
             "numbers, hyphens, underscores, dots, colons, and spaces")
_NAME = programs.compile(r"[A-Za-z0-9][A-Za-z0-9_.: -]*")


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
    fields = facts.fields
    # A YAML 1.2 reader: a date is text; anything else that is not a string is refused (run).
    for key in ("name", "description"):
        if kind(fields, key) not in ("absent", "string", "date"):
            return Verdict(SKIPPED, reason=f"Skill {key} must be a string")
    # Both are trimmed first (run: a folded `>` name, which ends in a line break, loads).
    name = _trimmed(as_written(facts, fields, "name"))
    if name is not None:
        if utf16_length(name) > MAX_NAME:
            return Verdict(SKIPPED, reason=f"Skill name must be at most {MAX_NAME} characters")
        if not _NAME.fullmatch(name):
            return Verdict(SKIPPED, reason=NAME_RULE)
        name = name.replace(" ", "-")  # run: `a b` is listed as `a-b`
    name = name or facts.folder_name
    description = _trimmed(as_written(facts, fields, "description"))
    if description is not None and utf16_length(description) > MAX_DESCRIPTION:
        return Verdict(SKIPPED, reason=f"Skill description must be at most {MAX_DESCRIPTION} characters")
    if description is None:
        made_up = facts.first_text_line() or ""
        return Verdict(
            WARNS, name, made_up, f"no description: {LABEL} uses the body's first line (\"{made_up}\")"
        )
    if not description:
        return Verdict(WARNS, name, "", f"an empty description: {LABEL} lists it by name alone")
    return Verdict(LOADS, name, description)


def _trimmed(text: str | None) -> str | None:
    return None if text is None else text.strip()


MODEL = HostModel(
    id="copilot-cli",
    short="cp",
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
    duplicates=Duplicates("first", evidence="run: the workspace wins, and .agents over .claude, silently; in "
                          "one root the first folder by name wins, but not where one copy is reached through a "
                          "link: then which one is not known from the names", unsorted_with_links=True),
    budget=None,
    rules=(
        Rule("reads .github/skills, .agents/skills, .claude/skills in the workspace; ~/.copilot/skills and "
             "~/.agents/skills (not ~/.claude/skills)", "run"),
        Rule("any depth (8 levels seen); a SKILL.md directly in a root loads and hides every skill below it",
             "run (the root case; below any skill folder: inferred)"),
        Rule("folders whose name starts with `.` below a root are not walked", "run"),
        Rule("YAML that does not parse is refused with its line and column", "run"),
        Rule("a description over 1,024 UTF-16 units is refused (a character outside the BMP counts two)", "run"),
        Rule("a name or description that is not text (null, empty, a number, boolean, list or mapping) is "
             "refused: \"Skill name/description must be a string\"; a date is read as text", "run"),
        Rule("a name over 64 characters, or with characters other than ASCII letters, digits, `-_.:` and "
             "spaces, is refused; each space becomes `-` (`a b` is listed as `a-b`)", "run"),
        Rule("an empty description (`\"\"`) loads, listed by name alone", "run"),
        Rule("a byte-order mark before `---` is dropped: the file loads with its frontmatter", "run"),
        Rule("no name: the folder's; no description: the body's first line", "run"),
        Rule("one name twice: the workspace copy wins silently, and in one root the first folder by name; where "
             "one of the copies in that root is reached through a link, which one wins is not known from the names",
             "run (the `links` generated batch: of 15 folders each with a linked alias beside it, 8 real folders "
             "won and 7 aliases, whatever their names)"),
    ),
    judge=judge,
    advice="put the skill in .github/skills, .agents/skills or .claude/skills",
)
