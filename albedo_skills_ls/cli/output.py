"""Writing for people and for machines: UTF-8 JSON whatever the locale, paths shown relative, one safe line."""

from __future__ import annotations

import os
import sys
from typing import Any

from ..skills.undecodable import LONE_SURROGATE, escaped_char

REPLACEMENT_CHARACTER = "\ufffd"


def print_json(value: Any) -> None:
    """Write `value` as indented JSON in UTF-8, whatever the locale says, so the bytes never vary.

    A name that is not UTF-8 on disk reaches us with its bad bytes as lone surrogates (Python's
    `surrogateescape`), which UTF-8 cannot carry: JSON shows each as U+FFFD, the replacement character.
    """
    import json

    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = LONE_SURROGATE.sub(REPLACEMENT_CHARACTER, text).encode("utf-8")
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def display_path(path: str) -> str:
    """A path for people and CI logs: relative to the current folder when beneath it, else as given."""
    try:
        here = os.getcwd()
    except OSError:
        return path
    if path == here:
        return "."
    if path.startswith(here.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, here)
    return path


def printable(text: str) -> str:
    """One line of terminal-safe text: line breaks, other control characters and bytes that were not
    UTF-8 escaped."""
    if text.isprintable():
        return text
    out = []
    for char in text:
        if char.isprintable() or char == "\t":
            out.append(char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        else:
            out.append(escaped_char(char))
    return "".join(out)


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def use_safe_text_output() -> None:
    """Text output never fails on a character the terminal's encoding lacks."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")
