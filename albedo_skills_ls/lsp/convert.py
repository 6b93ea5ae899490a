"""Translation at the LSP edge: engine positions (code points) and client positions, engine diagnostics
and LSP diagnostics (paths and URIs: `uris.py`).

The engine counts characters in code points and lines by `\\n`. Clients count UTF-16 code units unless they
negotiated UTF-8 or UTF-32 (`positionEncoding`). Conversions need the line's text; `LineSource` supplies it
from an open buffer or, for a file that is not open, from a bounded, FIFO-safe read through the engine
(never pygls's `TextDocument.source`, which reads a whole file of any kind).
"""

from __future__ import annotations

from typing import Callable, Sequence

from lsprotocol import types

from ..skills.core import model
from ..skills.document.frontmatter import lines_of
from ..skills.document.skill_file import read_skill_text
from .uris import path_to_uri

SEVERITY = {
    model.ERROR: types.DiagnosticSeverity.Error,
    model.WARNING: types.DiagnosticSeverity.Warning,
    model.INFORMATION: types.DiagnosticSeverity.Information,
}
SOURCE = "albedo-skills"


def units(text: str, encoding: str) -> int:
    """Length of `text` in the client's code units."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == types.PositionEncodingKind.Utf32 or text.isascii():
        return len(text)
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def to_client_character(line: str, character: int, encoding: str) -> int:
    return units(line[:character], encoding)


def from_client_character(line: str, character: int, encoding: str) -> int:
    """The code-point index in `line` of a client column (clamped to the line)."""
    if encoding == types.PositionEncodingKind.Utf32 or line.isascii():
        return min(character, len(line))
    seen = 0
    for index, char in enumerate(line):
        if seen >= character:
            return index
        seen += units(char, encoding)
    return len(line)


def strip_eol(line: str) -> str:
    return line.rstrip("\r\n")


class LineSource:
    """The lines of one document, taken from an open buffer's text or read from disk only when needed."""

    def __init__(self, path: str, text: str | None = None) -> None:
        self.path = path
        self._lines: Sequence[str] | None = lines_of(text) if text is not None else None

    @property
    def lines(self) -> Sequence[str]:
        if self._lines is None:
            text = read_skill_text(self.path)
            self._lines = lines_of(text) if text else []
        return self._lines

    def line(self, number: int) -> str:
        lines = self.lines
        return strip_eol(lines[number]) if 0 <= number < len(lines) else ""


def to_lsp_position(position: model.Position, source: LineSource, encoding: str) -> types.Position:
    if position.character == 0:  # the common case needs no text at all
        return types.Position(line=position.line, character=0)
    line = source.line(position.line)
    return types.Position(line=position.line, character=to_client_character(line, position.character, encoding))


def to_lsp_range(where: model.Range, source: LineSource, encoding: str) -> types.Range:
    return types.Range(
        start=to_lsp_position(where.start, source, encoding), end=to_lsp_position(where.end, source, encoding)
    )


def to_lsp_diagnostic(
    diagnostic: model.Diagnostic, source: LineSource, encoding: str, related_source: Callable[[str], LineSource]
) -> types.Diagnostic:
    return types.Diagnostic(
        range=to_lsp_range(diagnostic.range, source, encoding),
        message=diagnostic.message,
        severity=SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        source=SOURCE,
        related_information=[
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=path_to_uri(item.path), range=to_lsp_range(item.range, related_source(item.path), encoding)
                ),
                message=item.message,
            )
            for item in diagnostic.related
        ]
        or None,
    )
