"""From one shared walk to every agent's verdict on every file: roots, walk rules, content, duplicates, budget.

The steps are the same for every agent; what differs is data on its `HostModel` (roots, `Walk`,
`Duplicates`, `Budget`) and its `judge`. Nothing here touches Albedo's catalog or diagnostics: the `albedo`
model takes its verdicts from discovery (`hosts/albedo.py`), and this module only reads files.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from ..document.skill_file import SKILL_FILE
from .budget import BudgetUse, spend_lines
from .common import unreadable
from .facts import SkillFacts, read_facts
from .model import NOT_DETERMINISTIC, NOT_SEEN, SKIPPED, UNKNOWN, WARNS, HostModel, Verdict
from .walker import Found


class HostReport(NamedTuple):
    host: HostModel
    verdicts: dict[str, Verdict]  # by path, in path order
    budget: BudgetUse | None


def root_paths(host: HostModel, workspace: str | None, home: str | None) -> list[str]:
    """The agent's roots as absolute paths, in its precedence order, each once (None: that folder's none)."""
    bases = {"workspace": workspace, "home": home}
    paths: list[str] = []
    for base, relative in host.roots:
        folder = bases[base]
        if folder is not None:
            path = os.path.normpath(os.path.join(folder, relative))
            if path not in paths:
                paths.append(path)
    return paths


class FactsCache:
    """Each file read and parsed once per report, however many agents judge it."""

    def __init__(self) -> None:
        self._facts: dict[str, SkillFacts] = {}

    def __call__(self, found: Found) -> SkillFacts:
        facts = self._facts.get(found.path)
        if facts is None:
            facts = self._facts[found.path] = read_facts(found)
        return facts


def host_report(
    host: HostModel, files: tuple[Found, ...], workspace: str | None, home: str, facts: FactsCache | None = None
) -> HostReport:
    if host.verdicts is not None:
        return HostReport(host, host.verdicts(files, workspace, home), None)
    roots = root_paths(host, workspace, home)
    facts_of = facts or FactsCache()
    holders = _skill_folders(files, host.exact_file_name or SKILL_FILE) if host.walk.skill_hides_below else {}
    verdicts = {found.path: _walk_verdict(host, found, roots, holders, facts_of) for found in files}
    if not host.every_file:  # a validator judges each folder on its own
        home_roots = {os.path.normpath(os.path.join(home, folder)) for base, folder in host.roots if base == "home"}
        _settle_duplicates(host, files, roots, verdicts, home_roots)
    budget = (spend_lines(host, files, roots, verdicts, facts_of) if host.budget is not None and host.budget.line is not None
              else _spend_budget(host, files, verdicts))
    return HostReport(host, verdicts, budget)


def _walk_verdict(
    host: HostModel, found: Found, roots: list[str], holders: dict[tuple[str, tuple[str, ...]], str], facts_of: FactsCache
) -> Verdict:
    label, walk = host.label, host.walk
    if not host.every_file and found.root not in roots:
        reads = ", ".join(f"{'~/' if base == 'home' else ''}{relative}" for base, relative in host.roots)
        return Verdict(NOT_SEEN, reason=f"{label} does not read {found.root} (it reads {reads}); {host.advice}")
    file_name = found.parts[-1]
    if host.exact_file_name is not None and file_name != host.exact_file_name:
        return Verdict(
            SKIPPED,
            reason=f"skipped silently: {label} reads only files named exactly {host.exact_file_name}; "
            f"rename {file_name} to {host.exact_file_name}",
        )
    if host.every_file:
        return _read_and_judged(host, facts_of(found)) if host.judge is not None else Verdict(SKIPPED)
    if found.levels == 0 and not walk.root_file:
        return Verdict(
            SKIPPED,
            reason=f"skipped silently: {label} reads skill folders inside {found.root}, not a {file_name} "
            "directly in it; move it into a folder of its own",
        )
    if walk.max_levels is not None and found.levels > walk.max_levels:
        levels = "level" if walk.max_levels == 1 else "levels"
        return Verdict(
            SKIPPED,
            reason=f"skipped silently: {label} reads skill folders at most {walk.max_levels} {levels} below "
            f"{found.root}, and this one is {found.levels} levels down; move the folder up",
        )
    if not walk.dot_folders and any(part.startswith(".") for part in found.parts[:-1]):
        return Verdict(
            SKIPPED, reason=f"skipped silently: {label} skips folders whose name starts with `.`; rename the folder"
        )
    if found.file_link and not walk.file_links:
        return Verdict(
            SKIPPED,
            reason=f"skipped silently: {label} ignores a {SKILL_FILE} that is a symbolic link; put the file "
            "itself in the folder (linking the whole folder works)",
        )
    if found.folder_link and not walk.folder_links:
        return Verdict(
            SKIPPED,
            reason=f"skipped silently: {label} does not follow linked folders; put the skill folder itself "
            "in the root",
        )
    if walk.skill_hides_below:
        above = _skill_above(found, holders)
        if above is not None:
            return Verdict(
                SKIPPED,
                reason=f"skipped silently: {label} stops at {above}, a {SKILL_FILE} in a folder above this one, "
                "and reads nothing below it; move this skill out of that folder",
            )
    assert host.judge is not None
    return _read_and_judged(host, facts_of(found))


def _read_and_judged(host: HostModel, facts: SkillFacts) -> Verdict:
    """What albedo-skills could not read is not judged for any agent (`common.unreadable`); the rest is the
    agent's own `judge`, which therefore always sees a file's text."""
    not_read = unreadable(facts)
    return not_read if not_read is not None else host.judge(facts)


def _skill_folders(files: tuple[Found, ...], file_name: str) -> dict[tuple[str, tuple[str, ...]], str]:
    """(root, folder components) -> the path of the `file_name` in that folder, for every such file."""
    return {(found.root, found.parts[:-1]): found.path for found in files if found.parts[-1] == file_name}


def _skill_above(found: Found, holders: dict[tuple[str, tuple[str, ...]], str]) -> str | None:
    """The skill file in a folder above `found`'s (the root itself included), or None: one look-up per level."""
    folders = found.parts[:-1]
    for level in range(len(folders)):
        above = holders.get((found.root, folders[:level]))
        if above is not None:
            return above
    return None


def _settle_duplicates(host: HostModel, files: tuple[Found, ...], roots: list[str], verdicts: dict[str, Verdict],
                       home_roots: set[str]) -> None:
    """One name loaded from several files: the agent keeps every copy, the first by its precedence, or one
    that changes from run to run."""
    rank = {root: index for index, root in enumerate(roots)}
    policy = host.duplicates
    if policy.same_file is not None:
        _settle_same_files(host, files, roots, verdicts, home_roots)
    by_name: dict[str, list[Found]] = {}
    for found in files:
        verdict = verdicts[found.path]
        if verdict.loads and verdict.name is not None:
            by_name.setdefault(verdict.name, []).append(found)
    for name, copies in by_name.items():
        if len(copies) < 2:
            continue
        copies.sort(key=lambda f: (rank.get(f.root, len(rank)), f.path))
        others = [found.path for found in copies]
        if policy.policy == "all":
            for found in copies:
                rest = ", ".join(path for path in others if path != found.path)
                verdicts[found.path] = _with_note(
                    verdicts[found.path], f"{host.label} keeps every copy of `{name}`: the model sees this one "
                    f"and {rest}; rename one of them",
                )
        elif policy.policy == "unstable":
            _unstable(host, name, copies, verdicts)
        else:
            winner = copies[0].path
            tied = [found for found in copies if found.root == copies[0].root]
            unsorted = policy.unsorted_within_root or (
                policy.unsorted_with_links and any(found.folder_link or found.file_link for found in tied))
            if unsorted and len(tied) > 1:
                _unstable(host, name, tied, verdicts)
                winner = f"one of {', '.join(found.path for found in tied)}"
            for found in copies[len(tied) if unsorted else 1:]:
                said = policy.message.format(name=name, winner=winner, loser=found.path) if policy.message else (
                    f"skipped silently: `{name}` is also at {winner}, which {host.label} reads first"
                )
                verdicts[found.path] = Verdict(SKIPPED, reason=f"{said.rstrip('.')}; rename one of them")


def _settle_same_files(host: HostModel, files: tuple[Found, ...], roots: list[str], verdicts: dict[str, Verdict],
                       home_roots: set[str]) -> None:
    """One file on disk reached by several paths is listed once, under the first path in the agent's order."""
    home_first = host.duplicates.same_file == "home-first"
    rank = {root: (home_first and root not in home_roots, index) for index, root in enumerate(roots)}
    by_file: dict[tuple[int, int], list[Found]] = {}
    for found in files:
        if not verdicts[found.path].loads:
            continue
        try:
            target = os.stat(found.path)  # through the links: the file itself
        except OSError:
            continue
        by_file.setdefault((target.st_dev, target.st_ino), []).append(found)
    for copies in by_file.values():
        if len(copies) < 2:
            continue
        copies.sort(key=lambda f: (rank.get(f.root, (True, len(rank))), f.path))
        for found in copies[1:]:
            verdicts[found.path] = Verdict(
                SKIPPED, reason=f"skipped silently: this is the file {copies[0].path} is too (a link), and "
                f"{host.label} lists one file once, under that path; remove the link if it is not needed")


def _unstable(host: HostModel, name: str, copies: list[Found], verdicts: dict[str, Verdict]) -> None:
    """Each copy may or may not be the one loaded: not known (`loads: null`), the name it would have kept."""
    for found in copies:
        others = ", ".join(other.path for other in copies if other.path != found.path)
        verdicts[found.path] = _with_note(
            verdicts[found.path],
            f"{NOT_DETERMINISTIC}: {host.label} loads one of the {len(copies)} copies of `{name}` (also {others}) "
            "and which one changes from run to run; rename one of them",
        )._replace(status=UNKNOWN)


def _with_note(verdict: Verdict, note: str) -> Verdict:
    reason = note if verdict.reason is None else f"{verdict.reason}; {note}"
    return verdict._replace(status=WARNS, reason=reason)


def _cost(text: str, unit: str) -> int:
    return len(text.encode("utf-8")) if unit == "bytes" else len(text)


def _spend_budget(host: HostModel, files: tuple[Found, ...], verdicts: dict[str, Verdict]) -> BudgetUse | None:
    """The loaded skills' names and descriptions against the agent's budget, and what the overflow cuts."""
    budget = host.budget
    if budget is None:
        return None
    loaded = [found.path for found in files if verdicts[found.path].loads]
    entries = {path: (verdicts[path].name or "", verdicts[path].description_seen or "") for path in loaded}
    used = sum(_cost(name, budget.unit) + _cost(text, budget.unit) for name, text in entries.values())
    if budget.total is None or used <= budget.total:
        return BudgetUse(used, budget.total, budget.unit, budget.figure, (), ())
    cut: list[str] = []
    left_out: list[str] = []
    if budget.overflow == "shorten":
        names = sum(_cost(name, budget.unit) for name, _text in entries.values())
        room = budget.total - names
        if room >= 0:
            keep = _water_level([len(text) for _name, text in entries.values()], room)
            for path, (_name, text) in entries.items():
                if len(text) > keep:
                    cut.append(path)
                    verdicts[path] = _with_note(
                        verdicts[path]._replace(description_seen=text[:keep]),
                        f"description cut to {keep} characters: {host.label}'s catalog budget ({budget.figure}) "
                        f"is exceeded ({used:,} {budget.unit} of names and descriptions); shorten the longest",
                    )
        else:
            left_out = _drop_past(host, entries, budget.total, verdicts, used)
    elif budget.overflow == "names-only":
        for path in loaded:
            cut.append(path)
            verdicts[path] = _with_note(
                verdicts[path],
                f"may be listed by name only: {host.label}'s catalog budget ({budget.figure}) is exceeded "
                f"({used:,} {budget.unit}) and it drops the descriptions of the skills used least",
            )
    else:
        left_out = _drop_past(host, entries, budget.total, verdicts, used)
    return BudgetUse(used, budget.total, budget.unit, budget.figure, tuple(cut), tuple(left_out))


def _water_level(lengths: list[int], room: int) -> int:
    """The largest cut length L with sum(min(length, L)) <= room: descriptions shortened in turn, longest first."""
    low, high = 0, max(lengths, default=0)
    while low < high:
        middle = (low + high + 1) // 2
        if sum(min(length, middle) for length in lengths) <= room:
            low = middle
        else:
            high = middle - 1
    return low


def _drop_past(host: HostModel, entries: dict[str, tuple[str, str]], total: int, verdicts: dict[str, Verdict], used: int) -> list[str]:
    assert host.budget is not None
    spent, dropped = 0, []
    for path, (name, text) in sorted(entries.items(), key=lambda item: (item[1][0], item[0])):
        spent += _cost(name, host.budget.unit) + _cost(text, host.budget.unit)
        if spent > total:
            dropped.append(path)
            verdicts[path] = Verdict(
                SKIPPED,
                name=verdicts[path].name,
                reason=f"left out of the model's list: {host.label}'s catalog budget ({host.budget.figure}) is "
                f"exceeded ({used:,} {host.budget.unit}); shorten descriptions or remove skills",
            )
    return dropped

