"""`albedo-skills check` reports `command-unknown` where a person reads it: a mistyped command in a skill's
body, in `AGENTS.md`, `CLAUDE.md` and `GEMINI.md` at any depth, and in a chat file; nothing on paths, code,
known commands or silenced lines; and not for files checked alone."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import run_cli, valid, write_skill

OTHER_BODY = """# Other

Before anything else, run /demoo first. Then /dmeo, /skill:deme and /hlep.
Write to /tmp, /usr/local/bin or /etc; see and/or, https://example.com/demoo, [x](/demoo), `/demoo`.

```
/demoo in a fence
```
<!-- albedo-skills-ignore command-unknown: this line shows the typo on purpose -->
Type /demoo to see what happens.
"""


def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    skills = ws / ".agents" / "skills"
    write_skill(skills, "demo", valid("demo"))
    write_skill(skills, "other", valid("other", "Runs after /demoo."), OTHER_BODY)  # the frontmatter is data
    (ws / "AGENTS.md").write_text("Use the skills: /demoo merges files.\n", encoding="utf-8")
    (ws / "docs").mkdir()
    (ws / "docs" / "CLAUDE.md").write_text("Run (/demo) and /demos.\n", encoding="utf-8")
    (ws / "GEMINI.md").write_text("Nothing to see: /demo, /skill:demo.\n", encoding="utf-8")
    (ws / "notes.chat.md").write_text("/demoo go\nthen /dmeo again\n", encoding="utf-8")
    (ws / "README.md").write_text("/demoo in a file no agent reads\n", encoding="utf-8")
    return ws


def test_check_names_each_mistyped_command_and_nothing_else(tmp_path):
    ws = workspace(tmp_path)
    done = run_cli("check", ws, "--no-user-roots", "--disable", "security", cwd=ws, home=tmp_path / "home")
    lines = [line for line in done.stdout.decode().splitlines() if "command-unknown" in line]
    assert lines == [
        ".agents/skills/other/SKILL.md:7:27: warning command-unknown `/demoo` is no command here; did you mean `/demo`?",
        ".agents/skills/other/SKILL.md:7:46: warning command-unknown `/dmeo` is no command here; did you mean `/demo`?",
        ".agents/skills/other/SKILL.md:7:53: warning command-unknown `/skill:deme` is no command here; did you mean "
        "`/skill:demo`?",
        ".agents/skills/other/SKILL.md:7:69: warning command-unknown `/hlep` is no command here; did you mean `/help`?",
        "AGENTS.md:1:17: warning command-unknown `/demoo` is no command here; did you mean `/demo`?",
        "docs/CLAUDE.md:1:17: warning command-unknown `/demos` is no command here; did you mean `/demo`?",
        "notes.chat.md:1:1: warning command-unknown `/demoo` is no command here; did you mean `/demo`?",
        "notes.chat.md:2:6: warning command-unknown `/dmeo` is no command here; did you mean `/demo`?",
    ]
    assert done.returncode == 0  # warnings: the run passes


def test_the_json_report_carries_each_finding(tmp_path):
    ws = workspace(tmp_path)
    done = run_cli("check", ws, "--no-user-roots", "--disable", "security", "--format", "json", cwd=ws, home=tmp_path / "home")
    report = json.loads(done.stdout)
    unknown = [d for d in report["diagnostics"] if d["code"] == "command-unknown"]
    assert len(unknown) == 8 and {d["severity"] for d in unknown} == {"warning"}
    assert next(d for d in unknown if d["path"].endswith("AGENTS.md"))["range"]["start"] == {"line": 0, "character": 16}


def test_files_checked_alone_are_not_compared_with_a_catalog_they_lack(tmp_path):
    ws = workspace(tmp_path)
    done = run_cli("check", ws / ".agents/skills/other/SKILL.md", "--disable", "security", cwd=ws, home=tmp_path / "home")
    assert b"command-unknown" not in done.stdout
