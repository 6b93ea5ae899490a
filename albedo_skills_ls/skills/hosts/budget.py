"""Catalog budgets counted as the agents count them: the lines they write their model, measured when run.

An agent whose `Budget.line` is set writes one line per skill (`- name: description` and its variants) and
holds the whole list to `Budget.total` characters, newlines included, its own built-in skills counted too
(`Budget.builtin`). Past it, Codex shortens every description to one common length (the longest that fits)
and Claude Code keeps the descriptions of the skills it lists first and gives the rest by name alone
(scripts/hosts_conformance `budgets` measured both at 10, 100 and 300 skills). The agents whose budget is
known only from their source (Zed) keep the simpler count in `verdicts`.
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
        return budget.measure(line(name, text, where)) + 1

    used = budget.fixed + sum(cost(name, text, where) for _path, name, text, where in every)
    if used <= total:
        return BudgetUse(used, total, budget.unit, budget.figure, (), ())
    cut: list[str] = []
    if budget.overflow == "shorten":
        keep = _common_length(every, total, cost)
        for path, name, text, where in entries:
            if len(text) > keep:
                cut.append(path)
                verdicts[path] = _noted(verdicts[path]._replace(description_seen=text[:keep]),
                                        f"description cut to {keep:,} characters: {host.label}'s catalog budget "
                                        f"({budget.figure}) is exceeded ({used:,} characters); shorten the longest")
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


def _common_length(every: list, total: int, cost) -> int:  # type: ignore[no-untyped-def,type-arg]
    """The longest description length L with every description cut to L fitting `total`."""
    low, high = 0, max((len(text) for _path, _name, text, _where in every), default=0)
    while low < high:
        middle = (low + high + 1) // 2
        if sum(cost(name, text[:middle], where) for _path, name, text, where in every) <= total:
            low = middle
        else:
            high = middle - 1
    return low


def _noted(verdict: Verdict, note: str) -> Verdict:
    reason = note if verdict.reason is None else f"{verdict.reason}; {note}"
    return verdict._replace(status=WARNS, reason=reason)
