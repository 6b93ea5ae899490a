"""Regular expressions built from programs compiled ahead of time: `compile` is `re.compile`, faster.

`re.compile` parses a pattern and compiles it to the engine's program in pure Python. The project's
expressions take about 30 ms together (the security reading's instruction families and sentence starts
most of it), and every process paid for those it used: about 18 ms of a one-skill `check`, and again in
the helper process of a spread one. The program itself is a list of integers that CPython's `re` hands to
`_sre.compile`, which checks it (an invalid program is refused with an error, never run) and builds the
pattern in microseconds.

`compiled_programs.py` holds the program of every expression the package compiles when a module loads or
on first use (`albedo_skills_ls/generate/programs.py` finds them), written by
`python -m albedo_skills_ls.generate` for one interpreter: its bytecode tag, the engine's `MAGIC` and code
size, for which CPython keeps a program's format. `compile` builds a pattern from its program on that
interpreter, and calls `re.compile` on any other, for a pattern missing from the table (changed since it
was generated), or when the table cannot be read: the table makes a start faster, never different.
tests/unit/test_programs.py holds each program to what `re` compiles.
"""

from __future__ import annotations

import re
import sys
from typing import Any

try:  # CPython's engine; on another implementation, every expression is compiled by `re`
    import _sre
except ImportError:  # pragma: no cover - depends on the interpreter
    _sre = None  # type: ignore[assignment]

# an expression's program: its flags as compiled, its group count and names, and where its code lies in
# the table's words
Program = tuple[int, int, dict[str, int], int, int]

_table: dict[tuple[str, int], Program] | None = None
_words: list[int] | None = None


def interpreter() -> tuple[str, int, int] | None:
    """What a program's format depends on: the bytecode tag, the engine's MAGIC and its code size."""
    if _sre is None or sys.implementation.cache_tag is None:
        return None
    return sys.implementation.cache_tag, _sre.MAGIC, _sre.CODESIZE


def key_of(pattern: str, flags: int) -> tuple[str, int]:
    """The table's key: a text pattern is Unicode whether or not the flag is passed."""
    return pattern, int(flags) & ~int(re.UNICODE)


def _load() -> dict[tuple[str, int], Program]:
    """The table, when it was generated for this interpreter; empty otherwise."""
    global _table, _words
    if _table is None:
        _table = {}
        try:
            from . import compiled_programs as generated

            if generated.INTERPRETER == interpreter():
                import zlib
                from array import array

                words = array("I")
                if words.itemsize == _sre.CODESIZE:
                    words.frombytes(zlib.decompress(generated.WORDS))
                    if sys.byteorder != "little":  # written little-endian
                        words.byteswap()
                    _words = words.tolist()
                    _table = generated.PROGRAMS
        except Exception:  # a table that cannot be read is no table: `re` compiles
            _table = {}
    return _table


def compile(pattern: Any, flags: int = 0) -> re.Pattern[Any]:
    """`re.compile(pattern, flags)`, from the program compiled ahead of time where there is one."""
    program = _load().get(key_of(pattern, flags)) if isinstance(pattern, str) else None
    if program is None or _words is None:
        return re.compile(pattern, flags)
    final_flags, groups, group_index, start, end = program
    index_group = [None] * (groups + 1)
    for name, number in group_index.items():
        index_group[number] = name
    try:
        return _sre.compile(pattern, final_flags, _words[start:end], groups, group_index, tuple(index_group))
    except Exception:  # refused by the engine's check: compile it as `re` does
        return re.compile(pattern, flags)


def program_of(pattern: str, flags: int = 0) -> tuple[int, int, dict[str, int], list[int]]:
    """What `re` compiles `pattern` into on this interpreter: the flags, the group count, the group names
    and the code (the generator writes these into the table)."""
    from re import _compiler, _parser  # CPython's own compiler, the one `re.compile` runs

    parsed = _parser.parse(pattern, flags)
    code = [int(word) for word in _compiler._code(parsed, flags)]
    return int(flags | parsed.state.flags), parsed.state.groups - 1, dict(parsed.state.groupdict), code
