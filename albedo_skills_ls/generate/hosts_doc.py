"""The agents' part of docs/hosts.md, written from the models themselves so the docs cannot drift from them:
one section per agent (its evidence, roots, walk, duplicates, budget and rules), between marker lines."""

from __future__ import annotations

from ..skills.hosts import models
from ..skills.hosts.model import HostModel
from .sections import replace_section

_WALK_LEVELS = {None: "any depth"}


def _roots(host: HostModel) -> str:
    if host.every_file:
        return "none: it judges every file found under any agent's roots"
    return ", ".join(f"`{'~/' if base == 'home' else ''}{relative}`" for base, relative in host.roots)


def _walk(host: HostModel) -> str:
    walk = host.walk
    levels = "any depth" if walk.max_levels is None else f"at most {walk.max_levels} folder level(s) below a root"
    parts = [levels]
    parts.append("a SKILL.md directly in a root counts" if walk.root_file else "not a SKILL.md directly in a root")
    if not walk.file_links:
        parts.append("a linked SKILL.md is ignored")
    if not walk.folder_links:
        parts.append("linked folders are not followed")
    if not walk.dot_folders:
        parts.append("folders starting with `.` are skipped")
    if walk.skill_hides_below:
        parts.append("a folder holding SKILL.md hides everything below it")
    return "; ".join(parts)


def _duplicates(host: HostModel) -> str:
    policy = host.duplicates
    said = {
        "all": "every copy is kept",
        "first": "the copy in the root listed first above wins" + ("" if policy.message else ", silently"),
        "unstable": "one copy wins, and which one changes from run to run (not deterministic)",
    }[policy.policy]
    if policy.message:
        said += f", with the warning “{policy.message}”"
    return f"{said} ({policy.evidence})" if policy.evidence else said


def section(host: HostModel) -> str:
    lines = [
        f"### `{host.id}`: {host.title}",
        "",
        f"- **Evidence**: {host.evidence}.",
        f"- **Roots**, in the agent's precedence order: {_roots(host)}.",
        f"- **Walk**: {_walk(host)}.",
        f"- **One name twice**: {_duplicates(host)}.",
        f"- **Catalog budget**: {host.budget.figure}." if host.budget else "- **Catalog budget**: none known.",
        "- **Rules** (how each is known):",
    ]
    lines += [f"  - {rule.what} ({rule.evidence})" for rule in host.rules]
    return "\n".join(lines) + "\n"


def render(current: str) -> str:
    body = "\n" + "\n".join(section(host) for host in models()) + "\n"
    return replace_section(current, "agents", "<!-- -->", "the agent models in albedo_skills_ls/skills/hosts/", body)
