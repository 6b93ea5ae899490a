"""Every mention of one skill in the files people keep beside their skills (what References and Rename use).

Which files are read (the text forms that count are `mention_scan.py`'s):

- every `SKILL.md` of Albedo's roots and of the other agents' roots (`hosts/`), one level below each root;
  a file reached twice through a link (a mirror) is read once;
- in the workspace, found by one bounded walk (`MAX_MENTION_WALK_ENTRIES` entries, `MAX_MENTION_WALK_DEPTH`
  levels; `.git`, `node_modules` and virtualenvs skipped; linked folders not followed): agent instruction
  files (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`), chat files (`*.chat.md` by default), and agent definitions
  (`*.md` directly in `.claude/agents`, `.github/agents`, `.opencode/agent(s)`), whose `skills:` list counts;
- in the home folder: `~/.claude/CLAUDE.md`, `~/.codex/AGENTS.md`, `~/.gemini/GEMINI.md` and
  `~/.claude/agents/*.md`;
- open editor buffers, whose text replaces the disk's (`texts`), and extra files the caller names (a chat
  buffer with a chat language id).

Mirrors: a link in any agent's root (workspace or home) that resolves to the skill's folder is a mention of
kind `mirror` (the link itself). Each mention says whether it lies inside one of the workspace folders:
files elsewhere (the user roots, the home folder) are listed but a rename does not edit them (`rename.py`).
"""

from __future__ import annotations

import fnmatch
import os
from typing import Any, Iterable, Mapping, NamedTuple

from ..core import limits
from ..document.frontmatter import decode, lines_of
from .mention_scan import MentionKind, scan_text
from ..core.model import FILE_START, Catalog, Range
from ..core.paths import is_within
from ..document.skill_file import SKILL_FILE, read_skill_bytes
AGENT_INSTRUCTION_FILES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")
AGENT_DEFINITION_FOLDERS = (".claude/agents", ".github/agents", ".opencode/agent", ".opencode/agents")
HOME_AGENT_FILES = (".claude/CLAUDE.md", ".codex/AGENTS.md", ".gemini/GEMINI.md")
HOME_AGENT_DEFINITION_FOLDERS = (".claude/agents",)
DEFAULT_CHAT_PATTERNS = ("*.chat.md",)
_SKIPPED_FOLDERS = frozenset((".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"))


class MentionedSkill(NamedTuple):
    """The skill mentions are looked for: its name, its `SKILL.md`, and whether it is the catalog's winner
    of that name (only the winner is what `/name` runs: a hidden copy has no mentions but its own name)."""

    name: str
    path: str
    winner: bool

    @property
    def folder(self) -> str:
        return os.path.dirname(self.path)


class Mention(NamedTuple):
    path: str  # the file holding it; for a mirror, the link
    range: Range  # the characters of the name (FILE_START for a mirror)
    kind: MentionKind
    line: str  # the line holding it, for listings ("" for a mirror)
    in_workspace: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "range": self.range.to_json(),
            "kind": self.kind,
            "line": self.line,
            "in_workspace": self.in_workspace,
        }


class Mentions(NamedTuple):
    target: MentionedSkill
    mentions: tuple[Mention, ...]
    truncated: str | None  # why the workspace walk stopped early, or None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.target.name,
            "path": self.target.path,
            "mentions": [mention.to_json() for mention in self.mentions],
            "truncated": self.truncated,
        }


def target_of(catalog: Catalog, name: str) -> MentionedSkill | None:
    """The catalog's winner of `name`, or None."""
    skill = catalog.skill(name)
    return MentionedSkill(skill.name, skill.path, True) if skill is not None else None


def target_at(catalog: Catalog, path: str, name: str) -> MentionedSkill:
    """The skill whose `SKILL.md` is `path` and whose name is `name` (the winner, or a hidden copy)."""
    skill = catalog.skill(name)
    return MentionedSkill(name, path, skill is not None and skill.path == path)


def agent_roots(workspace: str | None, home: str) -> list[str]:
    """Every agent's skills roots (Albedo's included), workspace first, each once."""
    from ..hosts import models
    from ..hosts.verdicts import root_paths

    found: dict[str, None] = {}
    for host in models():
        found.update(dict.fromkeys(root_paths(host, workspace, home)))
    return list(found)


def mirrors_of(folder: str, roots: Iterable[str]) -> list[str]:
    """The links directly in `roots` that resolve to `folder` (the skill folder itself excluded)."""
    real = os.path.realpath(folder)
    found = []
    for root in roots:
        try:
            entries = list(os.scandir(root))
        except OSError:
            continue
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.path != folder and entry.is_symlink() and os.path.realpath(entry.path) == real:
                found.append(entry.path)
    return found


def _skill_files(catalog: Catalog, roots: Iterable[str]) -> list[str]:
    """The `SKILL.md` of every folder one level below Albedo's and the other agents' roots."""
    paths = [path for path in catalog.file_diagnostics if path.endswith("/" + SKILL_FILE)]
    paths += [skill.path for skill in catalog.skills]
    for root in roots:
        try:
            entries = sorted(os.scandir(root), key=lambda e: e.name)
        except OSError:
            continue
        paths += [os.path.join(entry.path, SKILL_FILE) for entry in entries if not entry.name.startswith(".")]
    return list(dict.fromkeys(paths))


def walk_workspace(workspace: str, chat_patterns: tuple[str, ...]) -> tuple[list[tuple[str, bool]], str | None]:
    """(path, is an agent definition) of the agent files and chat files in the workspace; the walk is
    bounded, and says why it stopped early."""
    found: list[tuple[str, bool]] = []
    definitions = {os.path.join(workspace, folder) for folder in AGENT_DEFINITION_FOLDERS}
    pending: list[tuple[str, int]] = [(workspace, 0)]
    seen = 0
    while pending:
        folder, depth = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if seen > limits.MAX_MENTION_WALK_ENTRIES:
                return found, (
                    f"the workspace walk stopped after {limits.MAX_MENTION_WALK_ENTRIES:,} entries, in {folder}: "
                    "files after it were not searched"
                )
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in _SKIPPED_FOLDERS and depth < limits.MAX_MENTION_WALK_DEPTH:
                        pending.append((entry.path, depth + 1))
                    continue
                if not entry.is_file():
                    continue
            except OSError:
                continue
            if folder in definitions and entry.name.endswith(".md"):
                found.append((entry.path, True))
            elif entry.name in AGENT_INSTRUCTION_FILES or any(
                fnmatch.fnmatch(entry.name, pattern) for pattern in chat_patterns
            ):
                found.append((entry.path, False))
    return found, None


def _home_files(home: str) -> list[tuple[str, bool]]:
    found = [(os.path.join(home, relative), False) for relative in HOME_AGENT_FILES]
    for relative in HOME_AGENT_DEFINITION_FOLDERS:
        folder = os.path.join(home, relative)
        try:
            names = sorted(entry.name for entry in os.scandir(folder) if entry.name.endswith(".md"))
        except OSError:
            continue
        found += [(os.path.join(folder, name), True) for name in names]
    return found


def read_text(path: str) -> str | None:
    """A file's text, read as safely as a `SKILL.md` (regular files only, bounded, UTF-8); None otherwise."""
    data, _info, _problem = read_skill_bytes(path, os.path.dirname(path))
    return decode(data, path)[0] if data is not None else None


def find_mentions(
    catalog: Catalog,
    target: MentionedSkill,
    home: str,
    *,
    folders: Iterable[str] = (),
    texts: Mapping[str, str] | None = None,
    extra_files: Iterable[str] = (),
    chat_patterns: tuple[str, ...] = DEFAULT_CHAT_PATTERNS,
) -> Mentions:
    """Every mention of `target`. `folders`: the workspace folders (the catalog's workspace by default);
    `texts`: open buffers' texts by path, read instead of the disk."""
    texts = texts or {}
    workspace = catalog.workspace
    inside = [os.path.abspath(folder) for folder in folders] or ([workspace] if workspace else [])
    roots = agent_roots(workspace, home)
    mirrors = mirrors_of(target.folder, roots)
    # a link reaching the skill through a mirror named like it is renamed with it
    through = [target.folder] + [link for link in mirrors if os.path.basename(link) == os.path.basename(target.folder)]
    files: list[tuple[str, bool]] = [(path, False) for path in _skill_files(catalog, roots)]
    truncated = None
    if workspace is not None:
        walked, truncated = walk_workspace(workspace, chat_patterns)
        files += walked
    files += _home_files(home)
    files += [(path, False) for path in extra_files]
    found: list[Mention] = []
    read: set[str] = set()
    for path, definition in files:
        real = os.path.realpath(path)
        if real in read:
            continue
        text = texts.get(path)
        if text is None and not os.path.exists(path):
            continue
        read.add(real)
        if text is None:
            text = read_text(path)
        if text is None:
            continue
        own = os.path.realpath(path) == os.path.realpath(target.path)
        if not target.winner and not own:
            continue  # a hidden copy: `/name` elsewhere runs the winner
        scanned = scan_text(text, target.name, os.path.dirname(path), through, own_name=own, agent_file=definition)
        if not scanned:
            continue
        lines = lines_of(text)
        within = any(is_within(path, folder) for folder in inside)
        for item in scanned:
            line = lines[item.range.start.line].rstrip("\r\n")
            found.append(Mention(path, item.range, item.kind, line, within))
    if target.winner:
        found += [Mention(link, FILE_START, "mirror", "", any(is_within(link, f) for f in inside)) for link in mirrors]
    found.sort(key=lambda mention: (mention.path, mention.range))
    return Mentions(target, tuple(found), truncated)
