"""What the editor sessions typed at in tmux (test_lsp_mode.py, test_lazy_nvim.py) start from: a workspace
with a skill whose name is not its folder's, one with a misspelt key and a chat file, and the setup
snippets exactly as the docs print them."""

from __future__ import annotations

import re
from pathlib import Path

CHAT_TEXT = "# A chat\n"


def write_skill(root: Path, folder: str, frontmatter: str) -> Path:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{frontmatter}\n---\n# Instructions\n\nDo the thing.\n", encoding="utf-8")
    return path


def broken_workspace(ws: Path) -> dict[str, Path]:
    """`ws` with `good` (the completion's target), `bad` (name-mismatch), `fixme` (`desciption`) and
    `talk.chat.md`; no .git, so the workspace is found by its `.agents` folder."""
    (ws / ".agents").mkdir(parents=True)
    write_skill(ws / ".agents/skills", "good", "name: good\ndescription: Does a good thing.")
    chat = ws / "talk.chat.md"
    chat.write_text(CHAT_TEXT, encoding="utf-8")
    return {
        "bad": write_skill(ws / ".agents/skills", "bad", "name: wrong\ndescription: Does a bad thing."),
        "fixme": write_skill(ws / ".agents/skills", "fixme", "name: fixme\ndesciption: Fixes things."),
        "chat": chat,
    }


def documented_snippet(document: Path, after: str, language: str) -> str:
    """The first ```LANGUAGE block after the text `after` in `document`, as written."""
    text = document.read_text(encoding="utf-8")
    assert after in text, f"{document} no longer has {after!r}"
    found = re.search(rf"```{language}\n(.*?)```", text.split(after, 1)[1], re.S)
    assert found, f"{document} has no {language} snippet after {after!r}"
    return found.group(1)
