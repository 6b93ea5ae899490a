"""A workspace where skill `demo` is mentioned in every way a rename must follow, beside every trap it must
not touch: the engine's, the command line's, the server's and the real editors' rename tests share it.

Mentions of `demo` (what a rename changes), by file:
- `.agents/skills/demo/SKILL.md`: `name: demo`
- `.agents/skills/other/SKILL.md`: `/demo` at a line start, `` `/demo merge` ``, `/demo` after `and/or`, a link
  `../demo/SKILL.md`, and `/demo` in sentences between every kind of punctuation that may surround it
- `AGENTS.md`: `` `/demo` ``, a link `.agents/skills/demo/SKILL.md`, "Use the skills: /demo merges files"
- `notes.chat.md`: `/demo go`, `/skill:demo x`, "if the merge fails, run /demo again."
- `.claude/agents/helper.md`: `demo` in a flow `skills:` list and in a block one
- `.claude/skills/demo`: a link mirroring the folder for Claude Code
- the user root `~/.agents/skills/mine/SKILL.md`: `/demo` at a line start (listed, left as it is)

Traps (never changed): `demo-extra` everywhere, the English word "demo", `/demo` in fenced code, `/demo/x`
and `/tmp/demo` paths, `/demos`, `/demo.md`, `/demo-`, `/demo:x`, `a/demo`, a URL, a link destination
`(/demo)`, and `/demo` in the middle of a code span (`` `ls /demo -la` ``, a shell line naming a path).
"""

from __future__ import annotations

import os
from pathlib import Path

OTHER_BODY = """# Other

Run a demo of the change first: the demo shows it.
/demo prepare the data
Then call `/demo merge`, or `/demo-extra` and `/demos`; see and/or /demo inside a sentence.
See [the demo skill](../demo/SKILL.md) and [extra](../demo-extra/SKILL.md), or /demo/x.
Before anything else, run /demo first. If the merge fails, run (/demo) again: "/demo", '/demo'; */demo*, _/demo_!
Traps: /demo.md, /demo-, /demo:x, a/demo, https://example.com/demo, `ls /demo -la`, [x](/demo), /tmp/demo.

```
/demo in a fence
```
"""

AGENTS_MD = """# Agents

Use `/demo` to show a demo. The demo-extra skill is [here](.agents/skills/demo-extra/SKILL.md);
the demo one [there](.agents/skills/demo/SKILL.md).
Use the skills: /demo merges files; see /demo/x and and/or/demo for nothing.
"""

CHAT = "/demo go\n/demo-extra go\n/skill:demo x\nplease demo it\nif the merge fails, run /demo again.\n"

HELPER_AGENT = """---
name: helper
description: An agent preloading skills.
skills: [demo, demo-extra]
tools:
  - demo
---
Preload list below is not frontmatter: skills: [demo]
"""

HELPER_BLOCK_AGENT = """---
name: block-helper
description: Another agent.
skills:
  - demo-extra
  - demo
---
Body.
"""

MINE_BODY = "# Mine\n\n/demo from my own skill\n"

# (path relative to the workspace, line, kind) of each mention a rename edits, and the mirror
EDITED = [
    (".agents/skills/demo/SKILL.md", 1, "name"),
    (".agents/skills/other/SKILL.md", 7, "command"),
    (".agents/skills/other/SKILL.md", 8, "code"),
    (".agents/skills/other/SKILL.md", 8, "command"),  # after `and/or`
    (".agents/skills/other/SKILL.md", 9, "link"),
    *[(".agents/skills/other/SKILL.md", 10, "command")] * 6,  # one sentence, each punctuation around it
    (".claude/agents/block-helper.md", 5, "skills-list"),
    (".claude/agents/helper.md", 3, "skills-list"),
    ("AGENTS.md", 2, "code"),
    ("AGENTS.md", 3, "link"),
    ("AGENTS.md", 4, "command"),
    ("notes.chat.md", 0, "command"),
    ("notes.chat.md", 2, "command"),
    ("notes.chat.md", 4, "command"),
]


def skill(root: Path, folder: str, name: str, description: str, body: str = "# Body\n\nDo the thing.\n") -> Path:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}", encoding="utf-8")
    return path


def build(base: Path) -> tuple[Path, Path]:
    """(workspace, home) under `base`."""
    workspace, home = base / "ws", base / "home"
    (workspace / ".git").mkdir(parents=True)
    skills = workspace / ".agents" / "skills"
    skill(skills, "demo", "demo", "Shows a demo of the data.", "# Demo\n\nRun [the script](scripts/run.sh).\n")
    (skills / "demo" / "scripts").mkdir()
    (skills / "demo" / "scripts" / "run.sh").write_text("echo demo\n", encoding="utf-8")
    skill(skills, "demo-extra", "demo-extra", "More demos.")
    skill(skills, "other", "other", "Uses the demo skill.", OTHER_BODY)
    (workspace / "AGENTS.md").write_text(AGENTS_MD, encoding="utf-8")
    (workspace / "notes.chat.md").write_text(CHAT, encoding="utf-8")
    agents = workspace / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "helper.md").write_text(HELPER_AGENT, encoding="utf-8")
    (agents / "block-helper.md").write_text(HELPER_BLOCK_AGENT, encoding="utf-8")
    mirrors = workspace / ".claude" / "skills"
    mirrors.mkdir(parents=True)
    os.symlink("../../.agents/skills/demo", mirrors / "demo")
    skill(home / ".agents" / "skills", "mine", "mine", "My own skill.", MINE_BODY)
    return workspace, home


def snapshot(folder: Path) -> dict[str, str]:
    """Every file's text (links as `-> target`), by path relative to `folder`: what is on disk."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        relative = str(path.relative_to(folder))
        if path.is_symlink():
            found[relative] = "-> " + os.readlink(path)
        elif path.is_file() and ".git" not in path.parts:
            found[relative] = path.read_text(encoding="utf-8")
    return found


def expected_after(before: dict[str, str]) -> dict[str, str]:
    """The workspace (a `snapshot`) as renaming `demo` to `showcase` must leave it: each mention changed, the
    folder and the mirror link renamed and the link re-pointed, nothing else."""
    replaced = {
        ".agents/skills/other/SKILL.md": [
            ("/demo prepare", "/showcase prepare"), ("`/demo merge`", "`/showcase merge`"),
            ("and/or /demo inside", "and/or /showcase inside"), ("(../demo/", "(../showcase/"),
            ("run /demo first. If the merge fails, run (/demo) again: \"/demo\", '/demo'; */demo*, _/demo_!",
             "run /showcase first. If the merge fails, run (/showcase) again: \"/showcase\", '/showcase'; "
             "*/showcase*, _/showcase_!"),
        ],
        "AGENTS.md": [("`/demo`", "`/showcase`"), ("skills/demo/SKILL", "skills/showcase/SKILL"),
                      ("skills: /demo merges", "skills: /showcase merges")],
        "notes.chat.md": [("/demo go", "/showcase go"), ("/skill:demo x", "/skill:showcase x"),
                          ("run /demo again.", "run /showcase again.")],
        ".claude/agents/helper.md": [("skills: [demo,", "skills: [showcase,")],
        ".claude/agents/block-helper.md": [("  - demo\n---", "  - showcase\n---")],
        ".agents/skills/demo/SKILL.md": [("name: demo\n", "name: showcase\n")],
    }
    after = {}
    for path, text in before.items():
        for old, new in replaced.get(path, []):
            assert text.count(old) == 1, (path, old)
            text = text.replace(old, new)
        if path == ".agents/skills/demo" or path.startswith(".agents/skills/demo/"):
            path = ".agents/skills/showcase" + path.removeprefix(".agents/skills/demo")
        after[path] = text
    del after[".claude/skills/demo"]
    after[".claude/skills/showcase"] = "-> ../../.agents/skills/showcase"
    return after
