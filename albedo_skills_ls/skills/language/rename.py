"""Renaming a skill, as values: the folder to rename, the text edits, the links to re-point, what is left.

`plan_rename` decides; the command line writes the plan (`albedo-skills rename`), the language server
sends it as one `WorkspaceEdit`. What a rename changes:

- the skill's folder (to the new name) and its `name:`;
- every mention `mentions.py` finds inside a workspace folder: `/name`, `` `/name` ``, `skills:` entries,
  the path segment of relative links into the folder;
- every link in an agent's root that mirrors the folder (`.claude/skills/name -> ../../.agents/skills/name`):
  renamed when it bears the skill's name, and re-pointed at the new folder (`link_target`, the text the link
  must hold; the LSP has no operation that writes a link, so the server names the command that does).

What it leaves: mentions outside every workspace folder (user roots, the home folder's agent files, links in
the home folder's agent roots) are listed in `left`, never edited: they belong to other projects too.
A new name that is invalid, equal, a built-in command, or already held (by a skill, a folder, or a link in
an agent's root) is refused with the reason (`Refusal`).
"""

from __future__ import annotations

import os
import posixpath
from typing import Any, Iterable, Literal, Mapping, NamedTuple

from .mentions import DEFAULT_CHAT_PATTERNS, Mention, MentionedSkill, agent_roots, find_mentions
from ..core.model import Catalog, Range
from ..core.paths import is_within
from ..document.rules import name_problem


class TextEdit(NamedTuple):
    path: str  # the file as it is named before the rename
    range: Range
    new_text: str
    kind: str  # the mention's kind

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "range": self.range.to_json(), "new_text": self.new_text, "kind": self.kind}


class FileRename(NamedTuple):
    old: str
    new: str  # equal to `old` for a mirror link whose name is not the skill's (only re-pointed)
    kind: Literal["folder", "mirror"]
    link_target: str | None = None  # a mirror: the target text the link holds after the rename

    def to_json(self) -> dict[str, Any]:
        return {"old": self.old, "new": self.new, "kind": self.kind, "link_target": self.link_target}


class RenamePlan(NamedTuple):
    old_name: str
    new_name: str
    skill: str  # the skill's SKILL.md, before the rename
    edits: tuple[TextEdit, ...]
    renames: tuple[FileRename, ...]  # the folder first, then the mirrors
    left: tuple[Mention, ...]  # outside every workspace folder: listed, not edited
    outside_workspace: bool  # the skill itself lies outside every workspace folder (a user root)
    truncated: str | None

    @property
    def relinks(self) -> tuple[FileRename, ...]:
        return tuple(rename for rename in self.renames if rename.link_target is not None)

    def to_json(self) -> dict[str, Any]:
        return {
            "old_name": self.old_name,
            "new_name": self.new_name,
            "skill": self.skill,
            "edits": [edit.to_json() for edit in self.edits],
            "renames": [rename.to_json() for rename in self.renames],
            "left": [mention.to_json() for mention in self.left],
            "outside_workspace": self.outside_workspace,
            "truncated": self.truncated,
        }


class Refusal(NamedTuple):
    message: str


def finish_command(old: str, new: str) -> str:
    """The command that finishes a rename an editor could only half do (it re-points the mirror links)."""
    return f"albedo-skills rename {old} {new}"


def refusal(catalog: Catalog, target: MentionedSkill, new_name: str, home: str) -> Refusal | None:
    """Why `target` cannot be renamed to `new_name`, or None."""
    if new_name == target.name:
        return Refusal(f"the skill is already named `{new_name}`")
    problem = name_problem(new_name)
    if problem is not None:
        return Refusal(f"`{new_name}` is not a valid skill name: it {problem}")
    if new_name in catalog.builtins:
        return Refusal(
            f"`/{new_name}` is a built-in command: the skill would be reached only as `/skill:{new_name}`; "
            "pick another name"
        )
    holder = catalog.skill(new_name)
    if holder is not None:
        return Refusal(f"`{new_name}` is already the name of {holder.path}: pick another name or rename that skill first")
    root = os.path.dirname(target.folder)
    for place in [root, *agent_roots(catalog.workspace, home)]:
        taken = os.path.join(place, new_name)
        if os.path.lexists(taken):
            return Refusal(f"{taken} already exists: pick another name, or move it away first")
    return None


def retarget(link: str, old_folder: str, new_folder: str) -> str:
    """The target text `link` must hold to reach `new_folder` where it reached `old_folder`: the segment of
    its written target that names the old folder is changed, so a relative link stays relative."""
    written = os.readlink(link)
    base = os.path.dirname(link) if not written.startswith("/") else "/"
    segments = written.split("/")
    for index, segment in enumerate(segments):
        base = posixpath.normpath(posixpath.join(base, segment)) if segment else base
        if base == old_folder and segment == os.path.basename(old_folder):
            segments[index] = os.path.basename(new_folder)
            return "/".join(segments)
    if written.startswith("/"):
        return new_folder
    return os.path.relpath(new_folder, os.path.dirname(link))


def plan_rename(
    catalog: Catalog,
    target: MentionedSkill,
    new_name: str,
    home: str,
    *,
    folders: Iterable[str] = (),
    texts: Mapping[str, str] | None = None,
    extra_files: Iterable[str] = (),
    chat_patterns: tuple[str, ...] = DEFAULT_CHAT_PATTERNS,
) -> RenamePlan | Refusal:
    refused = refusal(catalog, target, new_name, home)
    if refused is not None:
        return refused
    found = find_mentions(
        catalog, target, home, folders=folders, texts=texts, extra_files=extra_files, chat_patterns=chat_patterns
    )
    folder = target.folder
    new_folder = os.path.join(os.path.dirname(folder), new_name)
    own = os.path.realpath(folder)
    edits: list[TextEdit] = []
    renames = [FileRename(folder, new_folder, "folder")]
    left: list[Mention] = []
    for mention in found.mentions:
        in_skill = is_within(os.path.realpath(mention.path), own)
        if mention.kind == "mirror":
            if not mention.in_workspace:
                left.append(mention)
                continue
            name = os.path.basename(mention.path)
            renamed = os.path.join(os.path.dirname(mention.path), new_name) if name == os.path.basename(folder) else mention.path
            renames.append(FileRename(mention.path, renamed, "mirror", retarget(mention.path, folder, new_folder)))
        elif mention.in_workspace or in_skill:
            # a link's segment names the folder, renamed to the new name whatever the old folder was called
            edits.append(TextEdit(mention.path, mention.range, new_name, mention.kind))
        else:
            left.append(mention)
    places = [os.path.abspath(place) for place in (list(folders) or [catalog.workspace or ""]) if place]
    outside = not any(is_within(folder, place) for place in places)
    return RenamePlan(target.name, new_name, target.path, tuple(edits), tuple(renames), tuple(left), outside, found.truncated)


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """`text` with `edits` (single-line ranges in code points, none overlapping) applied."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: e.range, reverse=True):
        line = lines[edit.range.start.line]
        start, end = edit.range.start.character, edit.range.end.character
        lines[edit.range.start.line] = line[:start] + edit.new_text + line[end:]
    return "\n".join(lines)


def pending_relinks(catalog: Catalog, old_name: str, new_name: str, home: str) -> tuple[FileRename, ...]:
    """After an editor renamed the folder (and maybe the mirror links) but could not re-point the links:
    the links in agents' roots that now lead nowhere because they name the old folder beside the new one."""
    skill = catalog.skill(new_name)
    if skill is None:
        return ()
    new_folder = skill.folder
    old_folder = os.path.join(os.path.dirname(new_folder), old_name)
    if os.path.lexists(old_folder):
        return ()
    found = []
    for root in agent_roots(catalog.workspace, home):
        try:
            entries = sorted(os.scandir(root), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if not entry.is_symlink() or os.path.exists(entry.path):
                continue
            written = os.readlink(entry.path)
            reached = posixpath.normpath(posixpath.join(root, written))
            if reached == old_folder or reached.startswith(old_folder + "/"):
                renamed = os.path.join(root, new_name) if entry.name == old_name else entry.path
                if renamed != entry.path and os.path.lexists(renamed):
                    renamed = entry.path
                found.append(FileRename(entry.path, renamed, "mirror", retarget(entry.path, old_folder, new_folder)))
    return tuple(found)
