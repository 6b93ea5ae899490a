"""The repository is self-contained: no tracked file names a document a clone does not have
(docs/design.md, opening paragraph).

A reader meets the why of the code in the repository itself. So no file points at the notes the project was
specified in, at a folder beside the clone, or at the tracker's numbers (`issue` and a number): each is a
document a clone lacks. A relative Markdown link must reach a file of the checkout, a path to a document
(under `docs/`, `benchmarks/`...) named outside the tests must exist, and a citation of a design section
(the design file's name, `#`, the heading's anchor) must name one of that file's headings.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Spelled in pieces, so this file does not match itself.
OUTSIDE = [
    (re.compile(r"\bdecisions" r"\.md\b", re.IGNORECASE), "names the specification notes a clone lacks"),
    (re.compile(r"\.\./" r"shared/"), "names a folder beside the clone"),
    (re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE), "names a tracker issue by number"),
]
# A repository path to a document, in prose (comments, docstrings, Markdown): it must exist. A quoted string
# literal is data (a path inside a skill a test builds), and a git-ignored path is a file a run writes.
DOC_PATH = re.compile(r"(?<![\w./'\"-])((?:docs|benchmarks|editors|examples|vscode-extension)/[\w./-]*?\.md)\b")
DESIGN_ANCHOR = re.compile(r"docs/design\.md#([\w-]+)")
MARKDOWN_LINK = re.compile(r"\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")

# Test data: skills written to hold broken references on purpose (their `reference-missing` is the point);
# in the tests, a path is mostly a reference inside a skill the test builds.
SKILL_DATA = ("tests/fixtures/", "examples/")
TESTS = "tests/"


def tracked_texts(root: Path) -> dict[str, str]:
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True
    ).stdout.decode().split("\0")
    texts = {}
    for name in filter(None, names):
        path = root / name
        if not path.is_file():
            continue
        try:
            texts[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # an image, a tarball
    return texts


def ignored(root: Path, path: str) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", path], cwd=root).returncode == 0


EXPLICIT_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and VS Code write it."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


def anchors_of(text: str) -> set[str]:
    found = set()
    in_fence = False
    for line in text.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
        if not in_fence:  # an explicit anchor (docs/diagnostics.md gives each code's table row one)
            found.update(EXPLICIT_ANCHOR.findall(line))
    return found


def markdown_links(text: str) -> list[tuple[int, str]]:
    """Relative link targets outside code fences and code spans, with their line numbers."""
    links = []
    in_fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        prose = re.sub(r"`[^`]*`", "", line)
        for match in MARKDOWN_LINK.finditer(prose):
            target = match.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL (https:, mailto:, vscode:) or an anchor in the same file
            links.append((number, target))
    return links


def problems(root: Path) -> list[str]:
    texts = tracked_texts(root)
    design = texts.get("docs/design.md", "")
    design_anchors = anchors_of(design)
    found = []
    for name, text in sorted(texts.items()):
        for number, line in enumerate(text.splitlines(), 1):
            for pattern, why in OUTSIDE:
                if pattern.search(line):
                    found.append(f"{name}:{number}: {why}: {line.strip()[:100]}")
            for anchor in DESIGN_ANCHOR.findall(line):
                if anchor not in design_anchors:
                    found.append(f"{name}:{number}: docs/design.md has no section #{anchor}")
            if not name.startswith((*SKILL_DATA, TESTS)):
                for path in DOC_PATH.findall(line):
                    if not (root / path).exists() and not ignored(root, path):
                        found.append(f"{name}:{number}: names {path}, which the repository does not have")
        if name.endswith(".md") and not name.startswith(SKILL_DATA):
            for number, target in markdown_links(text):
                file, _, anchor = target.partition("#")
                where = (root / name).parent / file
                if not where.exists():
                    found.append(f"{name}:{number}: links to {target}, which the repository does not have")
                elif anchor and where.suffix == ".md" and anchor not in anchors_of(where.read_text(encoding="utf-8")):
                    found.append(f"{name}:{number}: links to {target}, a heading {file} does not have")
    return found


def test_no_file_names_a_document_the_repository_lacks():
    found = problems(REPO)
    assert not found, "\n".join(found)


def test_the_check_finds_each_kind_of_outside_reference(tmp_path):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "design.md").write_text("# Design\n\n## 1. Reading\n")
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## A part\n")
    bad = {
        "a.py": "# See ../" "shared/spec/notes (section 2).\n",
        "b.py": "# decisions" ".md section 7\n",
        "c.ts": "// fixed for issue" " 21, item 1\n",
        "d.py": "# docs/design" ".md#2-rules\n",
        "e.py": "# see docs/missing.md\n",
        "docs/f.md": "[gone](../gone.md) and [part](other.md#no-such-part)\n",
    }
    good = {
        "g.py": "# docs/design" ".md#1-reading and docs/other.md; https://github.com/o/r/issues/607\n",
        "docs/h.md": "[design](design.md#1-reading) [out](https://example.com/x.md) `[code](gone.md)`\n"
        "```\n[in a fence](gone.md)\n```\n",
    }
    for name, text in {**bad, **good}.items():
        (tmp_path / name).write_text(text)
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    found = problems(tmp_path)
    assert sorted({line.split(":")[0] for line in found}) == sorted(bad), "\n".join(found)
    assert len(found) == 7, "\n".join(found)
