"""Deterministic generator of realistic skill trees for the benchmarks.

    python benchmarks/generate.py OUT [--skills 128] [--home-skills 8] [--seed 1] [--big]

Writes `OUT/ws/.agents/skills/<name>/SKILL.md` (+ some `references/` and `scripts/` files) and a few skills
under `OUT/home/.agents/skills` (and `OUT/home/.albedo/skills`), so that `ws` plus `home` hold exactly
`--skills` candidates. Every skill is valid; about one in sixteen carries a field other hosts define
(`argument-hint`, `version`, ...), which Albedo reports as information, so a server has some diagnostics to
publish, as it would on a real machine.

Each `SKILL.md` looks like the ones people publish: frontmatter with `name`, a multi-line `description`
of about 300 characters (folded, literal or plain), `license`, `compatibility`, a `metadata` map and
`allowed-tools`, 1–2 KiB in all; then a Markdown body of 40–150 lines with headings, lists, code and a
table. The same seed always gives the same bytes.

`--big` also writes `OUT/big/ws/.agents/skills/` with the stress cases:
- `wide-frontmatter`: a frontmatter just under the 64 KiB bound (a 900-entry `metadata` map);
- `deep-resources`: a resource tree of exactly 2,048 entries (files and folders, at most 512 files), the
  most `skills.resources` ever examines, plus `references/page-64k.md` (64 KiB of UTF-8) and
  `references/manual-4m.md` (4 MiB) for `skills.read`;
- `many-files`: 2,048 regular files in 32 folders (the walk stops at the 512-file bound).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
from dataclasses import dataclass

WORDS = (
    "pdf form table chart invoice report slide deck spreadsheet query schema migration release changelog "
    "review test coverage lint format docker image deploy cluster metric alert incident runbook ticket "
    "commit branch merge diff patch api client server cache queue worker job pipeline build artifact "
    "secret token policy audit log trace span dashboard notebook dataset model prompt template brand "
    "style guide email draft summary meeting notes calendar invoice contract clause legal compliance "
    "translation locale font icon diagram svg png video audio transcript caption subtitle archive backup"
).split()
VERBS = (
    "fill extract convert validate generate review summarize draft migrate deploy analyze refactor format "
    "lint test document translate render compress audit monitor triage"
).split()
TOOLS = ("Read", "Write", "Edit", "Grep", "Glob", "Bash(git:*)", "Bash(python:*)", "Bash(npm:*)", "WebFetch")
LICENSES = ("Apache-2.0", "MIT", "Proprietary. LICENSE.txt has complete terms", "BSD-3-Clause", "CC-BY-4.0")
# fields other hosts define, with the values people give them (Albedo reports them as information)
HOST_FIELDS = (
    ("argument-hint", '"[file] [--dry-run]"'),
    ("version", '"1.2.0"'),
    ("user-invocable", "true"),
    ("model", "sonnet"),
    ("when_to_use", '"When the user asks for a report or a summary."'),
)
LANGUAGES = ("python", "bash", "json", "yaml", "typescript")


@dataclass(frozen=True)
class Tree:
    root: str
    workspace: str
    home: str
    workspace_skills: tuple[str, ...]  # SKILL.md paths
    home_skills: tuple[str, ...]


@dataclass(frozen=True)
class BigTree:
    root: str
    workspace: str
    home: str
    wide_frontmatter: str  # SKILL.md path
    deep_resources: str  # skill folder
    many_files: str  # skill folder


def sentence(rng: random.Random, low: int = 6, high: int = 16) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    words[0] = words[0].capitalize()
    return " ".join(words) + "."


def skill_names(rng: random.Random, count: int) -> list[str]:
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < count:
        parts = [rng.choice(VERBS), rng.choice(WORDS)]
        if rng.random() < 0.4:
            parts.append(rng.choice(WORDS))
        name = "-".join(dict.fromkeys(parts))
        if name in seen or name in ("help", "model", "reload"):
            continue
        seen.add(name)
        names.append(name)
    return names


def description_block(rng: random.Random, target: int = 300) -> str:
    """A multi-line description of about `target` characters in one of the three styles people write."""
    text = ""
    while len(text) < target:
        text += (" " if text else "") + sentence(rng)
    text = text.replace(":", ",").replace("#", "")  # keep plain scalars plain
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > 76:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    style = rng.choice((">-", "|", "plain"))
    if style == "plain":
        return "description: " + lines[0] + "".join(f"\n  {item}" for item in lines[1:]) + "\n"
    return f"description: {style}\n" + "".join(f"  {item}\n" for item in lines)


def frontmatter(rng: random.Random, name: str, target_bytes: int, host_field: bool) -> str:
    head = f"name: {name}\n" + description_block(rng)
    head += f"license: {rng.choice(LICENSES)}\n"
    head += f"compatibility: Requires Python 3.11+ and git; {sentence(rng, 4, 8).lower()}\n"
    if host_field:
        field, value = rng.choice(HOST_FIELDS)
        head += f"{field}: {value}\n"
    tools = " ".join(rng.sample(TOOLS, rng.randint(2, 5)))
    tail = f"allowed-tools: {tools}\n"
    meta = "metadata:\n"
    meta += f"  author: {rng.choice(WORDS)}-team\n"
    meta += f'  version: "{rng.randint(0, 3)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"\n'
    meta += f"  category: {rng.choice(WORDS)}\n"
    index = 0
    while len((head + meta + tail).encode()) < target_bytes - 60:
        value = sentence(rng, 3, 9).replace(":", ",")
        meta += f'  {rng.choice(WORDS)}-{index}: "{value}"\n'
        index += 1
    return head + meta + tail


def body(rng: random.Random, name: str, lines_wanted: int, references: list[str]) -> str:
    out = [f"# {name.replace('-', ' ').title()}", "", sentence(rng, 10, 24), ""]
    section = 0
    while len(out) < lines_wanted - 10:  # a section is up to ~12 lines: stay near the wanted length
        section += 1
        out += [f"## {sentence(rng, 2, 5).rstrip('.')}", ""]
        kind = rng.choice(("list", "code", "table", "para", "steps"))
        if kind == "list":
            out += [f"- {sentence(rng, 4, 12)}" for _ in range(rng.randint(3, 8))]
        elif kind == "steps":
            out += [f"{i}. {sentence(rng, 4, 12)}" for i in range(1, rng.randint(3, 7))]
        elif kind == "code":
            lang = rng.choice(LANGUAGES)
            out += [f"```{lang}"]
            out += [f"{rng.choice(VERBS)}_{rng.choice(WORDS)}({rng.choice(WORDS)!r})" for _ in range(rng.randint(3, 10))]
            out += ["```"]
        elif kind == "table":
            out += ["| field | meaning |", "| --- | --- |"]
            out += [f"| `{rng.choice(WORDS)}` | {sentence(rng, 3, 8)} |" for _ in range(rng.randint(2, 6))]
        else:
            out += [sentence(rng, 12, 30) for _ in range(rng.randint(1, 3))]
        out.append("")
    if references:
        out += ["## More", ""] + [f"- See [{ref}]({ref}) for details." for ref in references] + [""]
    return "\n".join(out) + "\n"


def write(path: str, text: str | bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(text.encode("utf-8") if isinstance(text, str) else text)


def write_skill(
    rng: random.Random, root: str, name: str, *, fm_bytes: int | None = None, host_field: bool = False
) -> str:
    folder = os.path.join(root, name)
    references: list[str] = []
    if rng.random() < 0.4:
        for _ in range(rng.randint(1, 3)):
            ref = f"references/{rng.choice(WORDS)}-{len(references)}.md"
            references.append(ref)
            write(os.path.join(folder, ref), "\n".join(sentence(rng, 8, 20) for _ in range(rng.randint(20, 80))) + "\n")
    if rng.random() < 0.25:
        write(os.path.join(folder, "scripts", f"{rng.choice(VERBS)}.py"), "print('not run by anything here')\n")
    target = fm_bytes if fm_bytes is not None else rng.randint(1024, 2048)
    text = "---\n" + frontmatter(rng, name, target, host_field) + "---\n\n" + body(rng, name, rng.randint(50, 150), references)
    path = os.path.join(folder, "SKILL.md")
    write(path, text)
    return path


def generate_tree(out: str, skills: int = 128, home_skills: int | None = None, seed: int = 1) -> Tree:
    """`skills` candidates in all: most in the workspace, `home_skills` in the home's user roots."""
    if os.path.exists(out):
        shutil.rmtree(out)
    rng = random.Random(seed)
    home_count = max(1, skills // 16) if home_skills is None else home_skills
    names = skill_names(rng, skills)
    workspace = os.path.join(out, "ws")
    home = os.path.join(out, "home")
    ws_root = os.path.join(workspace, ".agents", "skills")
    ws_paths, home_paths = [], []
    os.makedirs(home)  # an empty home too: `check --home HOME` refuses a home that does not exist
    for index, name in enumerate(names[: skills - home_count]):
        # the first workspace skill is the "typical buffer" of the benchmarks: a 2 KiB frontmatter
        fm = 2048 if index == 0 else None
        ws_paths.append(write_skill(rng, ws_root, name, fm_bytes=fm, host_field=index % 16 == 5))
    for index, name in enumerate(names[skills - home_count :]):
        root = os.path.join(home, ".agents" if index % 2 == 0 else ".albedo", "skills")
        home_paths.append(write_skill(rng, root, name, host_field=index % 4 == 1))
    return Tree(out, workspace, home, tuple(ws_paths), tuple(home_paths))


def generate_big(out: str, seed: int = 2) -> BigTree:
    if os.path.exists(out):
        shutil.rmtree(out)
    rng = random.Random(seed)
    workspace = os.path.join(out, "ws")
    home = os.path.join(out, "home")
    os.makedirs(home, exist_ok=True)
    root = os.path.join(workspace, ".agents", "skills")

    # 1. a frontmatter just under 64 KiB: a long but valid metadata map
    wide = write_skill(rng, root, "wide-frontmatter", fm_bytes=65536 - 200)

    # 2. exactly 2,048 entries (the walk's bound) with at most 512 files: a documentation tree
    deep = os.path.join(root, "deep-resources")
    write_skill(rng, root, "deep-resources")
    for folder in ("references", "scripts"):  # write_skill may have added some: start clean
        shutil.rmtree(os.path.join(deep, folder), ignore_errors=True)
    chunk = "".join(f"Line {i}: {sentence(rng, 8, 14)} ünïcödé ✓\n" for i in range(4000))
    page = chunk.encode("utf-8")
    write(os.path.join(deep, "references", "page-64k.md"), page[: 64 * 1024].decode("utf-8", "ignore"))
    big = (page * (4 * 1024 * 1024 // len(page) + 1))[: 4 * 1024 * 1024]
    write(os.path.join(deep, "references", "manual-4m.md"), big.decode("utf-8", "ignore"))
    entries = 4  # SKILL.md, references/, page-64k.md, manual-4m.md
    files = 3
    topic = 0
    budget_files = 500
    while entries < 2048:
        topic_dir = os.path.join(deep, "references", f"topic-{topic:03d}")
        os.makedirs(topic_dir)
        entries += 1
        for item in range(12):
            if entries >= 2048:
                break
            if item % 3 == 0 and files < budget_files:
                write(os.path.join(topic_dir, f"note-{item:02d}.md"), sentence(rng) + "\n")
                files += 1
            else:
                os.makedirs(os.path.join(topic_dir, f"part-{item:02d}"))
            entries += 1
        topic += 1

    # 3. many plain files: the walk meets the 512-file bound long before 2,048 entries
    many = os.path.join(root, "many-files")
    write_skill(rng, root, "many-files")
    for folder in ("references", "scripts"):
        shutil.rmtree(os.path.join(many, folder), ignore_errors=True)
    for group in range(32):
        for item in range(64):
            write(os.path.join(many, "assets", f"group-{group:02d}", f"file-{item:02d}.txt"), "x\n")
    return BigTree(out, workspace, home, wide, deep, many)


def count_entries(folder: str) -> tuple[int, int]:
    """(entries, files) below `folder`, as the resource walk counts them."""
    entries = files = 0
    for _dirpath, dirnames, filenames in os.walk(folder):
        entries += len(dirnames) + len(filenames)
        files += len(filenames)
    return entries, files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the folder to (re)create")
    parser.add_argument("--skills", type=int, default=128, help="candidates in all (default 128)")
    parser.add_argument("--home-skills", type=int, default=None, help="of which in HOME (default skills/16)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--big", action="store_true", help="also write OUT/big with the stress cases")
    args = parser.parse_args(argv)
    tree = generate_tree(args.out, args.skills, args.home_skills, args.seed)  # (re)creates OUT first
    print(f"workspace {tree.workspace}: {len(tree.workspace_skills)} skills; home {tree.home}: {len(tree.home_skills)}")
    if args.big:
        big = generate_big(os.path.join(args.out, "big"))
        entries, files = count_entries(big.deep_resources)
        print(f"big {big.workspace}: 64 KiB frontmatter, resource tree of {entries} entries ({files} files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
