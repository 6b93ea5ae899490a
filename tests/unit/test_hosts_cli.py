"""`albedo-skills hosts` and `check --hosts`, run as the real command on trees built in tmp."""

from __future__ import annotations

import json
import os
from pathlib import Path

from albedo_skills_ls.skills import hosts
from albedo_skills_ls.skills.hosts.diagnostics import host_diagnostics

from cli_helpers import run_cli, write_skill

BROKEN = "name: a-bad\ndescription: Use this: when YAML is malformed\n"


def project_tree(tmp_path: Path) -> tuple[Path, Path]:
    project, home = tmp_path / "project", tmp_path / "home"
    write_skill(project / ".agents/skills", "a-valid", "name: a-valid\ndescription: A valid skill.\n")
    write_skill(project / ".agents/skills", "a-bad", BROKEN)
    write_skill(project / ".claude/skills", "c-only", "name: c-only\ndescription: Only for Claude.\n")
    home.mkdir()
    return project, home


def test_json_is_exactly_the_issue_shape(tmp_path):
    project, home = project_tree(tmp_path)
    done = run_cli("hosts", project, "--home", home, "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert list(data) == ["truncated", "hosts"] and list(data["hosts"]) == list(hosts.HOST_IDS)
    assert data["truncated"] is None
    paths = {
        str(project / ".agents/skills/a-bad/SKILL.md"),
        str(project / ".agents/skills/a-valid/SKILL.md"),
        str(project / ".claude/skills/c-only/SKILL.md"),
    }
    for host, entry in data["hosts"].items():
        assert set(entry) == {"version", "evidence", "skills"} and isinstance(entry["version"], str)
        assert set(entry["skills"]) == paths, host
        for verdict in entry["skills"].values():
            assert set(verdict) == {"loads", "name", "description_seen", "reason"}
            assert isinstance(verdict["loads"], bool)
    bad = str(project / ".agents/skills/a-bad/SKILL.md")
    assert data["hosts"]["codex"]["skills"][bad]["loads"] is True
    assert data["hosts"]["copilot-cli"]["skills"][bad]["loads"] is False
    assert "line 2 column 22" in data["hosts"]["copilot-cli"]["skills"][bad]["reason"]
    only = data["hosts"]["claude-code"]["skills"][str(project / ".agents/skills/a-valid/SKILL.md")]
    assert only["loads"] is False and "does not read" in only["reason"]
    assert data["hosts"]["zed"]["evidence"].startswith("from Zed's source") and "not run" in data["hosts"]["zed"]["evidence"]


def test_host_option_chooses_agents_repeated_or_comma_separated(tmp_path):
    project, home = project_tree(tmp_path)
    done = run_cli("hosts", project, "--home", home, "--format", "json", "--host", "zed,codex", "--host", "codex")
    assert list(json.loads(done.stdout)["hosts"]) == ["zed", "codex"]
    wrong = run_cli("hosts", project, "--home", home, "--host", "cursor")
    assert wrong.returncode == 2 and b"unknown host 'cursor'" in wrong.stderr and b"claude-code" in wrong.stderr


def test_text_table_marks_and_reasons(tmp_path):
    project, home = project_tree(tmp_path)
    done = run_cli("hosts", project, "--home", home, "--host", "codex", "--host", "copilot-cli", "--host", "claude-code")
    text = done.stdout.decode()
    lines = text.splitlines()
    assert lines[0] == "Agents:  cx Codex CLI 0.171.0  cp Copilot CLI 1.0.102  cc Claude Code 2.1.332"
    head = next(line for line in lines if line.startswith("SKILL.md"))
    assert head.split() == ["SKILL.md", "cx", "cp", "cc"]
    row = next(line for line in lines if line.startswith(".agents/skills/a-bad/SKILL.md"))  # relative to the workspace
    assert row.split()[1:] == ["✓", "✗", "·"]
    assert "  ✗ cp: failed to parse YAML frontmatter: mapping values are not allowed in this context at line 2" in text
    assert str(project) not in text  # no absolute path, in the table or the reasons
    assert "Evidence:" in text and "cx run here with Codex CLI 0.171.0" in text
    # the budget in Codex's estimated tokens (a line's bytes and its line break, 4 to a token, rounded up): the
    # 4 system skills (432) and the lines of a-valid (54 bytes: 14) and a-bad (68 bytes: 17)
    assert "cx: 463 of 10,000 tokens (5%" in text


def _twenty_skills(tmp_path: Path) -> tuple[Path, Path]:
    project, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    for index in range(20):
        root = project / (".agents/skills" if index % 3 else ".claude/skills")
        folder = f"skill-number-{index:02d}-with-a-longer-name"
        name = folder if index % 4 else f"other-{index}"
        description = "Does a thing: carefully" if index % 5 == 0 else f"Does thing {index} and reports."
        write_skill(root, folder, f"name: {name}\ndescription: {description}\n")
    # one name in two roots, and a file no agent can be judged on
    write_skill(tmp_path / "home/.agents/skills", "skill-number-01-with-a-longer-name",
                "name: skill-number-01-with-a-longer-name\ndescription: The user's copy.\n")
    return project, home


def test_twenty_skills_fit_in_the_width_and_no_sentence_repeats_within_a_skill(tmp_path):
    project, home = _twenty_skills(tmp_path)
    for columns, expected in (("72", 72), ("100", 100), (None, 100)):  # the last, with COLUMNS unset, is read on
        env = dict(os.environ, COLUMNS=columns or "")
        text = run_cli("hosts", project, "--home", home, env=env).stdout.decode()
        lines = text.splitlines()
        assert max(len(line) for line in lines) <= expected, max(lines, key=len)
        agents = len(hosts.HOST_IDS)
        rows = [line for line in lines if len(line.split()) == agents + 1 and set(line.split()[1:]) <= set("✓!✗·?")]
        assert len(rows) == 21, lines  # every file, one row each, every agent's mark on it
    blocks = text.split("\n\n")
    for block in blocks:
        reasons: list[str] = []
        for line in block.splitlines():
            if line.startswith("    ") and reasons:  # a wrapped line continues the reason above it
                reasons[-1] += " " + line.strip()
            elif line.startswith("  ") and line[2:3] in "✓!✗·?":
                reasons.append(line)
        clauses = [clause for line in reasons for clause in line.split(": ", 1)[1].split("; ")]
        assert len(clauses) == len(set(clauses)), block
    assert "the name `` differs" not in text and '".;' not in text and ".;" not in text
    renamed = next(block for block in blocks if block.startswith(".agents/skills/skill-number-04-with-a-longer-name"))
    assert "named `other-4` by cx, gm, oc, cp" in renamed and "(the folder is `skill-number-04" in renamed


def test_a_reason_every_agent_gives_is_said_once_as_all(tmp_path):
    project, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    latin = project / ".agents/skills/latin/SKILL.md"
    latin.parent.mkdir(parents=True)
    latin.write_bytes(b"---\nname: latin\ndescription: Caf\xe9.\n---\n")
    text = run_cli("hosts", project, "--home", home, "--host", "codex,gemini-cli,copilot-cli").stdout.decode()
    said = [line for line in text.splitlines() if "not judged" in line]
    assert said == ["  ? all: not judged: albedo-skills did not read the file (it is not UTF-8 (byte 32)); fix that "
                    "and"], said  # wrapped at 100 columns; said once for the three agents


def test_why_prints_one_skills_story_for_every_agent(tmp_path):
    project, home = project_tree(tmp_path)
    done = run_cli("hosts", project, "--home", home, "--why", "a-bad", "--host", "codex,copilot-cli,claude-code")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[0] == ".agents/skills/a-bad/SKILL.md"
    assert "✓ Codex CLI 0.171.0: loads as `a-bad`" in lines
    assert '    the model reads: "Use this: when YAML is malformed"' in lines
    assert "✗ Copilot CLI 1.0.102: skipped" in lines and "· Claude Code 2.1.332: not seen" in lines
    assert sum(line.startswith("    known: ") for line in lines) == 3
    missing = run_cli("hosts", project, "--home", home, "--why", "nothing-like-it")
    assert missing.returncode == 2 and b"no skill named 'nothing-like-it'" in missing.stderr


def test_one_skill_file(tmp_path):
    project, home = project_tree(tmp_path)
    (project / ".git").mkdir()
    path = project / ".agents/skills/a-valid/SKILL.md"
    done = run_cli("hosts", path, "--home", home, "--format", "json", "--host", "gemini-cli")
    assert json.loads(done.stdout)["hosts"]["gemini-cli"]["skills"] == {
        str(path): {"loads": True, "name": "a-valid", "description_seen": "A valid skill.", "reason": None}
    }
    outside = write_skill(tmp_path / "loose", "x", "name: x\ndescription: Loose.\n")
    refused = run_cli("hosts", outside, "--home", home)
    assert refused.returncode == 2 and b"not under any agent's skills folder" in refused.stderr


def test_check_hosts_adds_refusals_in_every_format_without_changing_albedos(tmp_path):
    project, home = project_tree(tmp_path)
    plain = run_cli("check", project, "--home", home, "--format", "json")
    chosen = run_cli("check", project, "--home", home, "--format", "json", "--hosts", "copilot-cli,claude-code")
    assert plain.returncode == chosen.returncode == 1  # a-bad is an error of Albedo's own, either way
    before = json.loads(plain.stdout)["diagnostics"]
    after = json.loads(chosen.stdout)["diagnostics"]
    assert [d for d in after if not d["code"].startswith("host-")] == before
    bad = str(project / ".agents/skills/a-bad/SKILL.md")
    extra = {(d["path"], d["code"]) for d in after if d["code"].startswith("host-")}
    assert (bad, "host-skipped") in extra
    assert (str(project / ".agents/skills/a-valid/SKILL.md"), "host-not-seen") in extra
    sarif = json.loads(run_cli("check", project, "--home", home, "--format", "sarif", "--hosts", "copilot-cli").stdout)
    rules = {rule["id"] for rule in sarif["runs"][0]["tool"]["driver"]["rules"]}
    results = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "host-skipped"]
    assert "host-skipped" in rules and "line 2 column 22" in results[0]["message"]["text"]
    github = run_cli("check", project, "--home", home, "--format", "github", "--hosts", "copilot-cli").stdout.decode()
    assert "::warning" in github and "host-skipped" in github


def test_check_hosts_on_one_file(tmp_path):
    project, home = project_tree(tmp_path)
    (project / ".git").mkdir()
    path = project / ".claude/skills/c-only/SKILL.md"
    done = run_cli("check", path, "--home", home, "--format", "json", "--hosts", "codex")
    found = [d for d in json.loads(done.stdout)["diagnostics"] if d["code"].startswith("host-")]
    assert [(d["path"], d["code"]) for d in found] == [(str(path), "host-not-seen")]
    assert "Codex CLI 0.171.0" in found[0]["message"] and "(run here)" in found[0]["message"]


def test_diagnostics_of_each_kind_in_process(tmp_path):
    """The three codes, made by the engine in this process (the codes test counts what it sees built)."""
    project, home = tmp_path / "project", tmp_path / "home"
    home.mkdir()
    for index in range(45):  # 45 descriptions of 1,000 characters: past Codex's 10,000 tokens
        write_skill(project / ".agents/skills", f"s{index}", f"name: s{index}\ndescription: {'d' * 1000}\n")
    write_skill(project / ".agents/skills", "a-bad", BROKEN)
    write_skill(project / ".claude/skills", "c-only", "name: c-only\ndescription: Only for Claude.\n")
    found = host_diagnostics(hosts.report(str(project), str(home), ("albedo", "codex", "copilot-cli")))
    codes = {d.code for items in found.values() for d in items}
    assert codes == {"host-budget", "host-skipped", "host-not-seen"}
    assert all("Albedo" not in d.message for items in found.values() for d in items)  # albedo gives none
    budget = next(d for d in found[str(project / ".agents/skills/s0/SKILL.md")] if d.code == "host-budget")
    assert "Codex CLI 0.171.0: description cut to" in budget.message and budget.severity == "information"


def test_check_hosts_on_several_files(tmp_path):
    project, home = project_tree(tmp_path)
    (project / ".git").mkdir()
    bad, only = project / ".agents/skills/a-bad/SKILL.md", project / ".claude/skills/c-only/SKILL.md"
    done = run_cli("check", bad, only, "--home", home, "--format", "json", "--hosts", "copilot-cli,codex")
    found = sorted((d["path"], d["code"]) for d in json.loads(done.stdout)["diagnostics"] if d["code"].startswith("host-"))
    assert found == [(str(bad), "host-skipped"), (str(only), "host-not-seen")]


def test_one_skill_file_that_is_a_fifo_is_named_as_such_not_as_outside_every_root(tmp_path):
    """A FIFO named SKILL.md inside a root is not read by the walk (reading it would block); the error must
    say that, not claim the file lies outside every agent's skills folder."""
    import os

    project, home = project_tree(tmp_path)
    (project / ".git").mkdir()
    (project / ".agents/skills/a-fifo").mkdir()
    fifo = project / ".agents/skills/a-fifo/SKILL.md"
    os.mkfifo(fifo)
    refused = run_cli("hosts", fifo, "--home", home)
    assert refused.returncode == 2, refused.stderr
    assert b"not under any agent's skills folder" not in refused.stderr
    assert str(fifo).encode() in refused.stderr and b"not a regular file" in refused.stderr
    assert b"replace it with a regular file" in refused.stderr


def test_deeply_nested_frontmatter_is_a_yaml_problem_not_a_crash(tmp_path):
    """30,000 nested `[` fit in the 64 KB frontmatter bound; the C YAML parser overflowed the stack on them
    and `hosts` died with SIGSEGV (the server runs the same code)."""
    project, home = project_tree(tmp_path)
    (project / ".git").mkdir()
    deep = write_skill(
        project / ".agents/skills", "a-deep", "name: a-deep\ndescription: Deep.\nx: " + "[" * 30_000 + "]" * 30_000 + "\n"
    )
    done = run_cli("hosts", deep, "--home", home, "--format", "json", "--host", "copilot-cli,gemini-cli")
    assert done.returncode == 0, done.stderr
    skills = json.loads(done.stdout)["hosts"]
    assert "nested deeper than 1,000 levels" in skills["copilot-cli"]["skills"][str(deep)]["reason"]
    assert skills["gemini-cli"]["skills"][str(deep)]["name"] == "a-deep"  # its line reading still finds it


def test_a_file_albedo_skills_did_not_read_is_not_judged_for_any_agent(tmp_path):
    """Past the read bound, or not UTF-8: no agent was run on such a file, so no verdict claims it refuses it."""
    from albedo_skills_ls.skills.core.limits import MAX_SKILL_FILE_BYTES

    project, home = tmp_path / "project", tmp_path / "home"
    home.mkdir()
    head = "---\nname: {0}\ndescription: Padded to a size.\n---\n"
    for folder, size in (("at-bound", MAX_SKILL_FILE_BYTES), ("past-bound", MAX_SKILL_FILE_BYTES + 1)):
        text = head.format(folder)
        path = project / ".agents/skills" / folder / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(text + "x" * (size - len(text)), encoding="ascii")
        assert path.stat().st_size == size
    latin = project / ".agents/skills/latin/SKILL.md"
    latin.parent.mkdir(parents=True)
    latin.write_bytes(b"---\nname: latin\ndescription: Caf\xe9.\n---\n")
    done = run_cli("hosts", project, "--home", home, "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)["hosts"]
    at = str(project / ".agents/skills/at-bound/SKILL.md")
    assert data["codex"]["skills"][at]["loads"] is True and data["codex"]["skills"][at]["name"] == "at-bound"
    for unread, why in ((project / ".agents/skills/past-bound/SKILL.md", "1,048,576"), (latin, "not UTF-8")):
        judged = []
        for host, entry in data.items():
            verdict = entry["skills"][str(unread)]
            # Albedo's own verdict is discovery's, which says what it refuses and why; an agent that does not
            # read .agents/skills says so first (not seen), whatever the file holds.
            if host == "albedo" or " does not read " in verdict["reason"]:
                assert verdict["loads"] is False, host
                continue
            assert verdict["loads"] is None, host  # not known: never `false` for a file not judged
            assert verdict["reason"].startswith("not judged: albedo-skills did not read the file ("), (host, verdict)
            assert why in verdict["reason"], (host, verdict)
            judged.append(host)
        assert {"codex", "gemini-cli", "opencode", "copilot-cli", "zed"} <= set(judged), judged


def test_the_json_schema_is_in_the_help():
    shown = " ".join(run_cli("hosts", "--help").stdout.decode().split())
    for part in ('"truncated": null or {"limit", "value", "first_not_walked", "more"}', '"loads": true, false or null',
                 '"description_seen"', "--why SKILL", "$COLUMNS"):
        assert part in shown, part


def test_a_reason_in_the_json_has_no_stray_punctuation(tmp_path):
    """Gemini CLI's conflict sentence ends with a full stop; what follows it is joined without `.;`."""
    project, home = tmp_path / "project", tmp_path / "home"
    write_skill(project / ".agents/skills", "twin", "name: twin\ndescription: Mine.\n")
    write_skill(home / ".agents/skills", "twin", "name: twin\ndescription: Theirs.\n")
    data = json.loads(run_cli("hosts", project, "--home", home, "--format", "json", "--host", "gemini-cli").stdout)
    reason = data["hosts"]["gemini-cli"]["skills"][str(home / ".agents/skills/twin/SKILL.md")]["reason"]
    assert reason.startswith('Skill conflict detected: "twin"') and '"; rename one of them' in reason
    assert ".;" not in reason
