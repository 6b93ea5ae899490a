"""skills-ref, the reference validator of the Agent Skills format, from its source (verified by running it
in an earlier study, research/hosts.md §2.13). It has no roots: it judges every file it is given."""

from __future__ import annotations

import unicodedata

from .facts import SkillFacts
from .model import LOADS, SKIPPED, Duplicates, HostModel, Rule, Verdict, Walk, read_in_source

LABEL = "skills-ref"
FILE_NAMES = ("SKILL.md", "skill.md")  # find_skill_md tries both, in this order
ALLOWED_FIELDS = ("name", "description", "license", "allowed-tools", "metadata", "compatibility")
MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500


def judge(facts: SkillFacts) -> Verdict:
    if facts.path.rsplit("/", 1)[-1] not in FILE_NAMES:
        return Verdict(SKIPPED, reason="Missing required file: SKILL.md")
    if not facts.opens_at_byte_0 or facts.frontmatter is None:
        return Verdict(SKIPPED, reason="the file must start with `---` and a closed frontmatter block")
    if facts.fields is None:
        return Verdict(SKIPPED, reason="the frontmatter is not valid StrictYAML")
    errors = _errors(facts.fields, facts.folder_name)
    if errors:
        return Verdict(SKIPPED, reason="; ".join(errors))
    return Verdict(LOADS, facts.fields["name"].strip(), facts.fields["description"])


def _errors(fields: dict, folder: str) -> list[str]:
    """skills-ref's `validate_metadata`, in its own words."""
    errors = []
    extra = sorted(set(fields) - set(ALLOWED_FIELDS))
    if extra:
        errors.append(f"Unexpected fields in frontmatter: {', '.join(extra)}. Only {sorted(ALLOWED_FIELDS)} are allowed.")
    name = fields.get("name")
    if "name" not in fields:
        errors.append("Missing required field in frontmatter: name")
    elif not isinstance(name, str) or not name.strip():
        errors.append("Field 'name' must be a non-empty string")
    else:
        name = unicodedata.normalize("NFKC", name.strip())
        if len(name) > MAX_NAME:
            errors.append(f"Skill name '{name}' exceeds {MAX_NAME} character limit ({len(name)} chars)")
        if name != name.lower():
            errors.append(f"Skill name '{name}' must be lowercase")
        if name.startswith("-") or name.endswith("-"):
            errors.append("Skill name cannot start or end with a hyphen")
        if "--" in name:
            errors.append("Skill name cannot contain consecutive hyphens")
        if not all(char.isalnum() or char == "-" for char in name):
            errors.append(f"Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed.")
        if unicodedata.normalize("NFKC", folder) != name:
            errors.append(f"Directory name '{folder}' must match skill name '{name}'")
    description = fields.get("description")
    if "description" not in fields:
        errors.append("Missing required field in frontmatter: description")
    elif not isinstance(description, str) or not description.strip():
        errors.append("Field 'description' must be a non-empty string")
    elif len(description) > MAX_DESCRIPTION:
        errors.append(f"Description exceeds {MAX_DESCRIPTION} character limit ({len(description)} chars)")
    compatibility = fields.get("compatibility")
    if "compatibility" in fields and isinstance(compatibility, str) and len(compatibility) > MAX_COMPATIBILITY:
        errors.append(f"Compatibility exceeds {MAX_COMPATIBILITY} character limit ({len(compatibility)} chars)")
    return errors


MODEL = HostModel(
    id="skills-ref",
    short="sr",
    label=LABEL,
    evidence=read_in_source(
        "skills-ref", "0.1.1", "(agentskills/agentskills skills-ref/src at 69ef37e; validator.py as stored at 00d5a46)"
    ),
    roots=(),
    walk=Walk(max_levels=None, root_file=True),
    duplicates=Duplicates("all", evidence="a validator: each folder on its own"),
    budget=None,
    rules=(
        Rule("validates one folder: SKILL.md, else skill.md", "source"),
        Rule("the file starts with `---`; StrictYAML", "source"),
        Rule("only the six spec fields; name = folder, lowercase, ≤ 64; description 1–1,024", "source"),
    ),
    judge=judge,
    exact_file_name=None,
    every_file=True,
)
