"""Focused generated trees: many seeded variants of one shape, where the random trees of `generate.py` draw it
too rarely to pin a rule down.

- `retry`: a value holding a colon that a standard YAML parse refuses, crossed with how the frontmatter is
  delimited (closed, never closed, a byte-order mark, CRLF, a closing line with more after `---`, a body
  line that starts with `---`) and with where the colon is (name, description, another key, a continuation
  line, a value opening with `[` or a quote). OpenCode retries such a parse; this shape is how its rule was
  found.
- `links`: symbolic links as people make them: one skill folder shared between roots
  (`.claude/skills/x -> ../../.agents/skills/x`), a folder from outside every root or outside the workspace,
  a linked SKILL.md, a chain of links, broken links (folder and file), a link loop, a folder that links to
  itself, and a whole root that is a link to another root.

Both return `GeneratedCase`s: a case with `link` set is written as a symbolic link to that target (relative
to the link's folder), not as a file.
"""

from __future__ import annotations

import os
import random

from .fixture import ELSEWHERE, HOME, PROJECT
from .case import GeneratedCase

# --- retry -----------------------------------------------------------------------------------------------

COLON_PLACES = (("description", 8), ("name", 3), ("when_to_use", 1), ("x-note", 1), ("continuation", 1),
                ("flow-start", 1), ("quote-start", 1), ("metadata", 1), ("no-space", 1), ("comment", 1))
DELIMITINGS = (("closed", 4), ("unclosed", 3), ("bom", 3), ("bom-unclosed", 1), ("crlf", 2),
               ("crlf-unclosed", 1), ("crlf-bom", 1), ("close-trailing", 1), ("unclosed-dash-line", 2),
               ("tab-indent", 1))
RETRY_ROOTS = (f"{PROJECT}/.agents/skills", f"{PROJECT}/.opencode/skills", f"{PROJECT}/.claude/skills")


def _pick(rng: random.Random, weighted: tuple[tuple[str, int], ...]) -> str:
    return rng.choices([value for value, _ in weighted], [weight for _, weight in weighted])[0]


def retry_cases(seed: int, count: int) -> list[GeneratedCase]:
    """`count` skills, each with one colon a standard parse refuses (or, as controls, one it accepts)."""
    rng = random.Random(seed)
    made = []
    for index in range(count):
        sid = f"r{seed * 100_000 + index:07d}"
        folder = f"{sid}-{rng.choice(('alpha', 'beta'))}"
        place, delimiting = _pick(rng, COLON_PLACES), _pick(rng, DELIMITINGS)
        described = f"Skill {sid} checks the files"
        lines = [f"name: {folder}", f"description: {described} and reports."]
        if place == "description":
            lines[1] = f"description: {described}: {rng.choice(('then reports', 'use it', 'a: b: c'))}."
        elif place == "name":
            lines[0] = f"name: {folder}: {rng.choice(('the tool', 'x'))}"
        elif place in ("when_to_use", "x-note"):
            lines.append(f"{place}: when asked: {rng.choice(('often', 'rarely'))}")
        elif place == "continuation":
            lines[1:] = [f"description: {described}", "  and then: reports"]
        elif place == "flow-start":
            lines[1] = f"description: [{described}]: more"
        elif place == "quote-start":
            lines[1] = f"description: '{described}' then: more"
        elif place == "metadata":
            lines.append("metadata:\n  owner: someone: else")
        elif place == "no-space":
            lines[1] = f"description: {described} at 10:30 daily"  # a colon a standard parse accepts
        elif place == "comment":
            lines[1:1] = ["# note: a comment holding a colon"]
            lines[2] = f"description: {described}: and a comment after # here"
        if delimiting == "tab-indent":
            lines.append("metadata:\n\towner: someone")
        body = f"# {sid}\n\nThe body of {sid}. Do the thing, then report.\n"
        if delimiting == "unclosed-dash-line":
            body += "\n----\n\nMore below a rule.\n"
        frontmatter = "\n".join(lines)
        closing = "--- " if delimiting == "close-trailing" else "---"
        unclosed = "unclosed" in delimiting
        text = f"---\n{frontmatter}\n\n{body}" if unclosed else f"---\n{frontmatter}\n{closing}\n\n{body}"
        if "crlf" in delimiting:
            text = text.replace("\n", "\r\n")
        if "bom" in delimiting:
            text = "\ufeff" + text
        made.append(GeneratedCase(f"{rng.choice(RETRY_ROOTS)}/{folder}/SKILL.md", text,
                                  (f"colon={place}", f"frontmatter={delimiting}")))
    return made


# --- links -----------------------------------------------------------------------------------------------

LINK_ROOTS = (f"{PROJECT}/.agents/skills", f"{PROJECT}/.claude/skills", f"{HOME}/.agents/skills",
              f"{PROJECT}/.github/skills", f"{PROJECT}/.gemini/skills", f"{PROJECT}/.opencode/skills")
LINKED_ROOT = f"{HOME}/.claude/skills"  # the whole root is a link to `LINKED_ROOT_TARGET` (on every other seed)
LINKED_ROOT_TARGET = f"{HOME}/.agents/skills"
SHARED = f"{PROJECT}/shared-skills"  # a folder of the workspace that no agent reads
LINK_KINDS = (("across-roots", 4), ("within-root", 2), ("from-shared", 2), ("outside-workspace", 2),
              ("file-link", 2), ("file-link-other-skill", 1), ("chain", 1), ("broken-folder", 1),
              ("broken-file", 1), ("loop-to-parent", 1), ("self-loop", 1), ("dot-link", 1), ("nested-link", 1))


def _skill_text(sid: str, name: str, why: str) -> str:
    return f"---\nname: {name}\ndescription: Skill {sid} does its task ({why}) and reports.\n---\n\n# {sid}\n\nDo it.\n"


def _link(path: str, target_path: str, why: tuple[str, ...]) -> GeneratedCase:
    """A link at `path` to `target_path` (both relative to the tree's base), written as a relative link."""
    return GeneratedCase(path, "", why, link=os.path.relpath(target_path, os.path.dirname(path)))


def link_cases(seed: int, count: int) -> list[GeneratedCase]:
    """`count` groups of files and links, every kind of `LINK_KINDS` among them once `count` reaches their
    number; the same seed gives the same tree."""
    rng = random.Random(seed)
    made: list[GeneratedCase] = []
    whole_root = seed % 2 == 1
    if whole_root:
        made.append(_link(LINKED_ROOT, LINKED_ROOT_TARGET, ("link=whole-root",)))
    for index in range(count):
        sid = f"l{seed * 100_000 + index:07d}"
        # Every kind once first, so even a small tree holds each; then drawn by weight.
        kind = LINK_KINDS[index][0] if index < len(LINK_KINDS) else _pick(rng, LINK_KINDS)
        root = rng.choice(LINK_ROOTS)
        other = rng.choice([each for each in LINK_ROOTS if each != root])
        why = (f"link={kind}",)
        real = f"{sid}-real"
        if kind == "across-roots":  # the same folder name in both roots, as a shared install makes it
            made.append(GeneratedCase(f"{root}/{sid}/SKILL.md", _skill_text(sid, sid, kind), why))
            made.append(_link(f"{other}/{sid}", f"{root}/{sid}", why))
        elif kind == "within-root":
            made.append(GeneratedCase(f"{root}/{real}/SKILL.md", _skill_text(sid, real, kind), why))
            made.append(_link(f"{root}/{sid}-alias", f"{root}/{real}", why))
        elif kind in ("from-shared", "outside-workspace"):
            where = SHARED if kind == "from-shared" else ELSEWHERE
            made.append(GeneratedCase(f"{where}/{sid}/SKILL.md", _skill_text(sid, sid, kind), why))
            made.append(_link(f"{root}/{sid}", f"{where}/{sid}", why))
        elif kind == "file-link":
            made.append(GeneratedCase(f"{SHARED}/{sid}.md", _skill_text(sid, sid, kind), why))
            made.append(_link(f"{root}/{sid}/SKILL.md", f"{SHARED}/{sid}.md", why))
        elif kind == "file-link-other-skill":
            made.append(GeneratedCase(f"{root}/{real}/SKILL.md", _skill_text(sid, real, kind), why))
            made.append(_link(f"{other}/{sid}/SKILL.md", f"{root}/{real}/SKILL.md", why))
        elif kind == "chain":
            made.append(GeneratedCase(f"{SHARED}/{sid}/SKILL.md", _skill_text(sid, sid, kind), why))
            made.append(_link(f"{SHARED}/{sid}-hop", f"{SHARED}/{sid}", why))
            made.append(_link(f"{root}/{sid}", f"{SHARED}/{sid}-hop", why))
        elif kind == "broken-folder":
            made.append(_link(f"{root}/{sid}", f"{SHARED}/{sid}-missing", why))
        elif kind == "broken-file":
            made.append(GeneratedCase(f"{root}/{sid}/notes.md", f"# {sid}\n", why))
            made.append(_link(f"{root}/{sid}/SKILL.md", f"{root}/{sid}/missing.md", why))
        elif kind == "loop-to-parent":  # a skill folder holding a link back to its root
            made.append(GeneratedCase(f"{root}/{sid}/SKILL.md", _skill_text(sid, sid, kind), why))
            made.append(_link(f"{root}/{sid}/back", root, why))
        elif kind == "self-loop":  # a link to itself: every look through it fails (ELOOP)
            made.append(GeneratedCase(f"{root}/{sid}/SKILL.md", _skill_text(sid, sid, kind), why))
            made.append(_link(f"{root}/{sid}-self", f"{root}/{sid}-self", why))
        elif kind == "dot-link":
            made.append(GeneratedCase(f"{SHARED}/{sid}/SKILL.md", _skill_text(sid, sid, kind), why))
            made.append(_link(f"{root}/.{sid}", f"{SHARED}/{sid}", why))
        elif kind == "nested-link":  # a linked folder one level down, holding the skill folder
            made.append(GeneratedCase(f"{SHARED}/{sid}-group/{sid}/SKILL.md", _skill_text(sid, sid, kind), why))
            made.append(_link(f"{root}/{sid}-group", f"{SHARED}/{sid}-group", why))
    return made  # no case is written under LINKED_ROOT: it is not in LINK_ROOTS


SHAPES = {"retry": retry_cases, "links": link_cases}
