"""Shared helpers for the engine's unit tests: real skill trees in tmp_path, and small assertion aids.

`write_skill(root, folder, frontmatter, body)` writes `root/folder/SKILL.md`. `frontmatter` is either the
text between the two `---` lines (used verbatim) or a dict rendered as block YAML; `None` writes no
frontmatter at all. `Layout` is a workspace and a home with the five discovery roots in precedence order.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import pytest

from albedo_skills_ls.skills.catalog import discovery
from albedo_skills_ls.skills.core.model import Catalog, Diagnostic, Range

_PLAIN_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. /()")


def _scalar(value: str) -> str:
    if value and set(value) <= _PLAIN_SAFE and not value.startswith((" ", "-")) and not value.endswith(" "):
        return value
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid YAML double-quoted scalar


def render_yaml(data: Any, indent: int = 0) -> str:
    """A small block-YAML writer for dicts of strings, lists and dicts (enough for frontmatter tests)."""
    pad = " " * indent
    out = []
    for key, value in data.items():
        if isinstance(value, dict):
            out.append(f"{pad}{key}:\n" + render_yaml(value, indent + 2) if value else f"{pad}{key}: {{}}\n")
        elif isinstance(value, list):
            out.append(f"{pad}{key}:\n" + "".join(f"{pad}  - {_scalar(str(item))}\n" for item in value))
        else:
            out.append(f"{pad}{key}: {_scalar(str(value))}\n")
    return "".join(out)


def skill_text(frontmatter: str | dict | None, body: str = "") -> str:
    """The whole SKILL.md text for a frontmatter (text or dict) and a body."""
    if frontmatter is None:
        return body
    block = render_yaml(frontmatter) if isinstance(frontmatter, dict) else frontmatter
    if block and not block.endswith("\n"):
        block += "\n"
    return f"---\n{block}---\n{body}"


def write_skill(
    root: Path | str,
    folder: str,
    frontmatter: str | dict | None = None,
    body: str = "",
    *,
    raw: bytes | None = None,
) -> Path:
    """Write `root/folder/SKILL.md` and return its path. `raw` writes those exact bytes instead.

    With neither `frontmatter` nor `raw`, a valid skill named after the folder is written.
    """
    folder_path = Path(root) / folder
    folder_path.mkdir(parents=True, exist_ok=True)
    path = folder_path / "SKILL.md"
    if raw is not None:
        path.write_bytes(raw)
        return path
    if frontmatter is None:
        frontmatter = {"name": folder, "description": f"The {folder} skill."}
    path.write_bytes(skill_text(frontmatter, body).encode("utf-8"))
    return path


@dataclass
class Layout:
    """A workspace folder and a home folder; `roots` are the five discovery roots in precedence order."""

    workspace: Path
    home: Path

    @property
    def roots(self) -> list[Path]:
        return [
            self.workspace / ".albedo" / "skills",
            self.workspace / ".agents" / "skills",
            self.home / ".albedo" / "skills",
            self.home / ".agents" / "skills",
            self.home / ".prime" / "agent" / "skills",
        ]

    def root(self, index: int) -> Path:
        path = self.roots[index]
        path.mkdir(parents=True, exist_ok=True)
        return path

    def discover(self, **kwargs: Any) -> Catalog:
        return discovery.discover(str(self.workspace), str(self.home), **kwargs)


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    workspace = tmp_path / "ws"
    home = tmp_path / "home"
    workspace.mkdir()
    home.mkdir()
    return Layout(workspace, home)


def rng(line: int, start: int, end_line: int, end: int) -> Range:
    return Range.of(line, start, end_line, end)


def codes(diagnostics: Iterable[Diagnostic]) -> list[str]:
    return [d.code for d in diagnostics]


def only(diagnostics: Iterable[Diagnostic], code: str) -> Diagnostic:
    """The single diagnostic with this code (fails, showing all of them, when there are 0 or several)."""
    diagnostics = list(diagnostics)
    found = [d for d in diagnostics if d.code == code]
    assert len(found) == 1, [(d.code, d.path, d.message) for d in diagnostics]
    return found[0]


def is_root() -> bool:
    return os.geteuid() == 0
