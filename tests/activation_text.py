"""Reading an activation back out of what a model received: the tests' oracle for `commands.invoke` in user
mode (the engine writes the block, `skills/activation/commands.py`; nothing in the program ever reads it back)."""

from __future__ import annotations

import json
from typing import Any

from albedo_skills_ls.skills.activation.commands import ACTIVATION_CLOSE, ACTIVATION_OPEN


def parse_activation_input(model_input: str) -> dict[str, Any]:
    """The JSON object between the delimiter lines of a user-mode activation."""
    start = model_input.index(f"\n{ACTIVATION_OPEN}\n") + len(ACTIVATION_OPEN) + 2
    end = model_input.index(f"\n{ACTIVATION_CLOSE}", start)
    return json.loads(model_input[start:end])
