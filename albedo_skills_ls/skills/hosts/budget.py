"""Catalog budgets counted as the agents count them: the lines they write their model, measured when run.

An agent whose `Budget.line` is set writes one line per skill (`- name: description` and its variants) and
holds the whole list to `Budget.total`, each line costing `Budget.line_cost` (its line break included): Codex
counts estimated tokens (4 bytes each, rounded up per line), Claude Code terminal columns. Past it, Codex shares
the description space out a character at a time, round after round, so the long descriptions end cut to about
one length; Claude Code keeps, in list order, each description that still fits and lists the others by name
alone, its own bundled skills always whole (`Budget.fixed`). Both rules are in the agents' source and were
checked against what they sent their model (scripts/hosts_conformance `budgets` and `generated`). The agents
whose budget is known only from their source (Zed) keep the simpler count in `verdicts`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NamedTuple

from .model import WARNS, HostModel, Verdict

if TYPE_CHECKING:  # pragma: no cover - typing only
    from .facts import SkillFacts
    from .walker import Found


class BudgetUse(NamedTuple):
    """How much of an agent's catalog budget the loaded skills use, and what it cuts."""

    used: int
    total: int | None
    unit: str
    figure: str
    cut: tuple[str, ...]  # paths whose description the budget shortens or drops
    left_out: tuple[str, ...]  # paths the budget leaves out of the model's list

    @property
    def over(self) -> bool:
        return self.total is not None and self.used > self.total


def spend_lines(host: HostModel, files: tuple[Found, ...], roots: list[str], verdicts: dict[str, Verdict],
                facts_of: Callable[[Found], SkillFacts]) -> BudgetUse:
    budget = host.budget
    assert budget is not None and budget.line is not None and budget.total is not None
    line, total = budget.line, budget.total
    rank = {root: index for index, root in enumerate(roots)}
    # In the agent's order: its roots by precedence, then by path. A skill shown with no description at all
    # (`""`: Claude Code's `disable-model-invocation`) is not in the list.
    listed = sorted((found for found in files if verdicts[found.path].loads and verdicts[found.path].description_seen != ""),
                    key=lambda found: (rank.get(found.root, len(rank)), found.path))
    commands = {verdicts[found.path].name or "" for found in files if verdicts[found.path].loads}
    names = _listed_names(budget, listed, verdicts, facts_of, commands)
    entries = [(found.path, names[found.path], verdicts[found.path].description_seen or "",
                "/".join(found.parts)) for found in listed]
    every = [(None, name, text, where) for name, text, where in budget.builtin] + entries

    def cost(name: str, text: str, where: str) -> int:
        return budget.line_cost(line(name, text, where))

    used = budget.fixed + sum(cost(name, text, where) for _path, name, text, where in every)
    if used <= total:
        return BudgetUse(used, total, budget.unit, budget.figure, (), ())
    cut: list[str] = []
    if budget.overflow == "shorten":
        keep = _shared_out(every, total - budget.fixed, cost)
        for (path, name, text, where), chars in zip(every, keep):
            if path is not None and chars < len(text):
                cut.append(path)
                verdicts[path] = _noted(verdicts[path]._replace(description_seen=text[:chars]),
                                        f"description cut to {chars:,} characters: {host.label}'s catalog budget "
                                        f"({budget.figure}) is exceeded ({used:,} {budget.unit}); shorten the longest")
    else:  # names-only: in the agent's order, each description that still fits is kept, the others dropped
        order = entries + [(None, name, text, where) for name, text, where in budget.builtin]
        spent = budget.fixed + sum(cost(name, "", where) for _path, name, _text, where in order)
        for path, name, text, where in order:
            extra = cost(name, text, where) - cost(name, "", where)
            if spent + extra <= total:  # a skill after one that did not fit is still given its description
                spent += extra
                continue
            if path is None:
                continue
            cut.append(path)
            verdicts[path] = _noted(verdicts[path]._replace(description_seen=""),
                                    f"listed by name alone: {host.label}'s catalog budget ({budget.figure}) is "
                                    f"exceeded ({used:,} characters) and this description no longer fits")
    return BudgetUse(used, total, budget.unit, budget.figure, tuple(cut), ())


def _listed_names(budget, listed: list[Found], verdicts: dict[str, Verdict],  # type: ignore[no-untyped-def]
                  facts_of: Callable[[Found], SkillFacts], commands: set[str]) -> dict[str, str]:
    """Each file's name as the agent writes it in its list: the command, and with `budget.aside` the file's own
    name in parentheses when no command has that name and no file before it claimed it (Claude Code 2.1.332
    looks the name up among its commands and writes it only when the lookup finds this skill: its source; run
    here, e.g. `- s10400044-alpha (1.5): …`)."""
    claimed: set[str] = set()
    names = {}
    for found in listed:
        command = verdicts[found.path].name or ""
        aside = budget.aside(facts_of(found)) if budget.aside is not None else None
        names[found.path] = command
        if aside is None or aside in commands:
            continue
        if aside not in claimed:
            names[found.path] = f"{command} ({aside})"
        claimed.add(aside)
    return names


def _shared_out(every: list, room: int, cost) -> list[int]:  # type: ignore[no-untyped-def,type-arg]
    """How many characters of each description fit `room` when the space is shared out one character at a
    time, round after round, in list order, each character taken when what it adds to its line's cost still
    fits (Codex: its source, `render_lines_with_description_budget`; run here, 0.171.0: every cut at 100 and
    300 skills, 348 or 352 and 92 to 96 characters, is this one's). A short description drops out early and
    leaves its share to the longer ones; a line's cost moves in steps (tokens), so the cuts differ by a few."""
    minimum = [cost(name, "", where) for _path, name, _text, where in every]
    remaining = room - sum(minimum)
    keep = [0] * len(every)
    added = [0] * len(every)
    changed = remaining >= 0
    while changed:
        changed = False
        for index, (_path, name, text, where) in enumerate(every):
            if keep[index] >= len(text):
                continue
            grown = cost(name, text[: keep[index] + 1], where) - minimum[index]
            if grown - added[index] <= remaining:
                remaining -= grown - added[index]
                keep[index], added[index] = keep[index] + 1, grown
                changed = True
    return keep


def _noted(verdict: Verdict, note: str) -> Verdict:
    reason = note if verdict.reason is None else f"{verdict.reason}; {note}"
    return verdict._replace(status=WARNS, reason=reason)
