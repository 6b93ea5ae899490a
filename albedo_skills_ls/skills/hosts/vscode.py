"""VS Code's chat (GitHub Copilot Chat in VS Code 1.139), from VS Code's source; not run here."""

from __future__ import annotations

from .common import cut, loaded, strip_tags
from .facts import SkillFacts
from .model import SKIPPED, WARNS, Duplicates, HostModel, Rule, Verdict, Walk, read_in_source

LABEL = "VS Code"
MAX_NAME = 64
MAX_DESCRIPTION = 1024


def judge(facts: SkillFacts) -> Verdict:
    if not facts.opens_after_trim or facts.frontmatter is None:
        return Verdict(SKIPPED, reason="skipped (parse-error): no frontmatter; VS Code says so only in its log")
    folder = facts.folder_name
    notes = []
    written = facts.lenient("name")  # VS Code's own YAML reader; its handling of `: ` is not verified
    if written and strip_tags(written)[:MAX_NAME] != folder:
        notes.append(f"the name `{written}` differs from the folder: VS Code uses the folder's name `{folder}`")
    description = facts.lenient("description")
    if not description:
        notes.append("no description: it loads, but the model cannot invoke it (only /" + folder + ")")
        return Verdict(WARNS, folder, None, "; ".join(notes))
    description, cut_note = cut(strip_tags(description), MAX_DESCRIPTION)
    return loaded(folder, description, notes + [cut_note])


MODEL = HostModel(
    id="vscode",
    short="vs",
    label=LABEL,
    evidence=read_in_source(
        "VS Code",
        "1.139",
        "(microsoft/vscode at 0783120b and the versions after PR #311797, 2026-04; assumed unchanged in 1.139)",
    ),
    roots=(
        ("workspace", ".github/skills"),
        ("workspace", ".agents/skills"),
        ("workspace", ".claude/skills"),
        ("home", ".copilot/skills"),
        ("home", ".agents/skills"),
        ("home", ".claude/skills"),
    ),
    walk=Walk(max_levels=1),
    duplicates=Duplicates("first", evidence="source: first wins, workspace before user; logged as duplicate-name"),
    budget=None,
    rules=(
        Rule("reads .github/skills, .agents/skills, .claude/skills (workspace) and ~/.copilot/skills, "
             "~/.agents/skills, ~/.claude/skills, plus chat.agentSkillsLocations", "source"),
        Rule("immediate children of a root only", "source"),
        Rule("the name is the folder's; a different `name:` is replaced silently", "source (after PR #311797)"),
        Rule("a description over 1,024 characters is cut; no description: loads, not invocable by the model",
             "source (after PR #311797)"),
        Rule("a frontmatter that does not parse: skipped, in the log only", "source"),
        Rule("one name twice: the first wins (workspace, then user)", "source"),
        Rule("only the exact name SKILL.md on Linux", "inferred"),
    ),
    judge=judge,
    advice="put the skill in .github/skills, .agents/skills or .claude/skills, or add its folder to "
    "chat.agentSkillsLocations",
)
