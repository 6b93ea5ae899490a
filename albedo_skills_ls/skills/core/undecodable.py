"""Bytes of a file name that were not UTF-8 on disk, shown as escapes wherever a name is written out.

Python decodes such bytes to U+DC80..U+DCFF (`surrogateescape`); UTF-8 cannot carry those, so every writer
(the command line's formats, the model's prompt block) shows each as the byte it was, `\\xff`.
"""

from __future__ import annotations


from . import programs

UNDECODABLE_BYTE_FIRST, UNDECODABLE_BYTE_LAST = 0xDC80, 0xDCFF
LONE_SURROGATE = programs.compile("[\ud800-\udfff]")


def escaped_char(char: str) -> str:
    """A character shown as an escape: a byte that was not UTF-8 on disk (a `surrogateescape` surrogate)
    as that byte, `\\xff`; any other as its code point."""
    code = ord(char)
    if UNDECODABLE_BYTE_FIRST <= code <= UNDECODABLE_BYTE_LAST:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def undecodable_escaped(text: str) -> str:
    """`text` with only its lone surrogates (bytes that were not UTF-8) escaped, for formats that escape
    line breaks their own way (GitHub annotations, the prompt block)."""
    return LONE_SURROGATE.sub(lambda match: escaped_char(match.group()), text)
