"""`hosts`: for each SKILL.md under any agent's roots, which agents load it, under which name, and why not."""

from __future__ import annotations

import argparse
import os
import stat

from ..output import display_path, print_json, printable, use_safe_text_output
from ..program import EXIT_OK
from ..workspace import UsageError, find_workspace, folder_argument, home_folder, named_workspace


def host_ids_argument(text: str) -> list[str]:
    """An argparse type: one host id, or several separated by commas; each must be a known id."""
    from ...skills.hosts import HOST_IDS

    ids = [word.strip() for word in text.split(",") if word.strip()]
    unknown = [word for word in ids if word not in HOST_IDS]
    if unknown or not ids:
        raise argparse.ArgumentTypeError(
            f"unknown host {', '.join(map(repr, unknown)) or repr(text)}; choose from {', '.join(HOST_IDS)}"
        )
    return ids


def chosen_hosts(values: list[list[str]] | None) -> tuple[str, ...] | None:
    """The ids named by repeated `--host` (each maybe a comma list), once each, or None for all."""
    if not values:
        return None
    return tuple(dict.fromkeys(word for value in values for word in value))


def with_host_findings(catalog, args: argparse.Namespace, only: list[str] | None, workspace: str):  # type: ignore[no-untyped-def]
    """`check --hosts`: the catalog's findings plus the chosen agents' refusals, on the files `only` when files
    are checked, else on every file under `workspace` and the home folder. `check` reports every finding of
    the per-file view; the catalog's skills and Albedo's own findings are untouched."""
    from ...skills.hosts import report
    from ...skills.hosts.diagnostics import host_diagnostics
    from ..checking import with_added

    home = home_folder(args)
    ids = chosen_hosts(args.hosts)
    if only is None:
        extra = host_diagnostics(report(workspace, home, ids))
    else:  # each file against the workspace found upward from it
        extra, by_workspace = {}, {}
        for path in only:
            found = find_workspace(os.path.dirname(path), home) or os.path.dirname(path)
            if found not in by_workspace:
                by_workspace[found] = host_diagnostics(report(found, home, ids))
            extra[path] = by_workspace[found].get(path, ())
    return with_added(catalog, [d for items in extra.values() for d in items])


def configure_hosts(parser: argparse.ArgumentParser) -> None:
    from ...skills.hosts import HOST_IDS  # the registry's ids, in its order: the verb reads the models anyway

    workspace_help = (
        "the workspace folder whose agents' skills folders are read, or one SKILL.md (default: the nearest "
        "folder from the current one upward holding .albedo/skills, .agents/skills or .git)"
    )
    parser.add_argument("workspace", metavar="WORKSPACE|SKILL.md", nargs="?", default=None, help=workspace_help)
    parser.add_argument("-w", "--workspace", dest="workspace_option", metavar="DIR", default=None, help=workspace_help)
    parser.add_argument(
        "--home", metavar="DIR", default=None, help="the home folder whose agents' skills folders are read "
        "(default: your home folder)"
    )
    parser.add_argument(
        "--no-user-roots",
        dest="user_roots",
        action="store_false",
        help="judge only the workspace's skills, every agent as if the home folder held none (as `check "
        "--no-user-roots` reads only the workspace roots)",
    )
    parser.add_argument(
        "--host",
        metavar="ID",
        dest="hosts",
        action="append",
        type=host_ids_argument,
        default=None,
        help=f"an agent to judge for (repeat, or separate with commas; default: every agent): {', '.join(HOST_IDS)}",
    )
    parser.add_argument(
        "--why",
        metavar="SKILL",
        default=None,
        help="print one skill's whole story, agent by agent (verdict, name, what the model reads, why, how it "
        "is known); SKILL is a folder name, a name an agent gives it, or the path of its SKILL.md",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help='text: a table skill × agent (as wide as $COLUMNS, else 100), the reasons and the budgets; json: '
        '{"truncated": null or {"limit", "value", "first_not_walked", "more"}, "hosts": {ID: {"version", '
        '"evidence", "skills": {PATH: {"loads": true, false or null (not known: not judged, or the agent picks '
        'one of several copies at random), "name", "description_seen": the text its model reads ("" for the '
        'name alone; null when it does not load), "reason"}}}}} (default: text)',
    )


def run_hosts(args: argparse.Namespace) -> int:
    from ...skills.hosts import report

    home = folder_argument(args.home, "home") if args.home is not None else home_folder(args)
    named = named_workspace(args)
    only: str | None = None
    if named is not None and os.path.exists(named) and not os.path.isdir(named):
        only = os.path.abspath(named)
        if os.path.basename(only).lower() != "skill.md":
            raise UsageError(f"{named!r} is not a directory, nor a file named SKILL.md")
        if not stat.S_ISREG(os.stat(only).st_mode):  # the walk never opens one (reading a FIFO blocks)
            raise UsageError(
                f"{only} is not a regular file (a FIFO, a device or a socket): no agent reads it as a skill; "
                "replace it with a regular file"
            )
        workspace = find_workspace(os.path.dirname(only), home) or os.path.dirname(only)
    elif named is not None:
        workspace = folder_argument(named, "workspace")
    else:
        workspace = find_workspace(os.getcwd(), home) or os.getcwd()
    found = report(workspace, home, chosen_hosts(args.hosts), user_roots=args.user_roots)
    if only is not None:
        found = _only(found, only)
    if args.format == "json":
        print_json(found.to_json())
        return EXIT_OK
    from ...skills.hosts.table import text_report, why_report

    use_safe_text_output()
    if not found.files:
        print(f"no SKILL.md under any agent's skills folder in {printable(display_path(found.workspace or ''))} "
              f"or {printable(display_path(found.home))}")
        return EXIT_OK
    columns = _columns()
    if args.why is not None:
        chosen = _matching(found, args.why)
        for index, path in enumerate(chosen):
            for line in ([""] if index else []) + why_report(found, path, printable, columns):
                print(line)
        return EXIT_OK
    for line in text_report(found, printable, columns):
        print(line)
    return EXIT_OK


def _columns() -> int:
    """The width to fit: `COLUMNS` when it is a number, else 100 (never asked of the terminal, so output piped
    or captured reads the same)."""
    from ...skills.hosts.table import DEFAULT_COLUMNS

    try:
        return int(os.environ.get("COLUMNS", "")) or DEFAULT_COLUMNS
    except ValueError:
        return DEFAULT_COLUMNS


def _matching(found, skill: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The files `--why SKILL` names: by path, folder name, or a name an agent gives; a usage error if none."""
    wanted = os.path.abspath(skill) if os.sep in skill else None
    chosen = [
        file.path for file in found.files
        if file.path == wanted or os.path.dirname(file.path) == wanted or file.folder_name == skill
        or any(entry.verdicts[file.path].name == skill for entry in found.hosts)
    ]
    if not chosen:
        raise UsageError(f"no skill named {skill!r} under any agent's skills folder: give a folder name, a name an "
                         "agent gives it, or the path of its SKILL.md (`albedo-skills hosts` lists them)")
    return chosen


def _only(found, path: str):  # type: ignore[no-untyped-def]
    """The report narrowed to one file; a usage error when no agent's root holds it."""
    if not any(file.path == path for file in found.files):
        raise UsageError(
            f"{path} is not under any agent's skills folder (.agents/skills, .claude/skills, ...) of "
            f"{found.workspace} or {found.home}: no agent would read it there"
        )
    files = tuple(file for file in found.files if file.path == path)
    hosts = tuple(
        entry._replace(verdicts={path: entry.verdicts[path]}) for entry in found.hosts
    )
    return found._replace(files=files, hosts=hosts)
