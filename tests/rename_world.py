"""A workspace where skill `demo` is mentioned in every way a rename must follow, beside every trap it must
not touch: the engine's, the command line's, the server's and the real editors' rename tests share it.

Mentions of `demo` (what a rename changes), by file:
- `.agents/skills/demo/SKILL.md`: `name: demo`
- `.agents/skills/other/SKILL.md`: `/demo` at a line start, `` `/demo merge` ``, a link `../demo/SKILL.md`
- `AGENTS.md`: `` `/demo` ``, a link `.agents/skills/demo/SKILL.md`
- `notes.chat.md`: `/demo go`, `/skill:demo x`
- `.claude/agents/helper.md`: `demo` in a flow `skills:` list and in a block one
- `.claude/skills/demo`: a link mirroring the folder for Claude Code
- the user root `~/.agents/skills/mine/SKILL.md`: `/demo` at a line start (listed, left as it is)

Traps (never changed): `demo-extra` everywhere, the English word "demo", `/demo` inside a sentence and in
fenced code, `/demo/x` paths, `/demos`.
"""

from __future__ import annotations

import os
from pathlib import Path

OTHER_BODY = """# Other

Run a demo of the change first: the demo shows it.
/demo prepare the data
Then call `/demo merge`, or `/demo-extra` and `/demos`; see and/or /demo inside a sentence.
See [the demo skill](../demo/SKILL.md) and [extra](../demo-extra/SKILL.md), or /demo/x.

```
/demo in a fence
```
"""

AGENTS_MD = """# Agents

Use `/demo` to show a demo. The demo-extra skill is [here](.agents/skills/demo-extra/SKILL.md);
the demo one [there](.agents/skills/demo/SKILL.md).
"""

CHAT = "/demo go\n/demo-extra go\n/skill:demo x\nplease demo it\n"

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
    (".agents/skills/other/SKILL.md", 9, "link"),
    (".claude/agents/block-helper.md", 5, "skills-list"),
    (".claude/agents/helper.md", 3, "skills-list"),
    ("AGENTS.md", 2, "code"),
    ("AGENTS.md", 3, "link"),
    ("notes.chat.md", 0, "command"),
    ("notes.chat.md", 2, "command"),
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
        ".agents/skills/other/SKILL.md": [("/demo prepare", "/showcase prepare"), ("`/demo merge`", "`/showcase merge`"),
                                          ("(../demo/", "(../showcase/")],
        "AGENTS.md": [("`/demo`", "`/showcase`"), ("skills/demo/SKILL", "skills/showcase/SKILL")],
        "notes.chat.md": [("/demo go", "/showcase go"), ("/skill:demo x", "/skill:showcase x")],
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
