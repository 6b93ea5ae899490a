"""Writing for people and for machines: UTF-8 JSON whatever the locale, paths shown relative, one safe line."""

from __future__ import annotations

import os
import sys
from typing import Any


def print_json(value: Any) -> None:
    """Write `value` as indented JSON in UTF-8, whatever the locale says, so the bytes never vary."""
    import json

    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8"))
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
    """One line of terminal-safe text: line breaks and other control characters escaped."""
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
            out.append(f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
    return "".join(out)


def plural(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else word + 's'}"


def use_safe_text_output() -> None:
    """Text output never fails on a character the terminal's encoding lacks."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")
