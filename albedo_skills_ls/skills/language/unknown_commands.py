"""`command-unknown`: a `/word` standing alone that runs nothing here, one small edit from a command that does.

After a rename, or with a slip of the keyboard, a skill's instructions tell the model to run a command that
does not exist ("run /demoo again"), and nothing else notices. A `/word` standing alone (`command_tokens.py`,
the rule mentions use) in a skill's body, an agent file (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`) or a chat file
is compared with the catalog's commands (what `commands.catalog` offers: the built-ins and the winning
skills; after `/skill:`, the skills only). It warns only when it is not one of them and one of them is near: within
`COMMAND_TYPO_EDITS` edits (a letter added, dropped, changed, or two neighbours swapped; letter case is free),
among commands of at least `MIN_TYPO_COMMAND_CHARS` characters, or it is the old name of a skill renamed in
this session. Only running text is read: a code span holding a lone `/word` is as often a URL's path as a
command (`` `/docs` `` beside a skill `docx`, in a public collection), so code spans never warn. A `/word` near no command is text (`/tmp`, `/api`), and the top folders of a Unix file system
(`NEVER_COMMANDS`) never warn, whatever the catalog holds.

Near commands are found with an index of every command with up to `COMMAND_TYPO_EDITS` letters deleted: two
words within that many edits share a deletion of each, so a lookup costs the word's own deletions, whatever
the catalog's size, and each distinct word of a file is looked up once (a file of 100,000 `/x` is one lookup).
Findings are silenced, with a reason, by the security reading's markers
(`<!-- albedo-skills-ignore command-unknown: why -->`, security/suppression.py).
"""

from __future__ import annotations

import os
from typing import Iterable, Mapping, NamedTuple

from ..core import codes
from ..core.limits import COMMAND_TYPO_EDITS, MAX_NAME_CHARS, MIN_TYPO_COMMAND_CHARS
from ..core.model import Catalog, Diagnostic, Range
from ..document.frontmatter import lines_of
from ..document.markdown_spans import prose_lines_holding
from ..document.skill_file import SKILL_FILE
from .command_tokens import SKILL_FORM, Token, line_commands
from .mention_scan import frontmatter_lines
from .mentions import DEFAULT_CHAT_PATTERNS, read_text, walk_workspace

# The top folders of the Filesystem Hierarchy Standard (and macOS's): `/tmp` in a sentence is a place.
NEVER_COMMANDS = frozenset(
    "bin boot dev etc home lib lib32 lib64 media mnt opt proc root run sbin srv sys tmp usr var "
    "applications library private system users volumes".split()
)
MAX_SUGGESTIONS = 3  # near commands named in one finding (the nearest, then by name)


class Commands(NamedTuple):
    """The catalog's commands as `command-unknown` compares words with them."""

    plain: frozenset[str]  # the words `/word` runs: built-ins and winning skills
    skills: frozenset[str]  # the words `/skill:word` runs
    renamed: Mapping[str, str]  # a skill's old name -> its new one, for renames of this session
    near: Mapping[str, frozenset[str]]  # a command with letters deleted -> the commands it comes from


class Unknown(NamedTuple):
    """A finding, the commands it suggests (names, nearest first) and the form it was typed in."""

    diagnostic: Diagnostic
    suggestions: tuple[str, ...]
    skill_form: bool

    def replacements(self) -> tuple[str, ...]:
        """What a quick fix writes over the finding's range: each suggestion, typed in the same form."""
        form = SKILL_FORM if self.skill_form else "/"
        return tuple(form + name for name in self.suggestions)


def deletions(word: str, edits: int = COMMAND_TYPO_EDITS) -> set[str]:
    """`word` and every string made from it by deleting up to `edits` letters."""
    found = {word}
    frontier = {word}
    for _ in range(edits):
        frontier = {item[:index] + item[index + 1 :] for item in frontier for index in range(len(item))}
        found |= frontier
    return found


def commands_of(catalog: Catalog, renamed: Mapping[str, str] | None = None) -> Commands:
    """What `commands.catalog` offers, read off the catalog itself (the activation stage, which lists it, loads
    the session's machinery a `check` does without): the built-ins and each skill's command, `/skill:NAME`
    for a skill whose name a built-in holds."""
    plain = frozenset(catalog.builtins) | frozenset(
        skill.command[1:] for skill in catalog.skills if not skill.command.startswith(SKILL_FORM)
    )
    skills = frozenset(skill.name for skill in catalog.skills)
    near: dict[str, set[str]] = {}
    for name in plain | skills:
        if len(name) >= MIN_TYPO_COMMAND_CHARS:
            for variant in deletions(name):
                near.setdefault(variant, set()).add(name)
    frozen = {variant: frozenset(names) for variant, names in near.items()}
    return Commands(plain, skills, dict(renamed or {}), frozen)


def edit_distance(a: str, b: str) -> int:
    """Edits from `a` to `b`: letters inserted, deleted, changed, and two neighbours swapped (optimal string
    alignment). Only ever asked of a word and a command found near it, both under MAX_NAME_CHARS + edits."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)]


def suggestions(commands: Commands, word: str, skill_form: bool) -> tuple[str, ...]:
    """The commands a `/word` (or `/skill:word`) that runs nothing was likely meant as; () when it runs one,
    or none is near."""
    pool = commands.skills if skill_form else commands.plain
    if word in pool:
        return ()
    lowered = word.lower()
    if lowered in NEVER_COMMANDS:
        return ()
    new = commands.renamed.get(lowered)
    if new is not None and new in pool:
        return (new,)
    if len(lowered) > MAX_NAME_CHARS + COMMAND_TYPO_EDITS:
        return ()
    found: set[str] = set()
    for variant in deletions(lowered):
        found |= commands.near.get(variant, frozenset())
    scored = sorted(
        (distance, name)
        for name in found & pool
        if (distance := edit_distance(lowered, name)) <= COMMAND_TYPO_EDITS
    )
    return tuple(name for _distance, name in scored[:MAX_SUGGESTIONS])


def _message(commands: Commands, token: Token, near: tuple[str, ...]) -> str:
    form = SKILL_FORM if token.skill_form else "/"
    meant = " or ".join(f"`{form}{name}`" for name in near)
    new = commands.renamed.get(token.name.lower())
    if new is not None and near == (new,):
        return f"`{token.written}` is no command here: `{token.name}` was renamed to `{new}`; did you mean {meant}?"
    return f"`{token.written}` is no command here; did you mean {meant}?"


def check_text(commands: Commands, path: str, text: str, *, skip_frontmatter: bool = False) -> list[Unknown]:
    """Every `command-unknown` of one file's text, markers applied. `skip_frontmatter`: a `SKILL.md`, whose
    frontmatter is data (its description names no command for the model to run)."""
    skip = frontmatter_lines(lines_of(text)) if skip_frontmatter else range(0)
    known: dict[tuple[str, bool], tuple[str, ...]] = {}
    found: list[Unknown] = []
    # only the prose lines holding a `/`, found by searching the text (most lines hold none)
    for number, line in prose_lines_holding(text, 0, 0, "/"):
        if number in skip:
            continue
        for command in line_commands(line):
            if command.kind == "code":
                continue  # `/docs` alone in a code span is as often a URL's path as a command: left alone
            token = command.token
            key = (token.name, token.skill_form)
            near = known.get(key)
            if near is None:
                near = known[key] = suggestions(commands, token.name, token.skill_form)
            if near:
                where = Range.of(number, token.slash, number, token.end)
                diagnostic = codes.COMMAND_UNKNOWN.at(path, _message(commands, token, near), where)
                found.append(Unknown(diagnostic, near, token.skill_form))
    if not found:
        return []
    # only a file with a finding reads its markers: the editor loads the security stage when a setting asks
    from ..security.suppression import apply_markers

    kept = set(apply_markers(path, text, tuple(unknown.diagnostic for unknown in found)).kept)
    return [unknown for unknown in found if unknown.diagnostic in kept]


def check_files(commands: Commands, skill_files: Iterable[str], other_files: Iterable[str]) -> dict[str, tuple[Diagnostic, ...]]:
    """`command-unknown` of files on disk, by path: the bodies of `skill_files`, the whole of `other_files`
    (agent and chat files). Files are read as safely as a `SKILL.md`; an unreadable one is skipped."""
    found: dict[str, tuple[Diagnostic, ...]] = {}
    for path, is_skill in [(path, True) for path in skill_files] + [(path, False) for path in other_files]:
        text = read_text(path)
        if text is None or "/" not in text:
            continue
        unknowns = check_text(commands, path, text, skip_frontmatter=is_skill)
        if unknowns:
            found[path] = tuple(unknown.diagnostic for unknown in unknowns)
    return found


def check_catalog(catalog: Catalog, commands: Commands, chat_patterns: tuple[str, ...] = DEFAULT_CHAT_PATTERNS) -> tuple[
    dict[str, tuple[Diagnostic, ...]], str | None
]:
    """`command-unknown` of every `SKILL.md` the catalog examined and, with a workspace, of its agent and chat
    files (mentions.py's walk: agent definitions are left out, their `skills:` list names no command); and
    why the walk stopped early, or None."""
    skill_files = [path for path in catalog.file_diagnostics if os.path.basename(path) == SKILL_FILE]
    skill_files += [skill.path for skill in catalog.skills]
    others: list[str] = []
    truncated = None
    if catalog.workspace is not None:
        walked, truncated = walk_workspace(catalog.workspace, chat_patterns)
        others = [path for path, definition in walked if not definition]
    return check_files(commands, dict.fromkeys(skill_files), others), truncated
