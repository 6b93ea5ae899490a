"""What the generated twin skills are made of: a sample (its files and where it must be flagged), documents that
count their own lines, names and hosts drawn from a seeded random source, and the places a snippet can be put
(a script, a fenced block in SKILL.md or a reference, an untagged block, an inline code span), with padding.

Every address is under the `.invalid` top-level name (it never resolves) and every payload is harmless if
run; nothing is copied from real malware or from public skills. generator_shapes.py writes the categories.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

WORDS = ("report chart table summary invoice dataset schema draft release notes review layout figure index ledger "
         "poster slide budget roster agenda memo outline survey metric badge label").split()
VERBS = "format check build render sort merge tidy export convert update".split()
PROSE = (
    "Read the input first and keep its order.", "Each section gets its own heading.",
    "Use the tables in the reference when a value is missing.", "Keep the wording short and plain.",
    "The output goes next to the input with the same name.", "Numbers keep two decimals.",
    "Ask which layout the person wants when the request is unclear.", "Dates are written as 2025-01-31.",
    "Lists longer than ten items are split into groups.", "Check the result against the example below.",
)


@dataclass
class Expected:
    """Where a dangerous sample must be flagged: a warning of one of `codes` in `path` (relative to the skill
    folder; `ARCHIVE!/PART` for a part of a ZIP-based file) on one of `lines` (1-based; empty: any line)."""

    path: str
    lines: frozenset[int]
    codes: frozenset[str]


@dataclass
class Sample:
    """One generated skill: its category, whether it is the dangerous twin, its files (text or bytes), links
    to make (name -> target), the evasions used, and where it must be flagged (dangerous twins only)."""

    category: str
    dangerous: bool
    files: dict[str, str | bytes] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    evasions: list[str] = field(default_factory=list)
    expected: list[Expected] = field(default_factory=list)

    def expect(self, path: str, lines: list[int] | tuple[int, ...], *codes: str) -> None:
        self.expected.append(Expected(path, frozenset(lines), frozenset(f"security-{code}" for code in codes)))


class Doc:
    """A text built line by line, which says at which 1-based line each addition starts."""

    def __init__(self, *lines: str) -> None:
        self.lines: list[str] = list(lines)

    def add(self, *lines: str) -> int:
        first = len(self.lines) + 1
        self.lines.extend(lines)
        return first

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class Draw:
    """The seeded choices of one sample: names, hosts, prose, padding."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, *options):  # type: ignore[no-untyped-def]
        return self.rng.choice(options)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def word(self) -> str:
        return self.rng.choice(WORDS)

    def name(self) -> str:
        return f"{self.rng.choice(VERBS)}-{self.word()}"

    def var(self, shell: bool = False) -> str:
        name = self.word() + self.rng.choice(("", "_data", "_value", "_body", "_text"))
        return name.upper() if shell else name

    def host(self) -> str:
        """A host that is no skill's own service (a site of its own under .invalid)."""
        return f"{self.rng.choice(('sync', 'relay', 'cdn', 'edge', 'hub'))}.{self.word()}-{self.word()}.invalid"

    def url(self, host: str | None = None) -> str:
        return f"https://{host or self.host()}/{self.word()}/{self.rng.choice(('collect', 'in', 'v1/upload', 'c'))}"

    def prose(self, count: int = 2) -> list[str]:
        return [self.rng.choice(PROSE) for _ in range(count)]

    def padding(self, most: int) -> int:
        """How many filler lines go between two steps: none, a few, or many (past the text reading's window)."""
        return self.rng.choice((0, self.rng.randint(1, 4), self.rng.randint(25, most))) if most >= 25 else 0


def front(name: str, description: str, extra: str = "") -> list[str]:
    return ["---", f"name: {name}", f"description: {description}", *([extra] if extra else []), "---", ""]


def description(draw: Draw) -> str:
    return f"{draw.pick('Formats', 'Checks', 'Builds', 'Tidies')} {draw.word()} and {draw.word()} files for a team."


SHELL_FILLER = ('echo "step {n} done"', "# step {n}: keep going", 'mkdir -p "out/{n}"', "sleep 0", ": {n}")
PYTHON_FILLER = ("COUNT_{n} = {n}", "# step {n}", "print('step {n}')", "ITEMS_{n} = [{n}, {n}]")


def _add_steps(draw: Draw, sample: Sample, doc: Doc, steps: list[list[str]], filler: tuple[str, ...]) -> list[int]:
    """The steps added to doc with filler lines between them; the 1-based line of each step's first line."""
    lines = []
    for index, step in enumerate(steps):
        if index:
            pad = draw.padding(40)
            if pad >= 25:
                sample.evasions.append("padding")
            for n in range(pad):
                doc.add(draw.rng.choice(filler).format(n=n))
        lines.append(doc.add(*step))
    return lines


def place_prose(draw: Draw, sample: Sample, heading: str) -> tuple[str, Doc]:
    """Where a sentence goes: SKILL.md's body, or (half the time) a reference file of its own."""
    if draw.chance(0.5):
        path, doc = f"references/{draw.word()}.md", Doc(heading, "", *draw.prose())
        sample.files[path] = doc
        sample.evasions.append("reference")
        return path, doc
    doc = sample.files["SKILL.md"]
    assert isinstance(doc, Doc)
    return "SKILL.md", doc


def place_shell(draw: Draw, sample: Sample, steps: list[list[str]], name: str, *, inline: bool = False,
                untagged: bool = True) -> tuple[str, list[int]]:
    """Put shell steps somewhere in the skill (a script, a block of SKILL.md or a reference, an untagged block,
    or, for a single one-line step, an inline code span in a sentence), with filler between steps. Returns the
    file and the 1-based line of each step's first line."""
    places = ["script", "skill-block", "reference-block"] + (["untagged-block"] if untagged else [])
    if inline and len(steps) == 1 and len(steps[0]) == 1 and "`" not in steps[0][0]:
        places.append("inline-span")
    place = draw.rng.choice(places)
    sample.evasions.append(place)
    body = sample.files.get("SKILL.md")
    assert isinstance(body, Doc)
    if place == "inline-span":
        return "SKILL.md", [body.add(f"Before the first run, set things up with `{steps[0][0]}` and continue.")]
    if place == "script":
        path, doc = f"scripts/{draw.word()}-{name}.sh", Doc("#!/usr/bin/env bash", "set -euo pipefail")
        body.add(f"Run `{path}` once before the first use.")
        filler, open_, close = SHELL_FILLER, None, None
    else:
        path = "SKILL.md" if place == "skill-block" else f"references/{draw.word()}.md"
        if path == "SKILL.md":
            doc = body
        else:
            doc = Doc(f"# {draw.word().title()} setup", "", *draw.prose())
            body.add(f"See [{path}]({path}) for the setup.")
        tag = "" if place == "untagged-block" else draw.pick("bash", "sh", "shell")
        filler, open_, close = SHELL_FILLER, f"```{tag}", "```"
    if open_:
        doc.add("", open_)
    lines = _add_steps(draw, sample, doc, steps, filler)
    if close:
        doc.add(close, "")
    if path != "SKILL.md":
        sample.files[path] = doc
    return path, lines


def python_script(draw: Draw, sample: Sample, imports: list[str], steps: list[list[str]],
                  name: str) -> tuple[str, list[int]]:
    """A Python script of `steps` with filler between them; the 1-based line of each step's first line."""
    path = f"scripts/{name.replace('-', '_')}.py"
    doc = Doc("#!/usr/bin/env python3", f'"""{draw.pick("Builds", "Checks", "Sorts")} the {draw.word()}."""', "",
              *[f"import {module}" for module in sorted(set(imports))], "")
    lines = _add_steps(draw, sample, doc, steps, PYTHON_FILLER)
    sample.files[path] = doc
    body = sample.files["SKILL.md"]
    assert isinstance(body, Doc)
    body.add(f"Run `python3 {path}` on the input.")
    return path, lines


def skill(draw: Draw, category: str, dangerous: bool, desc: str | None = None, extra: str = "") -> Sample:
    """A sample with its SKILL.md begun: frontmatter, a heading and some prose."""
    sample = Sample(category, dangerous)
    name = draw.name()
    sample.files["SKILL.md"] = Doc(*front(name, desc or description(draw), extra), f"# {name}", "", *draw.prose(3), "")
    return sample
