"""Logs hold sizes and names, never contents, at every level (docs/design.md#8-trust-boundaries).

pygls logs whole message bodies and parameters (at INFO: every message sent, so every page `skills.read`
returned; at DEBUG: every notification's parameters, so every edited document; at ERROR: the parameters
of a notification that failed, so a document's text). This filter, on every handler the server logs
through, replaces the arguments of pygls's records with short descriptions before they are formatted:
a number or a short word stays, anything else becomes its kind and size. Our own records already log
only sizes and names, and keep their arguments.
"""

from __future__ import annotations

import logging
from typing import Any

MAX_LOGGED_ARGUMENT_CHARS = 80  # a method name, an id or a path fits; a document's text does not


def described(value: Any) -> Any:
    """`value` when it is small and plain, else a description of its kind and size."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return value if len(value) <= MAX_LOGGED_ARGUMENT_CHARS else f"<text of {len(value):,} characters>"
    if isinstance(value, (bytes, bytearray)):
        return f"<{len(value):,} bytes>"
    return f"<{type(value).__name__}>"


class ContentRedaction(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("pygls") and record.args:
            if isinstance(record.args, dict):
                record.args = {key: described(value) for key, value in record.args.items()}
            else:
                record.args = tuple(described(value) for value in record.args)
        return True
