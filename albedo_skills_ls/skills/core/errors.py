"""Refusals. The engine raises these; the server maps them to JSON-RPC errors, the command line to exit 1.

Every message says what to do next.
"""


class SkillsError(Exception):
    """Base class: a request the engine will not serve."""


class InvalidArguments(SkillsError):
    """The caller passed arguments of the wrong shape or out of range (JSON-RPC InvalidParams)."""


class Refused(SkillsError):
    """The arguments are well-formed but the request is refused or stale (JSON-RPC RequestFailed):
    an unknown skill, a path outside the skill root, a file too large, an identity changed on disk."""


def require_unicode(what: str, text: str) -> str:
    """`text` itself when it is valid Unicode; InvalidArguments when it holds a lone surrogate (JSON can
    carry `"\\ud800"`, and a command line's undecodable bytes arrive as surrogate escapes). Such text cannot
    be encoded, so it can name no file and must not reach a model's input raw."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidArguments(
            f"{what} is not valid Unicode (a lone surrogate at character {exc.start}); send UTF-8 text"
        ) from None
    return text
