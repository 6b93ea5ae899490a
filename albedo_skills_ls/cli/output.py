"""Writing for people and for machines: UTF-8 JSON whatever the locale, paths shown relative, one safe line."""

from __future__ import annotations

import os
import sys
from typing import Any

from ..skills.core.undecodable import LONE_SURROGATE, escaped_char

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


class _ShownFrom:
    """The folders paths are shown from, set once per run by the verb that knows its workspace."""

    base: str | None = None  # None: the current folder
    home: str | None = None  # paths under it are shown from `home_shown`; None: not abbreviated
    home_shown = "~"
    said = False  # whether `say_where_paths_are_from` has spoken
    # What `display_path` and `shown_message` gave for each argument since `show_paths_from`: one file's
    # findings name the same path, and often say the same words, thousands of times (a broken link repeated)
    paths: dict[str, str] = {}
    messages: dict[str, str] = {}


def show_paths_from(base: str, home: str | None) -> None:
    """From now on, `display_path` shows paths relative to `base` (the run's workspace) and those under
    the home folder as `~/...`, or, when `home` (`--home DIR` as typed) is given, `DIR/...`: the way the home
    folder was named."""
    _ShownFrom.base = os.path.abspath(base)
    _ShownFrom.home = os.path.abspath(home if home is not None else os.path.expanduser("~"))
    _ShownFrom.home_shown = "~" if home is None else os.path.normpath(home)
    _ShownFrom.paths, _ShownFrom.messages = {}, {}


def say_where_paths_are_from(prog: str) -> None:
    """Before the first line that shows a path: when the run's workspace is not the current folder, say on
    stderr (once) which folder the relative paths start from."""
    base = _ShownFrom.base
    if base is None or _ShownFrom.said:
        return
    _ShownFrom.said = True
    if base != os.getcwd():
        sys.stdout.flush()
        print(f"{prog}: paths are relative to {printable(folder_from_here(base))}", file=sys.stderr)


def folder_from_here(folder: str) -> str:
    """A folder as one would `cd` to it from the current one: `..` (or `../..`) for one above it, else as
    `path_from_here` shows it."""
    here = os.getcwd()
    return os.path.relpath(folder, here) if here.startswith(folder.rstrip(os.sep) + os.sep) else path_from_here(folder)


def path_from_here(path: str) -> str:
    """`path` as one would type it in the current folder (for messages about the command line itself,
    whatever folder `display_path` shows findings from)."""
    try:
        return _shown_from(path, os.getcwd())
    except OSError:
        return path


def display_path(path: str) -> str:
    """A path for people and CI logs: relative to the run's workspace (or, before a verb sets one, the
    current folder)."""
    if _ShownFrom.base is None:
        return path_from_here(path)  # from the current folder, which may change: not remembered
    shown = _ShownFrom.paths.get(path)
    if shown is None:
        shown = _ShownFrom.paths[path] = _shown_from(path, _ShownFrom.base)
    return shown


def _shown_from(path: str, base: str) -> str:
    """Relative to `base` when beneath it; under the home folder the user roots come from, `~/...` (or
    `--home DIR` as typed, `DIR/...`); else as given."""
    if path == base:
        return "."
    if path.startswith(base.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, base)
    home = _ShownFrom.home
    if home is not None and home != os.sep and path.startswith(home + os.sep):
        return os.path.join(_ShownFrom.home_shown, os.path.relpath(path, home))
    return path


def shown_message(message: str) -> str:
    """A diagnostic's message with the absolute paths it names shown as `display_path` shows them: the
    engine writes absolute paths, which beside a relative location read as another place."""
    shown = _ShownFrom.messages.get(message)
    if shown is None:
        shown = _ShownFrom.messages[message] = _message_shown(message)
    return shown


def _message_shown(message: str) -> str:
    import re

    prefixes = [(_ShownFrom.base, ""), (_ShownFrom.home, _ShownFrom.home_shown + os.sep)]
    for prefix, replacement in sorted(
        ((p, r) for p, r in prefixes if p is not None and p != os.sep), key=lambda pair: -len(pair[0])
    ):
        # only at the start of a path: after the message start, a space, a quote, a bracket or a backtick
        message = re.sub(r"(?<![^\s`'\"(\[])" + re.escape(prefix.rstrip(os.sep) + os.sep), replacement, message)
    return message


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
