"""The catalog as the model sees it: the `<available_skills>` block.

One renderer for both front ends: the command line's `catalog --format prompt` and the server's
`skills.prompt` route write these same bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.undecodable import undecodable_escaped

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..core.model import Catalog


def _xml_text(text: str) -> str:
    return undecodable_escaped(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def prompt_block(catalog: Catalog) -> str:
    """The catalog as the model sees it: per skill its name, description, SKILL.md path and slash command.

    Never the body and never the optional fields. `<`, `>` and `&` in any value are escaped, so no
    description can close the block early.
    """
    lines = ["<available_skills>"]
    for skill in catalog.skills:
        lines += [
            "<skill>",
            f"<name>{_xml_text(skill.name)}</name>",
            f"<description>{_xml_text(skill.description)}</description>",
            f"<location>{_xml_text(skill.path)}</location>",
            f"<command>{_xml_text(skill.command)}</command>",
            "</skill>",
        ]
    lines.append("</available_skills>")
    return "\n".join(lines) + "\n"
