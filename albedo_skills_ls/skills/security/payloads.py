"""Encoded payloads: long base64 or hex whose decoded start is a script, shell commands or an executable.

Each run of at least `MIN_ENCODED_CHARS` base64 or hex characters (or `\\xNN` escapes) is decoded up to
`MAX_DECODED_BYTES` (its start; decoding is bounded and nothing decoded is ever run) and judged by what it
starts with: an executable header (ELF, PE `MZ`, Mach-O, Java class), a `#!` line, or mostly printable text
holding shell or PowerShell commands. An image, a hash, a key or a compressed blob decodes to none of
these and is left alone (a base64 PNG icon in a data URL is the common, benign case).
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterator

from ..core import security_codes
from ..core.limits import MAX_DECODED_BYTES, MIN_ENCODED_CHARS
from ..core.model import Diagnostic
from .prefilter import Expression
from .text import Haystack, Text, shown

# one character class each, so a run is consumed once (a short run fails after at most MIN_ENCODED_CHARS)
# base64 and its URL-safe alphabet, spelled out: the `string` module costs a start ~1 ms for two constants
_BASE64_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/_-"
_BASE64 = Expression(f"[{re.escape(_BASE64_CHARACTERS)}]{{{MIN_ENCODED_CHARS},}}={{0,2}}")
_ESCAPED_HEX = Expression(f"(?:\\\\x[0-9a-fA-F]{{2}}){{{MIN_ENCODED_CHARS // 2},}}")
_HEX = Expression(r"[0-9a-fA-F]+")

_HEADERS = (
    (b"\x7fELF", "an ELF executable (Linux)"),
    (b"MZ", "a Windows executable (PE, `MZ`)"),
    (b"\xcf\xfa\xed\xfe", "a Mach-O executable (macOS)"),
    (b"\xce\xfa\xed\xfe", "a Mach-O executable (macOS)"),
    (b"\xfe\xed\xfa\xcf", "a Mach-O executable (macOS)"),
    (b"\xfe\xed\xfa\xce", "a Mach-O executable (macOS)"),
    (b"\xca\xfe\xba\xbe", "a Mach-O universal binary or Java class"),
    (b"#!", "a script (`#!` line)"),
)
# words that make decoded text a command rather than prose or data
_COMMAND_WORDS = Expression(
    rb"\b(?:curl|wget|bash|/bin/sh|sh -c|powershell|invoke-expression|invoke-webrequest|iex|chmod|rm -rf|"
    rb"nc -e|/dev/tcp|eval|exec|subprocess|os\.system|import os|downloadstring|frombase64string|"
    rb"start-process|certutil|bitsadmin|mshta|rundll32|regsvr32)\b",
    re.IGNORECASE,
)
_MIN_PRINTABLE_SHARE = 0.9  # of decoded bytes, for decoded text to count as text


def may_hold_run(text: Text) -> bool:
    """Whether `_BASE64` can match in the text (asked of the skill's texts together first)."""
    return text.may_hold(_BASE64, _has_long_piece)


def _has_long_piece(haystack: Haystack) -> bool:
    """Whether a run of `_BASE64` may lie in the text. Its class holds no white space, so a run lies inside
    one of the text's words (`Haystack.distinct_words`, lower-cased: the class's ASCII letters stay letters
    in place); cut at every other ASCII character as well, a word holding a run still has MIN_ENCODED_CHARS
    characters or more. Prose and Markdown links have no such piece, and finding that out is two C passes
    over the distinct words, where the expression would be tried at every position of every word."""
    pieces = haystack.distinct_words_joined().translate(_OUTSIDE_THE_CLASS).split()
    return max(map(len, pieces), default=0) >= MIN_ENCODED_CHARS


_OUTSIDE_THE_CLASS = {code: " " for code in range(128) if chr(code) not in _BASE64_CHARACTERS}


def _judge(data: bytes) -> str | None:
    for header, what in _HEADERS:
        if data.startswith(header):
            if header == b"MZ" and len(data) < 64:  # two letters alone are no PE header
                continue
            return what
    if not data:
        return None
    sample = data[:4096]
    if len(sample) >= 8 and sample[1::2].count(0) * 10 >= len(sample[1::2]) * 9:
        # UTF-16LE, as PowerShell's -EncodedCommand takes it: judge the text it spells
        data = sample.decode("utf-16-le", "replace").encode("ascii", "replace")
    printable = sum(1 for byte in data[:4096] if 32 <= byte < 127 or byte in (9, 10, 13))
    if printable / min(len(data), 4096) >= _MIN_PRINTABLE_SHARE and _COMMAND_WORDS.search(data):
        return "shell or PowerShell commands"
    return None


def _decode_base64(run: str) -> bytes | None:
    cut = run.rstrip("=")[: (MAX_DECODED_BYTES + 2) // 3 * 4]
    cut = cut[: len(cut) - 1] if len(cut) % 4 == 1 else cut + "=" * (-len(cut) % 4)
    try:
        if "-" in cut or "_" in cut:
            cut = cut.replace("-", "+").replace("_", "/")
        return binascii.a2b_base64(cut)[:MAX_DECODED_BYTES]
    except (binascii.Error, ValueError):
        return None


def _decode_hex(run: str) -> bytes | None:
    cut = run[: MAX_DECODED_BYTES * 2]
    cut = cut[: len(cut) - len(cut) % 2]
    try:
        return bytes.fromhex(cut)
    except ValueError:
        return None


def scan(text: Text) -> Iterator[Diagnostic]:
    source = text.text
    for match in _BASE64.finditer(source) if may_hold_run(text) else ():
        run = match.group()
        if _HEX.fullmatch(run):
            data, encoding = _decode_hex(run), "hex"
            if data is None or _judge(data) is None:  # a hex-looking run may still be base64
                data, encoding = _decode_base64(run), "base64"
        else:
            data, encoding = _decode_base64(run), "base64"
        if data is None:
            continue
        yield from _finding(text, match.start(), match.end(), data, encoding)
    for match in text.matches_in_text(_ESCAPED_HEX):
        data = _decode_hex(match.group().replace("\\x", "")[: MAX_DECODED_BYTES * 2])
        if data is not None:
            yield from _finding(text, match.start(), match.end(), data, "`\\x` hex escapes")


def _finding(text: Text, start: int, end: int, data: bytes, encoding: str) -> Iterator[Diagnostic]:
    what = _judge(data)
    if what is None:
        return
    preview = data[:80].decode("latin-1")
    yield security_codes.SECURITY_ENCODED_PAYLOAD.at(
        text.path,
        f"{end - start:,} characters of {encoding} decode to {what}; the decoded start: “{shown(preview, 80)}”. "
        "Decode and read it before trusting the skill: nothing readable needs to be encoded",
        text.range(start, end),
    )
