"""Messages in the command line's words (docs/design.md#7-what-real-skills-taught): the engine's refusals name the server's
routes (`call commands.catalog`), which mean nothing in a shell; here each becomes the verb that does the
same. Every run discovers afresh, so "reload the catalog" is a run of `catalog`."""

from __future__ import annotations

import re

from ..skills.core import programs
from .program import PROG

VERB_FOR_ROUTE = {
    "commands.catalog": f"`{PROG} commands`",
    "commands.invoke": f"`{PROG} invoke`",
    "skills.resources": f"`{PROG} resources SKILL`",
    "skills.read": f"`{PROG} read`",
    "skills.reload": f"`{PROG} catalog`",
}

_ROUTE = programs.compile(r"`?\b(" + "|".join(re.escape(route) for route in VERB_FOR_ROUTE) + r")\b`?")


def in_cli_words(message: str) -> str:
    """`message` with every route name replaced by the command-line verb that does the same."""
    return _ROUTE.sub(lambda match: VERB_FOR_ROUTE[match.group(1)], message)
