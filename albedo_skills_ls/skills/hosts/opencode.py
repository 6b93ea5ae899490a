"""OpenCode run here (the version and day: `evidence` below) three times over the same files."""

from __future__ import annotations

import re
from typing import Any

from ..core import programs
from .common import SILENT
from .facts import BOM, SkillFacts, YamlProblem, parse_yaml
from .model import LOADS, SKIPPED, WARNS, Duplicates, HostModel, Rule, Verdict, Walk, run_here
from .values import kind, type_words

LABEL = "OpenCode"
TAB_TOKEN = "found character that cannot start any token"  # libyaml's words for a tab as indentation
# The block OpenCode's retry rewrites: the text must open with `---` and a line break at its very first
# byte (a byte-order mark spoils it) and hold a later line that starts with `---` (read in its shipped
# code, gray-matter's `sanitize` fallback; confirmed by the `retry` shape of the generated batch).
_RETRY_BLOCK = programs.compile(r"---\r?\n([\s\S]*?)\r?\n---")
_RETRY_LINE = programs.compile(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*([^\r\n\u2028\u2029]*)")
_LINE_BREAK = programs.compile(r"\r?\n")


def judge(facts: SkillFacts) -> Verdict:
    matter = frontmatter(facts.text)
    fields, problem = _parse(matter) if matter is not None else (None, None)
    if fields is None and matter is not None:
        # A parse that fails for any reason is retried once on the rewritten text (`retried`); one that
        # still fails (a key given twice, a colon in a file the rewrite cannot reach) drops the skill
        # silently (run).
        fields = retried(facts.text)
    if fields is None:
        why = problem.problem if problem is not None else "no frontmatter"
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


def frontmatter(text: str) -> str | None:
    """The frontmatter as gray-matter cuts it (run): one byte-order mark dropped; the text opens with `---`
    not followed by a fourth `-`; the block runs to the first line that starts with `---` (`----` and
    `--- x` close it too), or to the end of the file when there is none (the body is then frontmatter,
    its headings YAML comments). None: no frontmatter."""
    text = text[len(BOM):] if text.startswith(BOM) else text
    if not text.startswith("---") or text[3:4] == "-":
        return None
    rest = text[3:]
    close = rest.find("\n---")
    return rest if close < 0 else rest[:close]


def _parse(matter: str) -> tuple[dict[str, Any] | None, YamlProblem | None]:
    """js-yaml's reading: the standard parse, with the text's last line break (js-yaml adds one); a tab that
    opens a line is read as indentation (run: such files load), so a parse that fails on one is made again
    with each such tab as two spaces. A block of comments and blank lines only is no data at all."""
    if re.sub(r"(?m)^\s*#[^\n]+", "", matter).strip() == "":
        return {}, None
    text = matter if matter.endswith("\n") else matter + "\n"
    fields, problem = parse_yaml(text)
    if fields is None and problem is not None and problem.problem.startswith(TAB_TOKEN):
        untabbed = re.sub(r"(?m)^\t+", lambda tabs: "  " * len(tabs[0]), text)
        fields, _again = parse_yaml(untabbed)
    return fields, problem


def retried(text: str) -> dict[str, Any] | None:
    """OpenCode's second parse, of the text rewritten line by line (read in its shipped code; confirmed by
    the `retry` runs): only when the text opens with `---` at its first byte and a later line starts with
    `---` (so never for a file with a byte-order mark, nor for one whose `---` is never closed); in that
    block, each line that is not blank, a comment or indented, of the form `key: value` with a key of
    letters, digits and `_` (`when_to_use` too, not `x-note`), whose trimmed value holds a `:` anywhere
    and is not empty, `>`, `|` or opened by a quote, becomes `key: |-` and the value on an indented line:
    a literal block, so the value is read exactly as written (a ` # comment` and a `[` included)."""
    found = _RETRY_BLOCK.match(text)
    if found is None:
        return None
    lines = []
    for line in _LINE_BREAK.split(found[1]):
        pair = _RETRY_LINE.fullmatch(line)
        value = pair[2].strip() if pair else ""
        if (not line.strip() or line.strip().startswith("#") or line[:1].isspace() or pair is None
                or value in ("", ">", "|") or value.startswith(('"', "'")) or ":" not in value):
            lines.append(line)
            continue
        lines += [f"{pair[1]}: |-", f"  {value}"]
    fields, _problem = _parse("\n".join(lines))
    return fields


NO_DESCRIPTION = "listed by `opencode debug skill` but left out of what the model sees: it has no description"


MODEL = HostModel(
    id="opencode",
    short="oc",
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
        Rule("a tab as indentation is read as indentation: the skill loads", "run"),
        Rule("a parse that fails is retried once, each `key: value` line whose value holds a `:` rewritten as "
             "a literal block; only when the file opens with `---` at its first byte and the block is closed: "
             "with a byte-order mark or a `---` never closed, an unquoted `: ` drops the skill silently",
             "its shipped code (gray-matter's sanitize fallback); confirmed by the `retry` generated batch"),
        Rule("a key given twice: skipped silently", "run"),
        Rule("a name or description that is not text (null, empty, a number, boolean, date, list): skipped "
             "silently; `name: \"\"` loads under the empty name; `description: \"\"` is listed, not shown", "run"),
        Rule("a `---` never closed: the rest of the file is read as the frontmatter", "run"),
        Rule("the frontmatter ends at the first line that starts with `---` (`----` and `--- x` too)",
             "its shipped code (gray-matter)"),
        Rule("a byte-order mark before `---` is dropped: the file loads with its frontmatter", "run"),
        Rule("one name twice: one copy wins, and which one changes from run to run", "run"),
    ),
    judge=judge,
    advice="put the skill in .agents/skills, .claude/skills or .opencode/skills",
)
