"""The values of the agent models: what an agent reads (as data), and the verdict it gives one file.

An agent model is a `HostModel`: its roots in the agent's precedence order, how it walks them (`Walk`), how
it settles a name found twice (`Duplicates`), its catalog budget (`Budget`), the rules a reader can check
(`Rule`, each with its evidence) and one function, `judge`, that reads one file's facts as the agent does.
Each agent is one module of this package that builds its `MODEL`; `hosts/__init__.py` lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Literal, NamedTuple

if TYPE_CHECKING:  # pragma: no cover - typing only
    from .facts import SkillFacts
    from .walker import Found

Base = Literal["workspace", "home"]
Status = Literal["loads", "warns", "skipped", "not-seen", "unknown"]

LOADS: Status = "loads"
WARNS: Status = "warns"  # loads, with something the user should know (a warning, a cut, a made-up description)
SKIPPED: Status = "skipped"
NOT_SEEN: Status = "not-seen"
# Not known: albedo-skills did not judge the file (not UTF-8, past the size bound, unreadable), or the agent
# picks one of several copies of a name and which one changes from run to run. The JSON says `loads: null`.
UNKNOWN: Status = "unknown"

# How a reason starts when the agent's choice among copies of one name changes from run to run.
NOT_DETERMINISTIC = "not deterministic"


class Evidence(NamedTuple):
    """How a fact about an agent is known. `how` is one of the phrases below, said to the user as is."""

    version: str
    how: str  # "run here with Codex CLI 0.171.0 ...", "from Zed's source (... at 1597378f), not run"
    short: str  # the same in a few words, for a diagnostic's message: "run here", "from its source, not run"
    package: str = ""  # the npm package that was run (scripts/hosts_conformance installs it at `version`)

    def __str__(self) -> str:
        return self.how


def run_here(agent: str, version: str, package: str, on: str) -> Evidence:
    """An agent run offline by scripts/hosts_conformance at `version`, the day `on`. This call is the one place
    a version is pinned: the conformance step installs `package@version` from it, so moving to a new release
    is this one line and a rerun of the conformance batches."""
    return Evidence(version, f"run here with {agent} {version} (npm {package}), offline, on {on}", "run here", package)


def read_in_source(agent: str, version: str, where: str) -> Evidence:
    return Evidence(version, f"from {agent}'s source {where}, not run", "from its source, not run")


class Rule(NamedTuple):
    """One rule of an agent's loader, as the docs and the hover list it, with how it is known."""

    what: str
    evidence: str  # "run", "source", "changelog", "docs", "inferred" and a few words where needed


class Walk(NamedTuple):
    """How an agent walks one of its roots."""

    max_levels: int | None  # folder levels between the root and SKILL.md (1: root/x/SKILL.md); None: no limit seen
    root_file: bool = False  # a SKILL.md directly in the root is a skill
    file_links: bool = True  # a SKILL.md that is a symbolic link is read
    folder_links: bool = True  # linked folders are followed
    dot_folders: bool = True  # folders whose name starts with `.` are walked
    skill_hides_below: bool = False  # a folder holding SKILL.md is not walked further (its subfolders vanish)


class Duplicates(NamedTuple):
    """What an agent does with one name found in several files.

    `policy`: "all" keeps every copy; "first" keeps the copy whose root comes first in `HostModel.roots`
    (then the first path); "unstable" keeps one whose choice changes from run to run. `message` is how the
    loser is reported ({winner} is the winner's path), or None when the agent says nothing."""

    policy: Literal["all", "first", "unstable"]
    message: str | None = None
    evidence: str = ""
    # "first" between roots, but between copies in one root the order of a walk the agent does not sort:
    # then those copies are "not deterministic" among themselves.
    unsorted_within_root: bool = False
    # The same, only where one of the copies in that root is reached through a linked folder or file (real
    # folders alone are taken in order of their paths).
    unsorted_with_links: bool = False
    # One file on disk reached by several paths (a linked folder or a linked SKILL.md beside the real one):
    # None, each path is a copy of its own; "roots", the agent lists the file once, under the first path in
    # its order (roots by precedence, then by path); "home-first", the same with the home roots first.
    same_file: Literal["roots", "home-first"] | None = None


class Budget(NamedTuple):
    """An agent's catalog budget: the characters of names and descriptions the model is shown."""

    total: int | None  # characters (or bytes, `unit`) for the whole list; None: no whole-list limit
    per_entry: int | None  # characters of one description; None: no per-entry cut
    unit: Literal["chars", "bytes", "tokens"]
    overflow: Literal["shorten", "names-only", "drop"]  # what the agent does past `total`
    figure: str  # the figure as the docs and hover say it, with its evidence
    # (name, description, path below its root) -> the line the agent writes its model for one skill; when set,
    # the budget counts those lines, newlines included (`budget.py`)
    line: Callable[[str, str, str], str] | None = None
    # the agent's own skills in the same list (name, text, path): before yours where the overflow shortens
    # (Codex), after yours and given their descriptions only while they fit where it lists names (Claude Code)
    builtin: tuple[tuple[str, str, str], ...] = ()
    # what one line costs with its line break: characters by default; Claude Code counts terminal columns,
    # Codex estimated tokens
    line_cost: Callable[[str], int] = lambda text: len(text) + 1
    fixed: int = 0  # what the agent's own lines that are always shown whole take of `total`
    # a file's facts -> the name the agent writes in parentheses after the command when the file's own differs
    # (Claude Code's `- command (name): …`); the budget gives it to the first file that claims it only
    aside: Callable[[SkillFacts], str | None] | None = None


class Verdict(NamedTuple):
    """One agent's verdict on one file."""

    status: Status
    name: str | None = None  # the name (command) the agent gives it, when it loads (or would, when unknown)
    description_seen: str | None = None  # what the model is shown, when it loads
    reason: str | None = None  # why it is skipped, not seen, or what the warning says; None: loads cleanly

    @property
    def loads(self) -> bool:
        return self.status in (LOADS, WARNS)

    def to_json(self) -> dict[str, Any]:
        return {
            "loads": None if self.status == UNKNOWN else self.loads,
            "name": self.name,
            "description_seen": self.description_seen,
            "reason": self.reason,
        }


class HostModel(NamedTuple):
    """One agent's loader."""

    id: str
    label: str  # "Codex CLI"
    short: str  # two letters: its column in `albedo-skills hosts`, said once in the legend above the table
    evidence: Evidence
    roots: tuple[tuple[Base, str], ...]  # (base, relative path), in the agent's precedence order, highest first
    walk: Walk
    duplicates: Duplicates
    budget: Budget | None
    rules: tuple[Rule, ...]
    judge: Callable[[SkillFacts], Verdict] | None  # a readable file's content, as the agent reads it (`verdicts`)
    exact_file_name: str | None = "SKILL.md"  # None: the agent's judge decides on the file name itself
    every_file: bool = False  # a validator (skills-ref, the upload): judges every file found, it has no roots
    advice: str = ""  # what to do when a file lies outside every root the agent reads
    # An agent whose verdicts come from elsewhere than `judge` (Albedo: from discovery itself):
    # (files, workspace, home) -> {path: Verdict}
    verdicts: Callable[[tuple[Found, ...], str | None, str], dict[str, Verdict]] | None = None

    @property
    def version(self) -> str:
        return self.evidence.version

    @property
    def title(self) -> str:
        """"Codex CLI 0.171.0", or "Zed at 1597378f" when the version is a commit."""
        version = self.version
        if len(version) >= 7 and all(char in "0123456789abcdef" for char in version):
            return f"{self.label} at {version}"
        return f"{self.label} {version}"
