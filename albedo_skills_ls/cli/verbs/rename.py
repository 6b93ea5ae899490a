"""`rename OLD NEW` (the one verb that writes skills, and only without --dry-run / --diff) and
`references NAME`: the engine's rename plan and mentions (skills/language/rename.py, skills/language/mentions.py), printed or
applied.

`rename` also finishes a rename an editor began: when the folder is already NEW and links in the agents'
roots still point at OLD's folder (an editor can rename a link but not change where it points), it re-points
them.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..options import add_catalog_options
from ..output import display_path, print_json, printable, use_safe_text_output
from ..program import EXIT_FINDINGS, EXIT_OK
from ..workspace import UsageError, home_folder, load_catalog


def configure_rename(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("old", metavar="OLD", help="the skill's name now")
    parser.add_argument("new", metavar="NEW", help="the name it gets (its folder is renamed to it too)")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--dry-run", action="store_true", help="print what would change; write nothing")
    shown.add_argument("--diff", action="store_true", help="print the change as a unified diff; write nothing")
    add_catalog_options(parser)


def configure_references(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the skill whose mentions are listed")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="text: PATH:LINE:COLUMN KIND LINE "
                        "per mention; json: the mentions with ranges (default: text)")
    add_catalog_options(parser)


def run_references(args: argparse.Namespace) -> int:
    from ...skills.language.mentions import find_mentions, target_of

    catalog = load_catalog(args)
    target = target_of(catalog, args.name)
    if target is None:
        raise UsageError(f"no skill named {args.name!r} in the catalog; `albedo-skills catalog --format text` lists them")
    found = find_mentions(catalog, target, _home(args))
    if args.format == "json":
        print_json(found.to_json())
        return EXIT_OK
    use_safe_text_output()
    for mention in found.mentions:
        where = f"{_shown(mention.path)}:{mention.range.start.line + 1}:{mention.range.start.character + 1}"
        outside = "" if mention.in_workspace else " (outside the workspace)"
        text = f"-> {os.readlink(mention.path)}" if mention.kind == "mirror" else mention.line.strip()
        print(f"{where} {mention.kind}{outside} {printable(text)}")
    if found.truncated:
        print(f"albedo-skills: {found.truncated}", file=sys.stderr)
    return EXIT_OK


def run_rename(args: argparse.Namespace) -> int:
    from ...skills.language.mentions import target_of
    from ...skills.language.rename import RenamePlan, pending_relinks, plan_rename

    catalog = load_catalog(args)
    home = _home(args)
    target = target_of(catalog, args.old)
    if target is None:
        relinks = pending_relinks(catalog, args.old, args.new, home)
        if catalog.skill(args.new) is None:
            raise UsageError(f"no skill named {args.old!r} in the catalog; `albedo-skills catalog --format text` lists them")
        if not (args.dry_run or args.diff):
            _write_links(relinks)
        done = "would " if args.dry_run or args.diff else ""
        for rename in relinks:
            if rename.old == rename.new:
                print(f"{done}re-point {_shown(rename.new)} -> {rename.link_target}")
            else:
                print(f"{done}re-link {_shown(rename.old)} as {_shown(rename.new)} -> {rename.link_target}")
        if not relinks:
            print(f"`{args.old}` is already `{args.new}`: nothing left to do")
        return EXIT_OK
    plan = plan_rename(catalog, target, args.new, home)
    if not isinstance(plan, RenamePlan):
        print(f"albedo-skills: cannot rename `{args.old}` to `{args.new}`: {plan.message}", file=sys.stderr)
        return EXIT_FINDINGS
    use_safe_text_output()
    if args.diff:
        _print_diff(plan)
    elif args.dry_run:
        _print_plan(plan, "would ")
    else:
        _write(plan)
        _print_plan(plan, "")
    return EXIT_OK


def _home(args: argparse.Namespace) -> str:
    return os.path.abspath(home_folder(args))


def _shown(path: str) -> str:
    return printable(display_path(path))


def _edited_texts(plan) -> dict[str, tuple[str, str, bytes]]:  # type: ignore[no-untyped-def]
    """path -> (text now, text after, the BOM it starts with): the files the plan edits."""
    from ...skills.language.rename import apply_edits

    found = {}
    for path in dict.fromkeys(edit.path for edit in plan.edits):
        with open(path, "rb") as handle:
            data = handle.read()
        bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
        text = data[len(bom) :].decode("utf-8")
        found[path] = (text, apply_edits(text, [edit for edit in plan.edits if edit.path == path]), bom)
    return found


def _write(plan) -> None:  # type: ignore[no-untyped-def]
    for path, (_before, after, bom) in _edited_texts(plan).items():
        with open(path, "wb") as handle:
            handle.write(bom + after.encode("utf-8"))
    _write_links(plan.relinks)
    for rename in plan.renames:
        if rename.kind == "folder":
            os.rename(rename.old, rename.new)


def _write_links(relinks) -> None:  # type: ignore[no-untyped-def]
    for rename in relinks:
        os.unlink(rename.old)
        os.symlink(rename.link_target, rename.new)


def _print_plan(plan, would: str) -> None:  # type: ignore[no-untyped-def]
    for rename in plan.renames:
        if rename.kind == "folder":
            print(f"{would}rename {_shown(rename.old)} -> {_shown(rename.new)}")
        else:
            print(f"{would}re-link {_shown(rename.old)} as {_shown(rename.new)} -> {rename.link_target}")
    for edit in plan.edits:
        where = f"{_shown(edit.path)}:{edit.range.start.line + 1}:{edit.range.start.character + 1}"
        print(f"{would}edit {where} {edit.kind}: `{plan.old_name}` -> `{edit.new_text}`")
    for mention in plan.left:
        where = f"{_shown(mention.path)}:{mention.range.start.line + 1}"
        print(f"left {where} {mention.kind} (outside the workspace; edit it yourself if it is yours)")
    if plan.truncated:
        print(f"albedo-skills: {plan.truncated}", file=sys.stderr)


def _print_diff(plan) -> None:  # type: ignore[no-untyped-def]
    """The rename as a patch `git apply` applies: every file of the folder renamed (SKILL.md with its edits),
    the other files' edits, each mirror link removed and made again pointing at the new folder. Paths are
    relative to the top folder of the git repository (else the current folder), where `git apply` reads them."""
    from ..patch import file_patch, link_added, link_removed
    from ..workspace import repository_top

    folder = next(rename for rename in plan.renames if rename.kind == "folder")
    top = repository_top(folder.old) or os.getcwd()
    if top != os.getcwd():
        print(f"albedo-skills: the patch's paths are relative to {printable(display_path(top))}", file=sys.stderr)

    def shown(path: str) -> str:
        return os.path.relpath(path, top)

    edited = _edited_texts(plan)
    for path in _folder_files(folder.old):
        before, after, _bom = edited.pop(path, (None, None, b""))
        moved = folder.new + path[len(folder.old) :]
        if before is None:
            sys.stdout.write(file_patch(shown(path), "", "", shown(moved)))
        else:
            sys.stdout.write(file_patch(shown(path), before, after, shown(moved)))
    for path, (before, after, _bom) in edited.items():
        sys.stdout.write(file_patch(shown(path), before, after))
    for rename in plan.relinks:
        sys.stdout.write(link_removed(shown(rename.old), os.readlink(rename.old)))
        sys.stdout.write(link_added(shown(rename.new), rename.link_target))


def _folder_files(folder: str) -> list[str]:
    """Every file and link in the skill folder (links not followed), for the patch's renames; a folder past
    MAX_RESOURCE_FILES or MAX_RESOURCE_DEPTH cannot be written as a whole patch, so --diff refuses it."""
    from ...skills.core.limits import MAX_RESOURCE_DEPTH, MAX_RESOURCE_FILES

    found: list[str] = []
    pending = [(folder, 0)]
    while pending:
        current, depth = pending.pop()
        with os.scandir(current) as entries:
            for entry in sorted(entries, key=lambda entry: entry.name):
                if entry.is_dir(follow_symlinks=False):
                    if depth + 1 > MAX_RESOURCE_DEPTH:
                        raise UsageError(_too_big(folder, f"folders over {MAX_RESOURCE_DEPTH} levels deep"))
                    pending.append((entry.path, depth + 1))
                    continue
                found.append(entry.path)
                if len(found) > MAX_RESOURCE_FILES:
                    raise UsageError(_too_big(folder, f"more than {MAX_RESOURCE_FILES} files"))
    return sorted(found)


def _too_big(folder: str, why: str) -> str:
    return (
        f"{display_path(folder)} holds {why}, too many to write as one patch: use --dry-run to see the change, "
        "or rename without --diff"
    )
