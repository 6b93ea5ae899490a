"""Agreement between the agents' own answers and the project's verdict, per agent, with each disagreement.

A file agrees when both say it loads under the same name, or both say it does not. Where the agent's answer
shows the description its model is given (every runner but one fills `description`), a file that loads in
both also agrees on its description when the two are the same text, runs of whitespace read as one space
("" on both sides: listed by name alone). Where an agent's runs
gave different answers (OpenCode's winner for a name found twice), the project must say "not
deterministic"; it may say so of a file whose runs all agreed only when the recorded observations of the
same version saw that file vary.
"""

from __future__ import annotations

from typing import NamedTuple

from . import fixture
from .verdict import says_not_deterministic

WHY = {case.path: case.why for case in fixture.cases()}


class Disagreement(NamedTuple):
    host: str
    path: str
    agent: str  # what the agent did
    project: str  # what the project says
    said: str | None  # the agent's own words, when it printed any
    why: str | None = None  # the case the file stands for (the fixture's, or a generated file's features)

    def line(self) -> str:
        why = self.why or WHY.get(self.path)
        case = f" [{why}]" if why else ""
        words = f"; the agent said: {self.said}" if self.said else ""
        return f"  {self.host}: {self.path}{case}\n    agent: {self.agent}; project: {self.project}{words}"


class Agreement(NamedTuple):
    host: str
    version: str
    agreed: int
    total: int
    disagreements: list[Disagreement]
    described_agreed: int = 0  # files that load in both with the same name and whose description was compared
    described_total: int = 0
    description_disagreements: tuple[Disagreement, ...] = ()


def same_text(first: str | None, second: str | None) -> bool:
    return " ".join((first or "").split()) == " ".join((second or "").split())


def _show(outcome: dict) -> str:
    return f"loads as `{outcome['name']}`" if outcome["loads"] else "does not load it"


def _project(verdict: dict) -> str:
    shown = _show(verdict)
    return f"{shown} ({verdict['reason']})" if verdict.get("reason") else shown


def compare_host(host: str, observed: dict, verdicts: dict, varied_before: set[str] = frozenset(),
                 unstable_agent: bool = False, why: dict[str, str] | None = None) -> Agreement:
    """`observed` is one agent's observation (observe.py); `verdicts` the project's skills for that host.
    `unstable_agent`: the recorded runs showed this agent's choice between copies varying (on other files):
    over a tree with no recording of its own, a "not deterministic" file agrees with any one outcome the
    project allows (that copy loading under its name, or not loading). Without that evidence, a run agrees
    with "not deterministic" when it loaded exactly one of the copies the project says it picks among (an
    agent whose pick follows the order the file system lists a folder in: the same every run, unknowable
    from the names)."""
    disagreements: list[Disagreement] = []
    described: list[Disagreement | None] = []
    skills = observed["skills"]
    why = why or {}
    # The copies the project calls "not deterministic", by name, and how many of them the agent loaded: one
    # run agrees with that verdict when it loaded exactly one of them.
    loaded_copies: dict[str, int] = {}
    for path, verdict in verdicts.items():
        if says_not_deterministic(verdict) and "outcomes" not in skills.get(path, {}):
            loaded_copies[verdict["name"]] = loaded_copies.get(verdict["name"], 0) + bool(skills.get(path, {}).get("loads"))
    for path, seen in skills.items():
        verdict = verdicts.get(path)
        said = seen.get("said")
        before = len(disagreements)
        if verdict is None:
            # A file in no root of any agent (a link's target elsewhere in the workspace): nothing to say of it
            # but that it does not load, which the agent must agree with.
            verdict = {"loads": False, "name": None}
        nondeterministic = says_not_deterministic(verdict)
        if "outcomes" in seen:
            if not nondeterministic:
                disagreements.append(Disagreement(host, path, _agent(seen), _project(verdict), said))
        elif nondeterministic:
            one_of = _one_of_the_copies(seen, verdict)
            if path not in varied_before and not (unstable_agent and one_of) and not (
                    one_of and loaded_copies.get(verdict["name"]) == 1):
                disagreements.append(Disagreement(
                    host, path, f"{_show(seen)} in every run", _project(verdict), said))
        elif seen["loads"] != verdict["loads"] or (seen["loads"] and seen["name"] != verdict["name"]):
            disagreements.append(Disagreement(host, path, _agent(seen), _project(verdict), said))
        if len(disagreements) > before:
            disagreements[-1] = disagreements[-1]._replace(why=why.get(path))
        elif "outcomes" not in seen and seen["loads"] and "description" in seen and verdict["loads"]:
            agrees = same_text(seen["description"], verdict.get("description_seen"))
            described.append(None if agrees else Disagreement(
                host, path, f"the model is given {_quote(seen['description'])}",
                f"description seen {_quote(verdict.get('description_seen'))}", said, why.get(path)))
    for path in sorted(set(verdicts) - set(skills)):
        disagreements.append(Disagreement(host, path, "(not a file of the tree)", _project(verdicts[path]), None))
    total = len(skills)
    wrong = tuple(item for item in described if item is not None)
    return Agreement(host, observed["version"], total - len(disagreements), total, disagreements,
                     len(described) - len(wrong), len(described), wrong)


def _quote(text: str | None) -> str:
    if not text:
        return "no description (name only)"
    shown = " ".join(text.split())
    return f'"{shown[:80]}…" ({len(shown):,} characters)' if len(shown) > 80 else f'"{shown}"'



def _one_of_the_copies(seen: dict, verdict: dict) -> bool:
    return not seen["loads"] or seen["name"] == verdict["name"]


def _agent(seen: dict) -> str:
    if "outcomes" in seen:
        return "varies between runs: " + " / ".join(_show(outcome) for outcome in seen["outcomes"])
    return _show(seen)


def varied_paths(observed: dict) -> set[str]:
    return {path for path, seen in observed["skills"].items() if "outcomes" in seen}


def compare_all(observations: dict, project: dict, recorded: dict | None = None,
                same_tree: bool = True, why: dict[str, str] | None = None) -> list[Agreement]:
    """Every agent of `observations` against the project. `recorded` (same versions) lends its evidence of
    answers that vary: for the same files when `same_tree`, else as "this agent's choice varies"."""
    found = []
    for host, observed in observations["agents"].items():
        before: set[str] = set()
        if recorded is not None:
            old = recorded["agents"].get(host)
            if old is not None and old["version"] == observed["version"]:
                before = varied_paths(old)
        found.append(compare_host(host, observed, project[host]["skills"],
                                  (before if same_tree else set()) | varied_paths(observed),
                                  unstable_agent=not same_tree and bool(before), why=why))
    return found


def report(agreements: list[Agreement]) -> str:
    lines = []
    for each in agreements:
        share = 100.0 * each.agreed / each.total if each.total else 100.0
        described = ""
        if each.described_total:
            described = (f"; descriptions {each.described_agreed}/{each.described_total} "
                         f"({100.0 * each.described_agreed / each.described_total:.1f}%)")
        lines.append(f"{each.host} {each.version}: {each.agreed}/{each.total} files agree ({share:.1f}%){described}")
    for each in agreements:
        lines += [disagreement.line() for disagreement in each.disagreements]
        lines += [disagreement.line() for disagreement in each.description_disagreements]
    return "\n".join(lines)
