"""What one agent run reported about the tree's files: loaded (under a name) or refused (with its words)."""

from __future__ import annotations

from typing import TypedDict


class Entry(TypedDict):
    loads: bool
    name: str | None
    said: str | None  # the agent's own message about the file (a refusal, a warning), when it printed one
    # What the agent's model is given as the description: the text, "" for a skill listed by name only,
    # None when not loaded or when the agent's answer does not show it.
    description: str | None


Seen = dict  # inventory path -> Entry


def loaded(seen: Seen, rel: str | None, name: str, said: str | None = None, description: str | None = None) -> None:
    if rel is not None:
        seen[rel] = Entry(loads=True, name=name, said=said, description=description)


def refused(seen: Seen, rel: str | None, said: str) -> None:
    if rel is not None and rel not in seen:
        seen[rel] = Entry(loads=False, name=None, said=said, description=None)


def note(seen: Seen, rel: str | None, said: str) -> None:
    """Attach a message (e.g. a conflict warning) to a file, whatever the agent did with it."""
    if rel is None:
        return
    entry = seen.setdefault(rel, Entry(loads=False, name=None, said=None, description=None))
    if not entry["said"]:
        entry["said"] = said
    elif said not in entry["said"].split("; "):  # agents repeat a warning for every lookup
        entry["said"] = f"{entry['said']}; {said}"


def texts(value: object):
    """Every string inside a decoded JSON value (a request to a model, a prompt dump), depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for inner in value.values():
            yield from texts(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from texts(inner)
