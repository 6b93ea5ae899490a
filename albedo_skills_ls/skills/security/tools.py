"""`allowed-tools` that grants an unrestricted shell: every command the skill asks for runs without the agent
asking the user first. A shell tool with a command pattern (`Bash(git status:*)`) is narrow and left alone;
a bare shell tool, or one whose pattern is only a wildcard, is not.

Most skills grant no such tool, and parsing the frontmatter again (discovery parsed it, in another step)
was a tenth of the reading: `_may_grant` looks at the block's text first and parses only when a shell
tool's name stands there in a way that could grant it (its reasoning says why that skips no finding).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core import programs
from ..core import security_codes
from ..document.frontmatter import closing_start, opening_end, split_and_parse
from ..core.model import Diagnostic
from ..document.yamltree import Mapping, Scalar, Sequence
from .text import Text

_SHELL_TOOLS = frozenset({"bash", "shell", "powershell", "run_shell_command", "terminal", "sh", "zsh", "cmd"})
_WILDCARDS = frozenset({"", "*", "*:*", ":*", "**"})
_TOOL = programs.compile(r"[^\s,()\"']+(?:\([^()\n]{0,256}\))?")  # a name, with its pattern in parentheses if any


def _broad(tool: str) -> bool:
    name, _, pattern = tool.partition("(")
    return name.lower() in _SHELL_TOOLS and pattern.rstrip(")").strip() in _WILDCARDS


# A shell tool's name as a whole word (looser than a tool token, which only whitespace, `,`, `(`, `)` and
# quotes end: a looser test only parses more), and the one-line `(pattern)` a token may carry
_SHELL_NAME = programs.compile(r"(?<![a-z0-9_])(?:" + "|".join(sorted(_SHELL_TOOLS)) + r")(?![a-z0-9_])")
_PATTERN = programs.compile(r"\(([^()\n]{0,256})\)")


def _may_grant(text: Text) -> bool:
    """False only when `scan` cannot find a broad tool, so it need not parse the frontmatter. `scan` reads
    the frontmatter block (between the opening and closing `---`, found as split_and_parse finds them: no
    block, no finding) and takes tool tokens from a scalar's own text on its line, or from its value when
    it spans lines. A token is broad only if its name, lower-cased, is a shell tool's and it is bare or its
    `(...)` holds only a wildcard. So the block's lower-cased text must hold a shell tool's name as a word
    that is not followed by a one-line `(...)` naming more than a wildcard, unless an escape (a backslash)
    or the folding of a value over lines spells a token the text does not show: a `(` whose pattern goes
    over a line end, or runs past 256 characters, counts as bare, and a backslash anywhere means parse."""
    start = opening_end(text.text)
    end = closing_start(text.text) if start is not None else None
    if end is None:
        return False
    block = text.lower[start:end]
    if "\\" in block:
        return True
    for name in _SHELL_NAME.finditer(block):
        pattern = _PATTERN.match(block, name.end())
        if pattern is None or pattern.group(1).strip() in _WILDCARDS:
            return True
    return False


def scan(text: Text) -> Iterator[Diagnostic]:
    if not _may_grant(text):
        return
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
            yield security_codes.SECURITY_BROAD_TOOLS.at(
                text.path,
                f"`allowed-tools` grants `{tool}`: any shell command the skill's instructions ask for runs without "
                "the agent asking you. Narrow it to the commands the skill needs, such as `Bash(git diff:*)`, or "
                "remove it",
                where,
            )
