"""Codex CLI run here (the version and day: `evidence` below); budget and name rule from its source."""

from __future__ import annotations

import json
import os
import stat

from ..core import limits
from .common import collapse, cut, libyaml_words, loaded
from .facts import SkillFacts
from .model import SKIPPED, Budget, Duplicates, HostModel, Rule, Verdict, Walk, run_here
from .values import as_written, kind, yaml_fields

LABEL = "Codex CLI"
MAX_DESCRIPTION = 1024  # characters, "..." included, in the prompt (run); `skills/list` keeps the whole text
ELLIPSIS = "..."
MAX_NAME = 64  # after whitespace collapse (source, loader.rs)
PLUGIN_MANIFEST = (".codex-plugin", "plugin.json")
# Its skills list is held to 10,000 estimated tokens, a line's cost being its bytes with the line break, divided
# by 4 and rounded up (source: core-skills render.rs, APPROX_BYTES_PER_TOKEN; run here, 0.171.0: 10,000 and
# no other limit gives every cut seen at 100 and 300 skills, 104 and 304 lines, to the character).
CATALOG_TOKENS = 10_000
BYTES_PER_TOKEN = 4


def estimated_tokens(line: str) -> int:
    """Codex's cost of one line of its skills list: its UTF-8 bytes and the line break, in tokens of 4 bytes,
    rounded up."""
    return (len(line.encode("utf-8")) + 1 + BYTES_PER_TOKEN - 1) // BYTES_PER_TOKEN


# Codex writes its system skills (in $CODEX_HOME/skills/.system) into the same list: their names, the length of
# their descriptions in 0.171.0 (run) and their file, for the budget only (the text itself is not needed).
SYSTEM_SKILLS = tuple(
    (name, "x" * length, f"{name}/SKILL.md")
    for name, length in (("imagegen", 570), ("openai-docs", 624), ("skill-creator", 106), ("skill-installer", 225))
)
_ROOT_PARENTS = (".agents", ".codex")  # a folder `skills` inside one of these is a Codex root


def _is_root(folder: str) -> bool:
    return os.path.basename(folder) == "skills" and os.path.basename(os.path.dirname(folder)) in _ROOT_PARENTS


def plugin_name(skill_path: str) -> str | None:
    """The name in `.codex-plugin/plugin.json` of the nearest folder above the skill's own, up to its root:
    Codex names a skill inside a plugin folder `<plugin>:<name>` (run: the fixture's `a-plugin`, and
    UiPath/skills cloned into a root). A manifest that is not a small regular JSON file with a string
    `name` is ignored; nothing above the root is read."""
    folder = os.path.dirname(skill_path)
    for _ in range(limits.MAX_HOST_WALK_DEPTH):
        if _is_root(folder) or os.path.dirname(folder) == folder:
            return None
        folder = os.path.dirname(folder)
        if _is_root(folder):
            return None
        name = _manifest_name(os.path.join(folder, *PLUGIN_MANIFEST))
        if name is not None:
            return name
    return None


def _manifest_name(manifest: str) -> str | None:
    try:
        # Opened without blocking and checked after opening: a FIFO named plugin.json never stalls the walk.
        fd = os.open(manifest, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limits.MAX_PLUGIN_MANIFEST_BYTES:
            return None
        data = os.read(fd, limits.MAX_PLUGIN_MANIFEST_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        found = json.loads(data)
    except ValueError:
        return None
    name = found.get("name") if isinstance(found, dict) else None
    return name if isinstance(name, str) and name else None


def _invalid(facts: SkillFacts) -> str:
    """Codex's refusal of a frontmatter serde_yaml does not parse (run: the first error, with its place)."""
    problem = facts.yaml_problem
    assert problem is not None
    if problem.problem.startswith("found duplicate key"):
        key = problem.problem.split('"')[1] if '"' in problem.problem else "?"
        return f"invalid YAML: duplicate field `{key}`"
    return f"invalid YAML: {libyaml_words(problem.problem)} at line {problem.line} column {problem.column}"


def judge(facts: SkillFacts) -> Verdict:
    if not facts.opens_after_trim or not facts.has_frontmatter:
        return Verdict(SKIPPED, reason="missing YAML frontmatter delimited by ---")
    # Codex retries a parse that fails on an unquoted `: ` with such values quoted (run: the description
    # loads intact); when the retry fails too, the first error is the one it gives.
    fields = yaml_fields(facts, retry=True)
    if fields is None:
        return Verdict(SKIPPED, reason=_invalid(facts))
    for key in ("name", "description"):
        if kind(fields, key) in ("sequence", "mapping"):
            return Verdict(SKIPPED, reason=f"invalid YAML: {key}: invalid type: "
                           f"{'sequence' if kind(fields, key) == 'sequence' else 'map'}, expected a string")
    # serde_yaml reads a number, a boolean or a date into a String as written; null is no value (run).
    description = collapse(as_written(facts, fields, "description") or "")
    if not description:
        return Verdict(SKIPPED, reason="missing field `description`")
    name = collapse(as_written(facts, fields, "name") or "") or facts.folder_name
    if len(name) > MAX_NAME:
        return Verdict(SKIPPED, reason=f"invalid name: exceeds maximum length of {MAX_NAME} characters")
    plugin = plugin_name(facts.path)
    if plugin is not None:
        name = f"{plugin}:{name}"
    # Over 1,024 characters: cut to 1,021 and "..." (run: 1,024 characters in the prompt in all)
    _shown, cut_note = cut(description, MAX_DESCRIPTION, " in the prompt")
    shown = description[: MAX_DESCRIPTION - len(ELLIPSIS)] + ELLIPSIS if cut_note else description
    return loaded(name, shown, [cut_note])


MODEL = HostModel(
    id="codex",
    short="cx",
    label=LABEL,
    evidence=run_here(LABEL, "0.171.0", "@openai/codex", "2026-12-01"),
    roots=(
        ("workspace", ".agents/skills"),
        ("workspace", ".codex/skills"),
        ("home", ".agents/skills"),
        ("home", ".codex/skills"),
    ),
    walk=Walk(max_levels=6, root_file=True, file_links=False, dot_folders=False),
    duplicates=Duplicates("all", evidence="run: both copies loaded and both in the prompt; one file reached by "
                          "two paths (a linked folder) is one skill, listed under the home root's path, else the "
                          "first by path", same_file="home-first"),
    budget=Budget(
        CATALOG_TOKENS,
        MAX_DESCRIPTION,
        "tokens",
        "shorten",
        f"{CATALOG_TOKENS:,} tokens (about {CATALOG_TOKENS * BYTES_PER_TOKEN:,} bytes) of `- name: description "
        "(file: …)` lines, its own 4 system skills included; past it the description space is shared out a "
        "character at a time, so every long description is cut to about one length (its source; measured "
        "here with the default model at 10, 100 and 300 skills)",
        line=lambda name, text, where: f"- {name}: {text} (file: r1/{where})" if text else f"- {name}: (file: r1/{where})",
        builtin=SYSTEM_SKILLS,
        line_cost=estimated_tokens,
    ),
    rules=(
        Rule("reads .agents/skills and .codex/skills (workspace and home), never .claude/skills", "run"),
        Rule("skill folders up to 6 levels below a root; a SKILL.md directly in a root loads", "run"),
        Rule("a SKILL.md that is a symbolic link is ignored silently; linked folders are followed", "run"),
        Rule("folders whose name starts with `.` are skipped", "source (loader.rs at c9d127cf)"),
        Rule("no frontmatter: \"missing YAML frontmatter delimited by ---\"", "run"),
        Rule("no description: \"missing field `description`\"", "run"),
        Rule("unquoted `: ` in a value loads (the parse is retried with such values quoted); when the retry "
             "fails too, the first error refuses the file", "run"),
        Rule("YAML that does not parse (a tab as indentation, a key given twice) is refused: \"invalid YAML: "
             "...\"", "run"),
        Rule("a number, boolean or date as name or description is read as written; a list or mapping is "
             "refused (\"invalid type\"); a null or empty description is \"missing field\"; a null name is the "
             "folder's", "run"),
        Rule("a description over 1,024 characters loads, cut to 1,021 and \"...\" in the prompt", "run"),
        Rule("no name: the folder's name; a name over 64 characters is refused", "run (folder); source (64)"),
        Rule("one name twice: both copies are kept and shown to the model", "run"),
        Rule("one file reached by two paths (a folder linked beside the real one, or from the home root into the "
             "workspace's) is one skill: listed once, under the home root's path, else the first by path; "
             "`skills/list` gives its resolved path", "run (the `links` generated batch)"),
        Rule("a skill below a folder holding `.codex-plugin/plugin.json` is named `<plugin>:<name>`", "run"),
    ),
    judge=judge,
    advice="put the skill in .agents/skills (Codex reads it in the workspace and in your home folder)",
)
