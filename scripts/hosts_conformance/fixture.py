"""The conformance fixture: a project, a home and an outside folder holding every case the agents disagree on.

Built for real in a temporary folder by `build(base)`; nothing of it is committed except this code. Every
skill's description is unique, so an agent that reports names only (Claude Code) can still be mapped back to
the file it read. Paths are written relative to the fixture's base (`project/...`, `home/...`), so recorded
observations from one run compare with a tree built anew in another folder.

Depth counts the folders between a root and the file: `root/x/SKILL.md` is depth 1.
"""

from __future__ import annotations

import os
import subprocess
from typing import NamedTuple

PROJECT = "project"
HOME = "home"
ELSEWHERE = "elsewhere"  # link targets, outside every root

LONG_DESCRIPTION_CHARS = 1100  # over the 1,024 that Copilot CLI refuses and Codex cuts at


class Case(NamedTuple):
    """One file of the fixture. `path` is where it is seen through its root (a linked folder keeps its link
    path); `text` is its content, or None for a file that is a link; `link` the relative target of a link
    (the folder or the file itself, per `links_folder`)."""

    path: str
    text: str | None
    description: str | None  # the description as the frontmatter gives it, for mapping names back
    why: str  # the case it stands for, printed beside a disagreement
    link: str | None = None
    links_folder: bool = False


def _doc(name: str | None, description: str | None, body: str = "# Instructions\n\nDo the thing, then report.\n",
         extra: str = "") -> str:
    lines = ["---"]
    if name is not None:
        lines.append(f"name: {name}")
    if description is not None:
        lines.append(f"description: {description}")
    if extra:
        lines.append(extra)
    lines.append("---")
    return "\n".join(lines) + "\n\n" + body


def _valid(path: str, name: str, why: str, description: str | None = None) -> Case:
    description = description or f"Probe skill {name}, used to see whether this root is read."
    return Case(path, _doc(name, description), description, why)


def _variants(root: str, p: str) -> list[Case]:
    """The one-difference variants of a valid skill, written in `root` with name prefix `p`."""
    where = f"{root} ({p})"
    long_desc = (f"A long description ({p}) that goes on. " * 60)[:LONG_DESCRIPTION_CHARS]
    bad_desc = f"Use this: when YAML is malformed ({p} root)."
    return [
        _valid(f"{root}/{p}-valid/SKILL.md", f"{p}-valid", f"control case in {where}",
               f"A valid skill used as the control case ({p} root)."),
        Case(f"{root}/{p}-mismatch/SKILL.md", _doc(f"{p}-other-name", f"Name differs from its folder ({p} root)."),
             f"Name differs from its folder ({p} root).", "name differs from the folder"),
        Case(f"{root}/{p}-noname/SKILL.md", _doc(None, f"This skill has no name field ({p} root)."),
             f"This skill has no name field ({p} root).", "no name"),
        Case(f"{root}/{p}-Upper-Case/SKILL.md", _doc(f"{p}-Upper-Case", f"Upper-case letters in the name ({p} root)."),
             f"Upper-case letters in the name ({p} root).", "upper-case name, folder the same"),
        Case(f"{root}/{p}-nodesc/SKILL.md", _doc(f"{p}-nodesc", None), None, "no description"),
        Case(f"{root}/{p}-longdesc/SKILL.md", _doc(f"{p}-longdesc", long_desc), long_desc,
             f"description of {LONG_DESCRIPTION_CHARS} characters"),
        Case(f"{root}/{p}-badyaml/SKILL.md", _doc(f"{p}-badyaml", bad_desc), bad_desc,
             "broken YAML: an unquoted `: ` in the description"),
        Case(f"{root}/{p}-nofm/SKILL.md", f"# {p}-nofm\n\nNo frontmatter at all.\n", None, "no frontmatter"),
        Case(f"{root}/{p}-bom/SKILL.md", "\ufeff" + _doc(f"{p}-bom", f"A byte-order mark before the frontmatter ({p} root)."),
             f"A byte-order mark before the frontmatter ({p} root).", "UTF-8 byte-order mark before `---`"),
        Case(f"{root}/{p}-lowerfile/skill.md", _doc(f"{p}-lowerfile", f"The file is named in lower case ({p} root)."),
             f"The file is named in lower case ({p} root).", "lower-case `skill.md`"),
        _valid(f"{root}/{p}-group/{p}-nested/SKILL.md", f"{p}-nested", "depth 2",
               f"A skill one folder deeper than usual ({p} root)."),
        _valid(f"{root}/{p}-symlink/SKILL.md", f"{p}-symlink", "the skill folder is a symbolic link",
               f"Reached through a linked folder ({p} root).")._replace(link=f"{ELSEWHERE}/{p}-symlink", links_folder=True),
        _valid(f"{root}/{p}-filelink/SKILL.md", f"{p}-filelink", "SKILL.md itself is a symbolic link to a file",
               f"The SKILL.md file is a link ({p} root).")._replace(link=f"{ELSEWHERE}/{p}-filelink.md"),
        _valid(f"{root}/{p}-outer/SKILL.md", f"{p}-outer", "a skill holding another skill",
               f"An outer skill that holds another one ({p} root)."),
        _valid(f"{root}/{p}-outer/{p}-inner/SKILL.md", f"{p}-inner", "a skill inside another skill's folder",
               f"An inner skill inside another skill ({p} root)."),
        _valid(f"{root}/{p}-dup/SKILL.md", f"{p}-dup", "one name in a project and a user root (project copy)",
               f"Duplicate name, the project copy ({p} root)."),
    ]


def _deep(root: str, p: str, depth: int) -> Case:
    folders = [f"{p}-d{depth}"] + [f"l{level}" for level in range(2, depth)] + [f"{p}-deep{depth}"]
    return _valid(f"{root}/{'/'.join(folders)}/SKILL.md", f"{p}-deep{depth}", f"depth {depth}",
                  f"A skill {depth} folders below its root ({p} root).")


def _probe(root: str, name: str) -> Case:
    """One valid skill in a root, to see whether the agent reads that root at all."""
    where = "project" if root.startswith(PROJECT + "/") else "user"
    return _valid(f"{root}/{name}/SKILL.md", name, f"{where} {root.split('/', 1)[1]}")


def _root_file(root: str, name: str) -> list[Case]:
    """A SKILL.md directly in a root, beside a sibling skill."""
    return [
        _valid(f"{root}/SKILL.md", name, "SKILL.md directly in the root", f"A SKILL.md directly in its root ({name})."),
        _valid(f"{root}/{name}-sibling/SKILL.md", f"{name}-sibling", "a sibling of a SKILL.md in the root",
               f"The sibling of a root SKILL.md ({name})."),
    ]


def cases() -> list[Case]:
    """Every file of the fixture. Variants go in the roots most agents read (`.agents/skills`,
    `.claude/skills`); a SKILL.md directly in a root goes in roots one agent alone reads, so that Copilot
    CLI's sibling-hiding does not blank the other cases."""
    pa, pc, pg = f"{PROJECT}/.agents/skills", f"{PROJECT}/.claude/skills", f"{PROJECT}/.gemini/skills"
    ha, hc, hg = f"{HOME}/.agents/skills", f"{HOME}/.claude/skills", f"{HOME}/.gemini/skills"
    found = _variants(pa, "a") + _variants(pc, "c")
    found += [_deep(pa, "a", depth) for depth in (6, 7)] + [_deep(pc, "c", 7)]
    found += [
        _valid(f"{pa}/a-twin-1/SKILL.md", "a-twin", "one name twice in one root (first folder)",
               "Twin name, the first folder."),
        _valid(f"{pa}/a-twin-2/SKILL.md", "a-twin", "one name twice in one root (second folder)",
               "Twin name, the second folder."),
        _valid(f"{pa}/xroot/SKILL.md", "xroot", "one name in project .agents and .claude (.agents copy)",
               "Cross-root duplicate, the .agents copy."),
        _valid(f"{pc}/xroot/SKILL.md", "xroot", "one name in project .agents and .claude (.claude copy)",
               "Cross-root duplicate, the .claude copy."),
        _valid(f"{pa}/.hidden/a-hidden/SKILL.md", "a-hidden", "a skill in a folder whose name starts with a dot",
               "A skill below a hidden folder."),
        _valid(f"{pa}/a-plugin/skills/a-plugged/SKILL.md", "a-plugged", "a skill inside a Codex plugin folder",
               "A skill inside a Codex plugin folder."),
        _valid(f"{pc}/c-plugin/skills/c-plugged/SKILL.md", "c-plugged",
               "a skill inside a Claude Code skills-directory plugin", "A skill inside a Claude plugin folder."),
        _valid(f"{pa}/ag-both/SKILL.md", "ag-both", "one name in project .agents and .gemini (.agents copy)",
               "Cross-root duplicate, the .agents copy (gemini pair)."),
        _valid(f"{pg}/ag-both/SKILL.md", "ag-both", "one name in project .agents and .gemini (.gemini copy)",
               "Cross-root duplicate, the .gemini copy (gemini pair)."),
        _valid(f"{pg}/g-dup/SKILL.md", "g-dup", "one name in project and user .gemini (project copy)",
               "Duplicate name, the project copy (g root)."),
        _valid(f"{ha}/a-dup/SKILL.md", "a-dup", "one name in a project and a user root (user copy)",
               "Duplicate name, the user copy (a root)."),
        _valid(f"{hc}/c-dup/SKILL.md", "c-dup", "one name in a project and a user root (user copy)",
               "Duplicate name, the user copy (c root)."),
        _valid(f"{hg}/g-dup/SKILL.md", "g-dup", "one name in project and user .gemini (user copy)",
               "Duplicate name, the user copy (g root)."),
    ]
    probes = (
        (pg, "g-valid"),
        (f"{PROJECT}/.codex/skills", "x-probe"),
        (f"{PROJECT}/.opencode/skills", "o-probe"),
        (f"{PROJECT}/.opencode/skill", "o1-probe"),
        (f"{PROJECT}/.albedo/skills", "al-probe"),
        (ha, "u-probe"),
        (hc, "uc-probe"),
        (hg, "ug-probe"),
        (f"{HOME}/.codex/skills", "ux-probe"),
        (f"{HOME}/.config/opencode/skills", "uo-probe"),
        (f"{HOME}/.config/opencode/skill", "uo1-probe"),
        (f"{HOME}/.copilot/skills", "ucp-probe"),
        (f"{HOME}/.albedo/skills", "ual-probe"),
    )
    found += [_probe(root, name) for root, name in probes]
    found += _root_file(f"{PROJECT}/.codex/skills", "root-codex")
    found += _root_file(f"{pg}", "root-gemini")
    found += _root_file(f"{PROJECT}/.github/skills", "root-github")
    found += _root_file(f"{PROJECT}/.opencode/skills", "root-opencode")
    found += _root_file(hc, "root-claude-home")
    return found


# Files that are not skills but change how an agent reads the folder they are in: a Codex plugin and a
# Claude Code skills-directory plugin, each a folder under a root holding its manifest and a `skills/` folder.
PLUGIN_FILES = {
    f"{PROJECT}/.agents/skills/a-plugin/.codex-plugin/plugin.json": '{"name": "a-plug", "version": "0.0.1"}\n',
    f"{PROJECT}/.claude/skills/c-plugin/.claude-plugin/plugin.json": '{"name": "c-plug", "version": "0.0.1"}\n',
}


def build(base: str) -> str:
    """Write the fixture under `base` (an empty folder) and return `base/project`, a git repository with one
    commit (Codex looks for `.agents/skills` from the working folder up to the repository's root)."""
    for case in cases():
        seen = os.path.join(base, case.path)
        if case.link is None:
            _write(seen, case.text)
            continue
        target = os.path.join(base, case.link)
        if case.links_folder:
            _write(os.path.join(target, "SKILL.md"), case.text)
            link, points_at = os.path.dirname(seen), target
        else:
            _write(target, case.text)
            link, points_at = seen, target
        os.makedirs(os.path.dirname(link), exist_ok=True)
        # Relative, so a copy of the whole tree (one per agent, for it writes into HOME) still resolves.
        os.symlink(os.path.relpath(points_at, os.path.dirname(link)), link)
    for path, text in PLUGIN_FILES.items():
        _write(os.path.join(base, path), text)
    project = os.path.join(base, PROJECT)
    git = ["git", "-c", "user.name=fixture", "-c", "user.email=fixture@example.invalid", "-c", "init.defaultBranch=main"]
    subprocess.run(git + ["init", "-q", project], check=True)
    subprocess.run(git + ["-C", project, "add", "-A"], check=True)
    subprocess.run(git + ["-C", project, "commit", "-q", "-m", "fixture"], check=True)
    return project


def _write(path: str, text: str | None) -> None:
    assert text is not None
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(text)
