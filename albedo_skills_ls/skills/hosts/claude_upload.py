"""Skill uploads to claude.ai, Claude Desktop and the Claude API, from Anthropic's own packaging validator
(`quick_validate.py`) and the upload docs; not run here. It has no roots: any folder can be uploaded."""

from __future__ import annotations


from ..core import programs
from .facts import SkillFacts
from .model import LOADS, SKIPPED, Duplicates, HostModel, Rule, Verdict, Walk, read_in_source

LABEL = "claude.ai upload"
ALLOWED = ("allowed-tools", "compatibility", "description", "license", "metadata", "name")
KEBAB = programs.compile(r"[a-z0-9-]+\Z")
RESERVED = ("anthropic", "claude")  # docs: reserved words a name may not hold
MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500


def judge(facts: SkillFacts) -> Verdict:
    why = _refusal(facts)
    if why is not None:
        return Verdict(SKIPPED, reason=why)
    assert facts.fields is not None
    return Verdict(LOADS, facts.fields["name"].strip(), facts.fields["description"].strip())


def _refusal(facts: SkillFacts) -> str | None:
    """The first refusal, in quick_validate.py's order and words; the reserved words from the docs."""
    if not facts.opens_at_byte_0:
        return "No YAML frontmatter found"
    if facts.frontmatter is None:
        return "Invalid frontmatter format"
    fields = facts.fields
    if fields is None:
        said = facts.yaml_problem.problem if facts.yaml_problem else "not a mapping"
        return f"Invalid YAML in frontmatter: {said}"
    unexpected = sorted(set(fields) - set(ALLOWED))
    if unexpected:
        return (
            f"Unexpected key(s) in SKILL.md frontmatter: {', '.join(unexpected)}. "
            f"Allowed properties are: {', '.join(ALLOWED)}"
        )
    for key in ("name", "description"):
        if key not in fields:
            return f"Missing '{key}' in frontmatter"
    name, description = fields["name"], fields["description"]
    if not isinstance(name, str):
        return f"Name must be a string, got {type(name).__name__}"
    name = name.strip()
    if not name:
        return "the name is empty (the upload requires one)"
    if not KEBAB.match(name):
        return f"Name '{name}' should be kebab-case (lowercase letters, digits, and hyphens only)"
    if name.startswith("-") or name.endswith("-") or "--" in name:
        return f"Name '{name}' cannot start/end with hyphen or contain consecutive hyphens"
    if len(name) > MAX_NAME:
        return f"Name is too long ({len(name)} characters). Maximum is {MAX_NAME} characters."
    reserved = next((word for word in RESERVED if word in name), None)
    if reserved is not None:
        return f"the name holds the reserved word `{reserved}`, which the upload refuses (docs)"
    if not isinstance(description, str):
        return f"Description must be a string, got {type(description).__name__}"
    description = description.strip()
    if not description:
        return "the description is empty (the upload requires one)"
    if "<" in description or ">" in description:
        return "Description cannot contain angle brackets (< or >)"
    if len(description) > MAX_DESCRIPTION:
        return f"Description is too long ({len(description)} characters). Maximum is {MAX_DESCRIPTION} characters."
    compatibility = fields.get("compatibility")
    if "compatibility" in fields and isinstance(compatibility, str) and len(compatibility) > MAX_COMPATIBILITY:
        return f"Compatibility is too long ({len(compatibility)} characters). Maximum is {MAX_COMPATIBILITY} characters."
    return None


MODEL = HostModel(
    id="claude-upload",
    short="up",
    label=LABEL,
    evidence=read_in_source(
        "Anthropic's skill validator",
        "quick_validate.py 9d2f1ae",
        "(anthropics/skills skills/skill-creator/scripts/quick_validate.py at 9d2f1ae) and the upload docs",
    ),
    roots=(),
    walk=Walk(max_levels=None, root_file=True),
    duplicates=Duplicates("all", evidence="each upload is one folder"),
    budget=None,
    rules=(
        Rule("only name, description, license, allowed-tools, compatibility, metadata", "source (quick_validate.py)"),
        Rule("name required, kebab-case, ≤ 64, without \"anthropic\" or \"claude\"", "source; docs (reserved words)"),
        Rule("description required, ≤ 1,024, no `<` or `>`", "source"),
    ),
    judge=judge,
    every_file=True,
)
