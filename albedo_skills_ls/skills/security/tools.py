"""`allowed-tools` that grants an unrestricted shell: every command the skill asks for runs without the agent
asking the user first. A shell tool with a command pattern (`Bash(git status:*)`) is narrow and left alone;
a bare shell tool, or one whose pattern is only a wildcard, is not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .. import codes
from ..frontmatter import split_and_parse
from ..model import Diagnostic
from ..yamltree import Mapping, Scalar, Sequence
from .text import Text

_SHELL_TOOLS = frozenset({"bash", "shell", "powershell", "run_shell_command", "terminal", "sh", "zsh", "cmd"})
_WILDCARDS = frozenset({"", "*", "*:*", ":*", "**"})
_TOOL = re.compile(r"[^\s,()\"']+(?:\([^()\n]{0,256}\))?")  # a name, with its pattern in parentheses if any


def _broad(tool: str) -> bool:
    name, _, pattern = tool.partition("(")
    return name.lower() in _SHELL_TOOLS and pattern.rstrip(")").strip() in _WILDCARDS


def scan(text: Text) -> Iterator[Diagnostic]:
    parsed = split_and_parse(text.text, text.path)
    root = parsed.frontmatter.root if parsed.frontmatter is not None else None
    if not isinstance(root, Mapping):
        return
    entry = root.get("allowed-tools")
    if entry is None:
        return
    value = entry.value
    if isinstance(value, Scalar):
        scalars = [value]
    else:  # a list of tool names (`allowed-tools-list`), or something else that names no tool
        scalars = [item for item in value.items if isinstance(item, Scalar)] if isinstance(value, Sequence) else []
    for scalar in scalars:
        if scalar.start_line != scalar.end_line:  # a block scalar: the ranges of its words are not exact
            words = [(m.group(), None) for m in _TOOL.finditer(scalar.value)]
        else:
            line = text.line_text(scalar.start_line)
            segment = line[scalar.start_column : scalar.end_column]
            words = [(m.group(), m.start() + scalar.start_column) for m in _TOOL.finditer(segment)]
        for tool, column in words:
            if not _broad(tool):
                continue
            where = scalar.range if column is None else text.range(
                text.line_starts[scalar.start_line] + column, text.line_starts[scalar.start_line] + column + len(tool)
            )
            yield codes.SECURITY_BROAD_TOOLS.at(
                text.path,
                f"`allowed-tools` grants `{tool}`: any shell command the skill's instructions ask for runs without "
                "the agent asking you. Narrow it to the commands the skill needs, such as `Bash(git diff:*)`, or "
                "remove it",
                where,
            )
