"""Random skill trees for differential testing: a seed gives the same tree on every machine.

`build(base, seed, count)` writes `count` skills under `base/project` and `base/home`, each made of features
drawn at random (the seed fixes every draw): the YAML type and quoting of `name` and `description` (null as
`~` or `null`, empty, quoted empty, numbers, booleans, a date, lists, a mapping, block scalars, a plain value
over two lines, an unquoted `: `), lengths at and around each agent's limit (64-character names;
1,024-character descriptions counted in characters and in UTF-16 units; Claude Code's 1,536), Unicode
(accents, CJK, characters outside the BMP), CRLF line endings, a tab where YAML wants spaces, a key given
twice, unknown keys, `disable-model-invocation`, a byte-order mark, no or an unclosed frontmatter, the file
name in other letter cases, a skill one folder deeper, and one name (or one folder) in two roots.

Every description that is text carries the skill's id (`s0042`), so an agent that reports names alone can be
mapped back to the file, and every skill records the features it was drawn with (`GeneratedCase.features`),
which is how a disagreement is told to its class.
"""

from __future__ import annotations

import os
import random
import subprocess

from .case import GeneratedCase
from .fixture import HOME, PROJECT

# Roots a skill is written in, with their weights: the roots most agents share are drawn most often.
ROOTS = (
    (f"{PROJECT}/.agents/skills", 6),
    (f"{PROJECT}/.claude/skills", 5),
    (f"{HOME}/.agents/skills", 2),
    (f"{HOME}/.claude/skills", 2),
    (f"{PROJECT}/.github/skills", 1),
    (f"{PROJECT}/.gemini/skills", 1),
    (f"{PROJECT}/.opencode/skills", 1),
)
NAME_LIMIT = 64  # Codex and the Agent Skills rule
DESCRIPTION_LIMITS = (1024, 1536)  # Codex's prompt cut and Copilot CLI's refusal; Claude Code's listing entry

# Kinds of a value, with weights. "text" kinds render a string; the rest are the YAML types and shapes.
VALUE_KINDS = (
    ("plain", 30), ("single", 5), ("double", 5), ("absent", 4), ("tilde", 3), ("null", 2), ("empty", 3),
    ("empty-quoted", 2), ("int", 2), ("float", 1), ("bool", 2), ("yes", 1), ("date", 1), ("flow-list", 2),
    ("block-list", 1), ("map", 1), ("literal", 3), ("folded", 3), ("literal-strip", 1), ("two-lines", 3),
    ("colon", 3), ("hash", 1), ("spaces", 1),
)
LENGTHS = (("short", 12), ("limit-1", 1), ("limit", 1), ("limit+1", 1), ("utf16-limit", 1), ("long", 1))
UNICODE = ("", "", "", "", " café", " 日本語", " 😀", " Ünïcödé", " 𝔘𝔫𝔦")


def _pick(rng: random.Random, weighted: tuple[tuple[str, int], ...]) -> str:
    return rng.choices([value for value, _ in weighted], [weight for _, weight in weighted])[0]


def _text_of_length(rng: random.Random, sid: str, length: str, limit: int, unicode: str) -> str:
    """A text holding `sid`, of the drawn length around `limit` (characters, i.e. code points)."""
    head = f"Skill {sid} does a thing{unicode}"
    if length == "short":
        return head + " and reports."
    target = {"limit-1": limit - 1, "limit": limit, "limit+1": limit + 1, "long": limit + rng.randint(50, 600)}.get(length)
    if length == "utf16-limit":
        # At the limit in characters, over it in UTF-16 units: characters outside the BMP count twice there.
        filler = "😀" * 8
        body = head + " " + filler
        return body + "x" * (limit - len(body))
    assert target is not None
    words = head
    while len(words) < target:
        words += " " + rng.choice(("then", "check", "the", "files", "report", "fast", "safely"))
    return words[:target].rstrip() + "x" * (target - len(words[:target].rstrip()))


def _render(key: str, kind: str, text: str, rng: random.Random) -> list[str]:
    """The frontmatter lines that give `key` a value of `kind` (`text` for the kinds that carry text)."""
    if kind == "absent":
        return []
    simple = {"tilde": "~", "null": "null", "empty": "", "empty-quoted": '""', "int": str(rng.randint(1, 99999)),
              "float": "1.5", "bool": rng.choice(("true", "false")), "yes": rng.choice(("yes", "on", "no")),
              "date": "2024-01-02"}
    if kind in simple:
        value = simple[kind]
        return [f"{key}: {value}".rstrip()]
    if kind == "flow-list":
        return [f"{key}: [{text[:20].replace(',', ' ')}, second]"]
    if kind == "block-list":
        return [f"{key}:", f"  - {_safe_plain(text[:30])}", "  - second"]
    if kind == "map":
        return [f"{key}:", f"  text: {_safe_plain(text[:30])}"]
    if kind == "single":
        return [f"{key}: '" + text.replace("'", "''") + "'"]
    if kind == "double":
        return [f'{key}: "' + text.replace("\\", "\\\\").replace('"', '\\"') + '"']
    if kind in ("literal", "folded", "literal-strip"):
        mark = {"literal": "|", "folded": ">", "literal-strip": "|-"}[kind]
        half = len(text) // 2
        first, second = text[:half].rstrip(), text[half:].lstrip()
        return [f"{key}: {mark}", f"  {first}", f"  {second}" if second else "  end"]
    if kind == "two-lines":
        half = text.find(" ", len(text) // 2)
        if half < 0:
            return [f"{key}: {_safe_plain(text)}"]
        return [f"{key}: {_safe_plain(text[:half])}", f"  {_safe_plain(text[half + 1:])}"]
    if kind == "colon":
        return [f"{key}: Use this: {_safe_plain(text)}"]
    if kind == "hash":
        return [f"{key}: {_safe_plain(text)} # a comment"]
    if kind == "spaces":
        return [f"{key}:    {_safe_plain(text)}   "]
    return [f"{key}: {_safe_plain(text)}"]  # plain


def _safe_plain(text: str) -> str:
    """Text that stays one plain scalar (the `colon` and `hash` kinds add their trouble on purpose)."""
    return text.replace(": ", " ").replace(" #", " ").strip() or "x"


def _skill(rng: random.Random, index: int, used_names: list[tuple[str, str]]) -> tuple[str, list[str], str, list[str]]:
    """(root, folder parts, file text, features) of one random skill."""
    sid = f"s{index:04d}"
    features: list[str] = []
    root = _pick(rng, ROOTS)
    folder = f"{sid}-{rng.choice(('alpha', 'beta', 'gamma', 'delta'))}"
    name_kind, desc_kind = _pick(rng, VALUE_KINDS), _pick(rng, VALUE_KINDS)
    name_len, desc_len = _pick(rng, LENGTHS), _pick(rng, LENGTHS)
    unicode_name, unicode_desc = rng.choice(UNICODE), rng.choice(UNICODE)
    # The name: the folder's (most often), another one, one from another root, or of a drawn length.
    roll = rng.random()
    if used_names and roll < 0.08:
        other_root, name_text = rng.choice(used_names)
        features.append("name-in-another-root" if other_root != root else "name-twice-in-root")
        if rng.random() < 0.5 and other_root != root:
            folder = name_text  # the same folder name too (Claude Code names skills after the folder)
    elif roll < 0.55:
        name_text = folder
    elif roll < 0.75:
        name_text = f"{sid}-other{unicode_name}".replace(" ", "-") if unicode_name else f"{sid}-other"
        if unicode_name:
            features.append("name-unicode")
    elif roll < 0.85:
        name_text = f"{sid} With Spaces And Caps"
        features.append("name-spaces-caps")
    else:
        target = {"short": 20, "limit-1": NAME_LIMIT - 1, "limit": NAME_LIMIT, "limit+1": NAME_LIMIT + 1,
                  "utf16-limit": NAME_LIMIT, "long": NAME_LIMIT + 30}[name_len]
        name_text = (sid + "-" + "n" * NAME_LIMIT * 2)[:target]
        features.append(f"name-length={name_len}")
    name_lines = _render("name", name_kind, name_text, rng)
    features.append(f"name={name_kind}")
    limit = rng.choice(DESCRIPTION_LIMITS)
    description = _text_of_length(rng, sid, desc_len, limit, unicode_desc)
    if desc_len != "short":
        features.append(f"description-length={desc_len}@{limit}")
    if unicode_desc:
        features.append("description-unicode")
    desc_lines = _render("description", desc_kind, description, rng)
    features.append(f"description={desc_kind}")
    lines = name_lines + desc_lines
    if rng.random() < 0.1 and len(name_lines) == 1 and len(desc_lines) == 1:
        lines.reverse()  # description before name
        features.append("description-first")
    extras = []
    if rng.random() < 0.15:
        extras.append(rng.choice(("version: 1", "license: MIT", "x-unknown-key: some value",
                                  "allowed-tools: [Read, Grep]", "metadata:\n  owner: someone")))
        features.append("unknown-key")
    if rng.random() < 0.08:
        extras.append(f"disable-model-invocation: {rng.choice(('true', 'false'))}")
        features.append(extras[-1].replace(": ", "="))
    if rng.random() < 0.05:
        extras.append(rng.choice(("when_to_use: when asked", "user-invocable: false")))
        features.append(extras[-1].split(":")[0])
    if rng.random() < 0.05:
        key = rng.choice(("name", "description"))
        extras.append(f"{key}: {sid}-second-{key}")
        features.append(f"duplicate-key={key}")
    if rng.random() < 0.04:
        extras.append("metadata:\n\towner: someone")
        features.append("tab-indent")
    frontmatter = "\n".join(lines + extras)
    opening = "---"
    body = f"# {sid} instructions\n\nThe body of {sid}: do the thing, then report.\n"
    roll = rng.random()
    if roll < 0.03:
        text = body
        features.append("no-frontmatter")
    elif roll < 0.05:
        text = f"{opening}\n{frontmatter}\n\n{body}"
        features.append("unclosed-frontmatter")
    else:
        text = f"{opening}\n{frontmatter}\n---\n\n{body}"
    if rng.random() < 0.08:
        text = text.replace("\n", "\r\n")
        features.append("crlf")
    if rng.random() < 0.02:
        text = "\ufeff" + text
        features.append("bom")
    file_name = "SKILL.md"
    if rng.random() < 0.05:
        file_name = rng.choice(("skill.md", "Skill.md", "SKILL.MD"))
        features.append(f"file={file_name}")
    parts = [folder]
    if rng.random() < 0.06:
        parts = [f"{sid}-group", folder]
        features.append("nested")
    if name_kind in ("plain", "single", "double", "two-lines", "literal-strip") and "name-length" not in str(features):
        used_names.append((root, name_text))
    return root, parts + [file_name], text, features


def cases(seed: int, count: int) -> list[GeneratedCase]:
    """`count` random skills; the same seed gives the same files. A path drawn twice keeps its first skill."""
    rng = random.Random(seed)
    used_names: list[tuple[str, str]] = []
    found: dict[str, GeneratedCase] = {}
    for index in range(count):
        root, parts, text, features = _skill(rng, seed * 100_000 + index, used_names)
        path = "/".join([root, *parts])
        taken = {existing.lower() for existing in found}
        if path.lower() in taken:
            continue
        found[path] = GeneratedCase(path, text, tuple(features))
    return list(found.values())


def build(base: str, seed: int, count: int, shape: str = "random") -> list[GeneratedCase]:
    """Write the tree under `base` (an empty folder); `base/project` is a git repository with one commit.
    `shape`: "random" (`cases`), or one of the focused shapes of `shapes.py`."""
    from .shapes import SHAPES  # imported here: the random cases need none of the focused shapes

    return _written(base, cases(seed, count) if shape == "random" else SHAPES[shape](seed, count))


def why_of(made: list[GeneratedCase], inventory: list[str]) -> dict[str, str]:
    """The features of the case behind each inventory path: its own file, or the linked folder it is seen
    through (the nearest case whose path is the file's or one of its folders)."""
    by_path = {case.path: case.why for case in made}
    found = {}
    for path in inventory:
        parts = path.split("/")
        for end in range(len(parts), 0, -1):
            if "/".join(parts[:end]) in by_path:
                found[path] = by_path["/".join(parts[:end])]
                break
    return found


def _written(base: str, made: list[GeneratedCase]) -> list[GeneratedCase]:
    """Write the files (and links) under `base`, with `home/` and `project/` a git repository with one commit."""
    for case in made:
        path = os.path.join(base, case.path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if case.link is not None:
            os.symlink(case.link, path)
            continue
        with open(path, "w", encoding="utf-8", newline="") as out:
            out.write(case.text)
    os.makedirs(os.path.join(base, HOME), exist_ok=True)
    project = os.path.join(base, PROJECT)
    os.makedirs(project, exist_ok=True)
    git = ["git", "-c", "user.name=fixture", "-c", "user.email=fixture@example.invalid", "-c", "init.defaultBranch=main"]
    subprocess.run(git + ["init", "-q", project], check=True)
    subprocess.run(git + ["-C", project, "add", "-A"], check=True)
    subprocess.run(git + ["-C", project, "commit", "-q", "--allow-empty", "-m", "generated"], check=True)
    return made


def build_catalog(base: str, count: int, length: int) -> list[GeneratedCase]:
    """A catalog for measuring budgets: `count` skills `b0000`… of one description `length` each, written in
    `project/.agents/skills` and in `project/.claude/skills` (the roots Codex and Claude Code read)."""
    made = []
    for index in range(count):
        head = f"Skill b{index:04d} does its task"
        description = (head + " " + "then reports the outcome " * (length // 20 + 1))[:length]
        text = f"---\nname: b{index:04d}\ndescription: {description}\n---\n\n# b{index:04d}\n\nDo it.\n"
        for root in (f"{PROJECT}/.agents/skills", f"{PROJECT}/.claude/skills"):
            made.append(GeneratedCase(f"{root}/b{index:04d}/SKILL.md", text, (f"catalog={count}x{length}",)))
    return _written(base, made)
