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
