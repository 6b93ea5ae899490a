"""Claude Code run here (the version and day: `evidence` below) against a fake model on loopback."""

from __future__ import annotations

from .common import loaded, utf16_length, utf16_prefix
from .facts import BOM, SkillFacts, without_bom
from .model import Budget, Duplicates, HostModel, Rule, Verdict, Walk, run_here
from .values import MAPPING_VALUES, as_written, lenient_fields, quoted_fields

LABEL = "Claude Code"
CATALOG_CHARS = 24_000  # run: 57 of 100 400-character and 211 of 300 100-character descriptions fit, no more
MAX_ENTRY = 1_536  # UTF-16 units of description + when_to_use in the listing (changelog 2.1.105; run: 2.1.332)


def judge(facts: SkillFacts) -> Verdict:
    facts = without_bom(facts)  # 2.1.332 drops a byte-order mark before `---` (run)
    command = facts.folder_name  # the command is the folder's name, whatever `name:` says (run)
    notes = []
    fields = _fields(facts)
    written = as_written(facts, fields, "description")
    extra = as_written(facts, fields, "when_to_use")
    if written:
        description = written
    else:
        description = _made_up(facts)
        notes.append(
            f"no description: {LABEL} makes one up from the body (\"{description}\"); write a `description`"
        )
    if extra:
        description = f"{description} - {extra}"  # run: `when_to_use` follows after " - ", made-up or not
    if not facts.has_frontmatter:
        notes.insert(0, "no frontmatter: it loads, named after its folder")
    if facts.yaml_problem is not None and fields is None:
        notes.append("the YAML fails on an unquoted `: `, and again with the values quoted: every frontmatter "
                     "field is dropped; quote the value")
    named = as_written(facts, fields, "name")
    if named and named != command:
        notes.append(f"the command is /{command}, after the folder, not `{named}`")
    if (fields or {}).get("disable-model-invocation") in (True, "true"):
        notes.append(f"`disable-model-invocation: true`: listed as the command /{command}, but its model is not "
                     "shown the skill")
        return loaded(command, "", notes)
    if utf16_length(description) > MAX_ENTRY:  # counted in UTF-16 units; cut to 1,535 and "…" (run)
        notes.append(f"the description ({len(description):,} characters) is cut to {MAX_ENTRY:,} UTF-16 units in "
                     "the listing")
        description = utf16_prefix(description, MAX_ENTRY - 1) + "…"
    return loaded(command, description, notes)


def _made_up(facts: SkillFacts) -> str:
    """The description Claude Code shows for a skill without one: the body's first line that is not blank,
    its heading marks and a byte-order mark dropped (run: `# c-nofm` gave "c-nofm")."""
    for line in facts.body.splitlines():
        text = line.lstrip(BOM).strip().lstrip("#").strip()
        if text:
            return text
    return ""


def _fields(facts: SkillFacts) -> dict | None:  # type: ignore[type-arg]
    """The frontmatter as 2.1.332 reads it (run): a parse that fails on an unquoted `: ` is retried with
    every plain top-level value quoted, and when that fails too (a block scalar `>` or `|` then breaks) every
    field is dropped and the description made up; a tab as indentation or a key given twice is read anyway,
    the last copy of a key winning."""
    if facts.fields is not None or facts.yaml_problem is None:
        return facts.fields
    if facts.yaml_problem.problem.startswith(MAPPING_VALUES):
        return quoted_fields(facts)
    return lenient_fields(facts)


MODEL = HostModel(
    id="claude-code",
    label=LABEL,
    evidence=run_here(LABEL, "2.1.332", "@anthropic-ai/claude-code", "2026-12-03"),
    roots=(("home", ".claude/skills"), ("workspace", ".claude/skills")),
    walk=Walk(max_levels=1),
    duplicates=Duplicates("first", evidence="run (2.1.332): one folder name in ~/.claude/skills and .claude/skills: "
                          "the user's copy is listed, the project's left out, silently (2.1.197 listed both)"),
    budget=Budget(
        CATALOG_CHARS,
        MAX_ENTRY,
        "chars",
        "names-only",
        f"{CATALOG_CHARS:,} characters of `- name: description` lines for your skills (its built-in ones come "
        "after, uncounted); past it, the skills listed first keep their descriptions and the rest are listed "
        "by name alone (measured here with the default model at 10, 100 and 300 skills)",
        line=lambda name, text, _where: f"- {name}: {text}" if text else f"- {name}",
    ),
    rules=(
        Rule("reads .claude/skills (workspace and home), never .agents/skills", "run"),
        Rule("immediate children of a root only; no SKILL.md directly in the root", "run"),
        Rule("the command is the folder's name, even when `name:` differs", "run"),
        Rule("no description, or no frontmatter: loads, the description made up from the body's first line", "run"),
        Rule("unquoted `: ` in a value: loads with its description (its own validator says otherwise)", "run"),
        Rule("a byte-order mark before `---` is dropped (2.1.197 read no frontmatter then)", "run"),
        Rule("a description that is null, empty, a list or a mapping: made up from the body; a number, boolean "
             "or date: shown as written; `when_to_use` follows after \" - \"", "run"),
        Rule("an unquoted `: ` in a value: read again with every plain value quoted; when that fails too (a "
             "`>` or `|` value), every field is dropped and a description made up; a tab as indentation or a key "
             "given twice is read anyway, the last copy winning", "run"),
        Rule("a description over 1,536 UTF-16 units is cut to 1,535 and \"…\" in the listing", "run"),
        Rule("`disable-model-invocation: true`: listed as a command, absent from what the model is shown", "run"),
        Rule("one folder name in both roots: the user's copy wins, silently (2.1.197 listed both)", "run"),
    ),
    judge=judge,
    advice="Claude Code reads only .claude/skills: link the folder there "
    "(`ln -s ../../.agents/skills/NAME .claude/skills/NAME`)",
)
