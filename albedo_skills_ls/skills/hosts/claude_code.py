"""Claude Code run here (the version and day: `evidence` below) against a fake model on loopback."""

from __future__ import annotations

import re
import unicodedata

from ..core import programs
from .common import loaded, terminal_width, utf16_length, utf16_prefix
from .facts import BOM, SkillFacts, parse_yaml, without_bom
from .model import SKIPPED, Budget, Duplicates, HostModel, Rule, Verdict, Walk, run_here
from .values import as_written, parse_last_copies

LABEL = "Claude Code"
# Its listing (2.1.332, run: "Skill listing over budget: … > 30000 budget" in `--debug`, and the lines it sent):
# the lines, joined by line breaks, held to 30,000 terminal columns. Its 11 bundled skills are always shown
# whole: 6,039 columns and their 11 line breaks, less the one the last line lacks. Two commands of its own come
# last and keep their descriptions only while they fit, like yours: `init` (67 columns whole) and
# `security-review` (90); their text is not needed, only its width.
CATALOG_COLUMNS = 30_000
BUNDLED_COLUMNS = 6_039 + 11 - 1
OWN_COMMANDS = (("init", "x" * (67 - len("- init: ")), ""),
                ("security-review", "x" * (90 - len("- security-review: ")), ""))
MAX_ASIDE = 256  # UTF-16 units of a name it writes beside the command (source, 2.1.332)
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
        notes.append(f"the YAML fails, and again when {LABEL} retries it with the values that hold `: `, `#`, `|` "
                     "or `>` quoted and tabs as spaces: every frontmatter field is dropped; quote the value, indent "
                     "with spaces")
    named = as_written(facts, fields, "name")
    if named and named != command:
        notes.append(f"the command is /{command}, after the folder, not `{named}`")
    hidden = (fields or {}).get("disable-model-invocation") in (True, "true")
    if hidden and (fields or {}).get("user-invocable") in (False, "false"):
        # run: neither in the model's list nor among the commands (seed 100's s10000061-gamma)
        return Verdict(SKIPPED, reason="`disable-model-invocation: true` with `user-invocable: false`: hidden from "
                       f"its model and from you, {LABEL} lists it nowhere; drop one of the two")
    if hidden:
        notes.append(f"`disable-model-invocation: true`: listed as the command /{command}, but its model is not "
                     "shown the skill")
        return loaded(command, "", notes)
    # run: a description over several lines (`|`, or when_to_use's) reaches the model as one line, each line
    # break a space, the ends trimmed
    description = " ".join(description.splitlines()).strip()
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


def aside_name(facts: SkillFacts) -> str | None:
    """The name Claude Code 2.1.332 writes in parentheses after the command (`- folder (name): …`): the file's
    own name when it differs from the folder's and is made of letters, marks, digits, `_`, `:`, `.` and `-`
    only, at most 256 UTF-16 units (its source; run: `(1.5)`, `(on)`, `(2024-01-02)` as written)."""
    facts = without_bom(facts)
    named = as_written(facts, _fields(facts), "name")
    command = facts.folder_name
    if not named or named == command or command.endswith(f":{named}") or utf16_length(named) > MAX_ASIDE:
        return None
    if not all(char in "_:.-" or unicodedata.category(char)[0] in "LMN" for char in named):
        return None
    return named


def _fields(facts: SkillFacts) -> dict | None:  # type: ignore[type-arg]
    """The frontmatter as 2.1.332 reads it (its source, `DDr`; run: the generated batches). Bun.YAML parses it,
    a key given twice taking its last copy. When that fails, it parses once more after quoting each plain
    `key: value` line whose value holds `: ` or one of `{}[]*&#!|>%@`` (a `|` or `>` then opens nothing and
    the lines below break it) and writing each tab that opens a line as two spaces. Its line pattern cannot
    match a line that ends in CR, so a CRLF file gets the tabs fix only. When both fail, every field is
    dropped and the description made up."""
    if facts.fields is not None or facts.frontmatter is None:
        return facts.fields
    fields, problem = parse_last_copies(facts.frontmatter)
    if problem is None:
        return fields
    lines = facts.frontmatter.splitlines()
    retry = "\n".join(lines if facts.crlf else map(_quoted, lines))
    fields, problem = parse_last_copies(_LEADING_TABS.sub(lambda tabs: "  " * len(tabs[0]), retry))
    return fields if problem is None else None


_RETRY_ENTRY = programs.compile(r"^(?P<key>[a-zA-Z_-]+):\s+(?P<value>\S.*)\Z")
_NEEDS_QUOTES = programs.compile(r"[{}\[\]*&#!|>%@`]|: ")
_LEADING_TABS = programs.compile(r"^\t+", re.MULTILINE)


def _quoted(line: str) -> str:
    entry = _RETRY_ENTRY.match(line)
    if entry is None:
        return line
    key, value = entry["key"], entry["value"]
    if value[0] == value[-1] and value[0] in "'\"":
        return line
    if value.startswith("[") and value.endswith("]"):
        listed, _problem = parse_yaml(f"v: {value}\n")
        if listed is not None and isinstance(listed.get("v"), list):
            return line
    if not _NEEDS_QUOTES.search(value):
        return line
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'{key}: "{escaped}"'


MODEL = HostModel(
    id="claude-code",
    short="cc",
    label=LABEL,
    evidence=run_here(LABEL, "2.1.332", "@anthropic-ai/claude-code", "2026-12-03"),
    roots=(("home", ".claude/skills"), ("workspace", ".claude/skills")),
    walk=Walk(max_levels=1),
    duplicates=Duplicates("first", evidence="run (2.1.332): one folder name in ~/.claude/skills and .claude/skills: "
                          "the user's copy is listed, the project's left out, silently (2.1.197 listed both); one file "
                          "reached by two paths is listed once, under the first", same_file="roots"),
    budget=Budget(
        CATALOG_COLUMNS,
        MAX_ENTRY,
        "chars",
        "names-only",
        f"{CATALOG_COLUMNS:,} terminal columns of `- name: description` lines, its own {BUNDLED_COLUMNS:,} "
        "included (a CJK character or emoji is 2); past it, in list order, each description that still fits "
        "is kept and the others are listed by name alone (its source, 2.1.332; measured here with the "
        "default model at 10, 100 and 300 skills)",
        line=lambda name, text, _where: f"- {name}: {text}" if text else f"- {name}",
        builtin=OWN_COMMANDS,
        line_cost=lambda text: terminal_width(text) + 1,  # its source (2.1.332) sums Bun.stringWidth of each line
        fixed=BUNDLED_COLUMNS,
        aside=aside_name,
    ),
    rules=(
        Rule("reads .claude/skills (workspace and home), never .agents/skills", "run"),
        Rule("immediate children of a root only; no SKILL.md directly in the root", "run"),
        Rule("one file reached by two paths (a folder linked beside the real one, or a SKILL.md linked to "
             "another skill's) is listed once, under the first path: the user root's, else the first folder "
             "by name", "run (the `links` generated batch)"),
        Rule("the command is the folder's name, even when `name:` differs", "run"),
        Rule("no description, or no frontmatter: loads, the description made up from the body's first line", "run"),
        Rule("unquoted `: ` in a value: loads with its description (its own validator says otherwise)", "run"),
        Rule("a byte-order mark before `---` is dropped (2.1.197 read no frontmatter then)", "run"),
        Rule("a description that is null, empty, a list or a mapping: made up from the body; a number, boolean "
             "or date: shown as written; `when_to_use` follows after \" - \"", "run"),
        Rule("a key given twice: the last copy wins; a parse that fails is retried with each plain value that "
             "holds `: ` or one of {}[]*&#!|>%@` quoted (a `|` or `>` then breaks it) and tabs that open a line "
             "as two spaces; a CRLF file gets no quoting; when the retry fails too, every field is dropped and "
             "a description made up", "source (2.1.332, DDr) and run"),
        Rule("a description over 1,536 UTF-16 units is cut to 1,535 and \"…\" in the listing", "run"),
        Rule("`disable-model-invocation: true`: listed as a command, absent from what the model is shown; with "
             "`user-invocable: false` too, listed nowhere", "run"),
        Rule("one folder name in both roots: the user's copy wins, silently (2.1.197 listed both)", "run"),
        Rule("a description over several lines reaches the model as one line, each line break a space", "run"),
        Rule("the listing is held to 30,000 terminal columns (CJK and emoji 2), its 11 bundled skills always "
             "whole; past it, in list order, each description that still fits is kept, the others listed by "
             "name alone, `init` and `security-review` last", "source (2.1.332, q3n) and run"),
        Rule("`- folder (name): …` when the file's name differs from the folder's, is letters, digits, `_:.-` "
             "only, and is no command's name nor claimed by a skill listed before", "source (2.1.332) and run"),
    ),
    judge=judge,
    advice="Claude Code reads only .claude/skills: link the folder there "
    "(`ln -s ../../.agents/skills/NAME .claude/skills/NAME`)",
)
