"""What `check PATH` examines: the kind of folder or file each PATH is, decided before anything is read.

A PATH is, in this order of questions:

- a file: it must be named `SKILL.md`, and is checked as a single skill (as an editor checks a file
  outside every root: its folder's name is the expected name, no collision rule applies);
- a skill folder (it holds a `SKILL.md`, or a `skill.md` in other letter case, which is reported): its
  `SKILL.md`, checked the same way;
- one of the five skills roots (`WORKSPACE/.albedo/skills`, `WORKSPACE/.agents/skills`, and the three user
  roots under the home folder): that root alone, with Albedo's rules for a root;
- a workspace (it holds `.albedo/skills` or `.agents/skills`): its two roots, plus the user roots unless
  `--no-user-roots`, exactly as the editor's catalog;
- any other folder whose skills all sit in its child folders (`FOLDER/NAME/SKILL.md`): checked with Albedo's
  rules as if it were a root, and the run says so on stderr;
- any other folder with a `SKILL.md` deeper (a downloaded collection: `skills/*/SKILL.md`,
  `plugins/*/skills/*/SKILL.md`, `skills/.curated/*/SKILL.md`): every `SKILL.md` the bounded walk of
  `skills/catalog/skill_tree.py` finds beneath it, each checked as a single skill, and the run says on stderr
  how many it found; a walk a bound cut short says where, and the run fails (exit 1);
- a folder holding `.git` and nothing of the above: a workspace without skills.

Anything else holds no skill: a usage error (exit 2) naming what was looked for. So is a named workspace
whose roots hold no skill folder, and a run with no PATH that examined nothing at all: a check never passes
having examined nothing. Several PATHs must all be `SKILL.md` files or skill folders (pre-commit passes the
staged files); a root, a workspace or a folder of skills is named alone.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Literal, NamedTuple

from .output import path_from_here, printable
from .program import PROG
from .workspace import REPOSITORY_MARKER, UsageError, find_workspace, folder_argument, home_folder, workspace_markers

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..skills.core.model import Scope

Kind = Literal["workspace", "files", "root", "folder", "tree"]


class Target(NamedTuple):
    """What one `check` run examines, and the folder its paths are shown relative to."""

    kind: Kind
    path: str | None  # the workspace, the root or the folder of skills (absolute); None for files
    files: tuple[str, ...]  # kind "files": the SKILL.md of each file or skill folder named (absolute)
    scope: Scope  # kind "root" or "folder": the scope its skills get
    base: str  # paths are shown relative to this folder: the workspace of the run
    named: bool  # a PATH or -w named it (not found upward from the current folder)
    walked: str | None = None  # kind "files" found by walking this folder (absolute): every SKILL.md beneath it
    cut: str | None = None  # the walk of `walked` stopped at a bound: where, in words

    def describe(self) -> str | None:
        """What stderr says before the findings, when the target is not simply a workspace or files."""
        if self.walked is not None:
            found = f"{len(self.files):,} SKILL.md file{'s' if len(self.files) != 1 else ''}"
            said = (
                f"read {found} found beneath {printable(path_from_here(self.walked))} (at any depth; .git, "
                "node_modules and virtual environments skipped, links to folders not followed), each checked as a "
                "single skill"
            )
            return said if self.cut is None else f"{said}; not every folder was read: {printable(self.cut)}"
        if self.kind == "folder":
            assert self.path is not None
            return (
                f"{printable(path_from_here(self.path))} is not one of Albedo's skills roots: its skill folders "
                "were checked with Albedo's rules, as if it were one"
            )
        return None


def skill_file_in(folder: str) -> str | None:
    """The `SKILL.md` a skill folder holds, in any letter case (a `skill.md` is reported, not passed over)."""
    from ..skills.document.skill_file import SKILL_FILE

    exact = os.path.join(folder, SKILL_FILE)
    if os.path.lexists(exact):
        return exact
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    return next((os.path.join(folder, name) for name in names if name.lower() == SKILL_FILE.lower()), None)


def holds_skill_folders(folder: str) -> bool:
    """Whether a child folder (not hidden, as in a root) holds a `SKILL.md` in any letter case."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return False
    for entry in entries:
        try:
            if not entry.name.startswith(".") and entry.is_dir() and skill_file_in(entry.path) is not None:
                return True
        except OSError:
            continue
    return False


def known_root(folder: str, home: str) -> Scope | None:
    """The scope of `folder` when it is one of the five roots (a workspace's, or the home folder's), else None."""
    from ..skills.catalog.candidates import root_paths

    real = os.path.realpath(folder)
    workspace = os.path.dirname(os.path.dirname(real))  # WORKSPACE/.agents/skills
    for path, scope in root_paths(None, home, True) + root_paths(workspace, None, False):
        if os.path.realpath(path) == real:
            return scope
    return None


def is_workspace(folder: str) -> bool:
    return any(os.path.isdir(os.path.join(folder, marker)) for marker in workspace_markers()[:-1])


def base_for(path: str, home: str) -> str:
    """Where paths are shown from for a target that is not a workspace: the workspace it lies in, found
    upward as for a run with no PATH, else the current folder."""
    return find_workspace(path, home) or os.getcwd()


def check_target(args: argparse.Namespace) -> Target:
    """What this `check` examines, from its PATHs and `-w`; a usage error when they name nothing to check."""
    home = home_folder(args)
    paths, option = list(args.paths), args.workspace_option
    if option is not None:
        if any(os.path.abspath(path) != os.path.abspath(option) for path in paths):
            raise UsageError(f"two workspaces named ({paths[0]!r} and -w {option!r}): name one")
        folder = os.path.abspath(folder_argument(option, "workspace"))
        return Target("workspace", folder, (), "workspace", folder, True)
    if not paths:
        here = os.getcwd()
        found = find_workspace(here, home)
        folder = found or here
        return Target("workspace", folder, (), "workspace", folder, False)
    kinds = [classify(path, home) for path in paths]
    if len(kinds) > 1 and any(kind != "files" for kind, _path, _scope in kinds):
        alone = next(path for (kind, _p, _s), path in zip(kinds, paths) if kind != "files")
        raise UsageError(
            f"{alone!r} is a {KIND_WORDS[next(k for k, _p, _s in kinds if k != 'files')]}: name it alone; "
            "several PATHs must all be SKILL.md files or skill folders"
        )
    kind, path, scope = kinds[0]
    if kind == "tree":
        from ..skills.catalog.skill_tree import find_skill_files

        tree = find_skill_files(path)
        return Target("files", None, tree.files, "workspace", base_for(path, home), True, path, tree.cut)
    if kind == "files":
        files = tuple(dict.fromkeys(found for _kind, found, _scope in kinds))
        return Target("files", None, files, "workspace", base_for(os.path.dirname(files[0]), home), True)
    base = path if kind == "workspace" else base_for(path, home)
    return Target(kind, path, (), scope, base, True)


KIND_WORDS = {
    "workspace": "workspace", "root": "skills root", "folder": "folder of skills", "files": "skill",
    "tree": "folder holding skills",
}


def classify(given: str, home: str) -> tuple[Kind, str, Scope]:
    """(kind, absolute path, scope) for one PATH; for a file or skill folder the path is its `SKILL.md`."""
    from ..skills.document.skill_file import SKILL_FILE

    if not os.path.lexists(given):
        raise UsageError(f"{given!r} does not exist")
    path = os.path.abspath(given)
    if not os.path.isdir(path):
        if os.path.basename(path) != SKILL_FILE:
            wrong_case = os.path.basename(path).lower() == SKILL_FILE.lower()
            hint = f" (rename it to {SKILL_FILE}: Albedo reads no other spelling)" if wrong_case else ""
            raise UsageError(f"{given!r} is not a folder, nor a file named {SKILL_FILE}{hint}")
        return "files", path, "workspace"
    if skill_file_in(path) is not None:
        return "files", os.path.join(path, SKILL_FILE), "workspace"
    scope = known_root(path, home)
    if scope is not None:
        return "root", path, scope
    if is_workspace(path):
        return "workspace", path, "workspace"
    from ..skills.catalog.skill_tree import find_skill_files

    tree = find_skill_files(path)
    if tree.files and (tree.cut is not None or any(os.path.dirname(os.path.dirname(f)) != path for f in tree.files)):
        return "tree", path, "workspace"
    if holds_skill_folders(path):
        return "folder", path, "workspace"
    if os.path.isdir(os.path.join(path, REPOSITORY_MARKER)):
        return "workspace", path, "workspace"
    shown = printable(path_from_here(path))
    cut = f"; {printable(tree.cut)}: name a folder deeper down" if tree.cut is not None else ""
    raise UsageError(
        f"{printable(given)} holds no skill: looked for {shown}/{SKILL_FILE}, skill folders {shown}/*/{SKILL_FILE}, "
        f"the skills roots {shown}/.albedo/skills and {shown}/.agents/skills, and any {SKILL_FILE} beneath it{cut}"
    )


def require_examined(target: Target, catalog_paths: list[str], catalog_roots: list[str]) -> None:
    """A usage error when the run examined no skill folder of what was named (or, with no PATH, nothing at
    all): `catalog_paths` are the files and folders the catalog has an entry for."""
    from ..skills.core.paths import is_within

    if target.kind == "files":
        return
    assert target.path is not None
    if target.kind == "workspace" and target.named:
        roots = [root for root in catalog_roots if is_within(root, target.path)]
        if any(is_within(path, target.path) for path in catalog_paths):
            return
    elif catalog_paths:
        return
    else:
        roots = catalog_roots
    looked = ", ".join(printable(path_from_here(root)) for root in roots)
    where = printable(path_from_here(target.path))
    if target.kind == "workspace" and not target.named:
        if is_workspace(target.path) or os.path.isdir(os.path.join(target.path, REPOSITORY_MARKER)):
            how = f"the workspace {where} was found upward from the current folder"
        else:
            *most, last = workspace_markers()
            how = f"no folder from the current one upward holds {', '.join(most)} or {last}"
        raise UsageError(
            f"no skill to check: looked in {looked} ({how}); name what to check: `{PROG} check PATH` "
            "(a skill folder, a SKILL.md, a skills root or a folder of skill folders)"
        )
    raise UsageError(f"{where} holds no skill: looked for skill folders in {looked}")
