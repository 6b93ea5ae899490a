"""`new NAME`: a valid skill skeleton to start from, in a workspace root or the user root.

The name is checked before anything is created, and nothing is ever overwritten: the `SKILL.md` is created
exclusively, so a file that appears meanwhile is kept. The frontmatter is the engine's template, the one
an editor inserts: the skill is valid as created, and `check` warns (`description-placeholder`) until its
placeholder description is replaced, since the model would read it.
"""

from __future__ import annotations

import argparse
import os

from ..options import add_catalog_options, text_argument
from ..output import display_path, printable
from ..program import EXIT_OK
from ..workspace import UsageError, folder_argument, home_folder, workspace_of

# --root choice: (the folder the skills root is in, the root's relative location)
ROOTS = {
    "agents": ("workspace", ".agents/skills"),
    "albedo": ("workspace", ".albedo/skills"),
    "user": ("home", ".agents/skills"),
}

BODY = (
    "\n# {name}\n\n"
    "Say here, step by step, what to do when this skill is used. Put long reference material in files under\n"
    "`references/` and link them from here.\n"
)


def configure_new(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "name",
        metavar="NAME",
        type=text_argument,
        help="the skill's name: lowercase letters, digits and single hyphens",
    )
    parser.add_argument(
        "--root",
        choices=tuple(ROOTS),
        default="agents",
        help="where to create it: agents: WORKSPACE/.agents/skills; albedo: WORKSPACE/.albedo/skills; "
        "user: ~/.agents/skills (default: agents)",
    )
    add_catalog_options(parser, catalog=False)  # WORKSPACE, -w and --home say where; it reads no catalog


def run_new(args: argparse.Namespace) -> int:
    from ...skills.authoring.fields import template
    from ...skills.core.errors import Refused
    from ...skills.document.rules import name_problem, suggest_name
    from ...skills.document.skill_file import SKILL_FILE

    name = args.name
    problem = name_problem(name)
    if problem is not None:
        suggestion = suggest_name(name)
        hint = f" (try `{suggestion}`)" if suggestion and name_problem(suggestion) is None else ""
        raise UsageError(f"`{printable(name)}` is not a valid skill name: it {problem}{hint}")
    base, relative = ROOTS[args.root]
    parent = workspace_of(args).path if base == "workspace" else folder_argument(home_folder(args), "home")
    folder = os.path.join(parent, relative, name)
    path = os.path.join(folder, SKILL_FILE)
    existing = _existing_skill_file(folder)
    if existing is not None:
        raise Refused(f"{display_path(existing)} already exists; nothing was written")
    os.makedirs(folder, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        raise Refused(f"{display_path(path)} already exists; nothing was written") from None
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
        file.write(template(name) + BODY.format(name=name))
    print(
        f"created {display_path(path)}: replace its placeholder `description` with what the skill does and when "
        "to use it (`check` warns until you do)"
    )
    return EXIT_OK


def _existing_skill_file(folder: str) -> str | None:
    """A `SKILL.md` the folder already holds, in any letter case (a `skill.md` is a skill being written)."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return folder
    return next((os.path.join(folder, n) for n in names if n.lower() == "skill.md"), None)
