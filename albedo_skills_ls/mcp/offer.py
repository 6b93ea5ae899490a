"""What the MCP face offers from one catalog snapshot, without the MCP library.

An `Offer` is built from a `Catalog` once per snapshot and never changed: the Skills extension's entries
(`skills/list`, `skills/get`: the `SKILL.md` URI, the frontmatter as the author wrote it, a complete manifest
of the files with `sha256:` digests and sizes), the files behind `skill://` URIs, one prompt per command and
what the two read-only tools return. A host that re-lists after a change sees the next offer, whole.

Only the catalog's winning, valid skills are offered, and of those only the ones whose files can all be
listed and read within the bounds below: a manifest must be complete for a host to verify what it loads, so
a skill that cannot have one is left out with its reason (`Offer.left_out`), never offered half.

Everything is read through the engine's confinement (`skills/resources/`): the same function reads the bytes
a digest covers and the bytes `resources/read` serves. Nothing a skill holds is executed, imported or fetched.
"""

from __future__ import annotations

import base64
import hashlib
import mimetypes
import os
from types import MappingProxyType
from typing import Any, NamedTuple
from urllib.parse import quote, unquote

from ..skills.activation import commands as activation
from ..skills.core.errors import InvalidArguments, Refused, SkillsError
from ..skills.core.limits import MAX_RESOURCE_FILES
from ..skills.core.model import Catalog, Skill
from ..skills.document.frontmatter import read_text
from ..skills.document.skill_file import SKILL_FILE
from ..skills.resources.listing import list_resources
from ..skills.resources.paging import read_whole_resource

EXTENSION_ID = "io.modelcontextprotocol/skills"
SCHEME = "skill://"
DIRECTORY_MIME = "inode/directory"  # what the extension calls a folder among a directory read's children
# All the bytes of one offered skill's files together. A host loads a skill whole; 16 MiB is the per-skill
# size the extension's hosts are written to accept (read from servers of the extension, not yet from a
# host run), and Albedo lists at most MAX_RESOURCE_FILES (512) files of a skill, the extension's file count.
MAX_OFFERED_SKILL_BYTES = 16 * 1024 * 1024
# The one argument of every prompt: the text typed after the command. Declared required: Gemini CLI (0.61.0,
# run) hands a prompt's positional text only to required arguments, and an optional one reached the model empty;
# an empty text is still accepted (`/demo` alone).
PROMPT_ARGUMENT = "arguments"
# Claude Code (2.1.332, run; its source splits the typed text on whitespace) hands a prompt the typed words one
# per declared argument, in order, drops the words past the last one declared, and refuses the command when a
# required argument gets no word. So to it (the clients named in WORD_SPLITTING_CLIENTS, by the name their
# `clientInfo` gives) each prompt declares `arguments` optional, then optional `word_2` … `word_<PROMPT_WORDS>`,
# and prompts/get joins the ones given, in order, with one space. Every other host gets `arguments` alone:
# VS Code (1.139.1, run) asks for each declared argument in a step of its own, so the words
# would be 31 more steps there. A host sending `arguments` alone gets its text exactly as sent.
PROMPT_WORDS = 32
PROMPT_ARGUMENTS = (PROMPT_ARGUMENT, *(f"word_{number}" for number in range(2, PROMPT_WORDS + 1)))
WORD_SPLITTING_CLIENTS = frozenset({"claude-code"})


class Offered(NamedTuple):
    """One skill as offered: its Skills-extension entry, and its files by path (what `resources/read` may
    serve; anything else under the folder was not in the manifest and is refused)."""

    skill: Skill
    entry: dict[str, Any]
    files: frozenset[str]


class LeftOut(NamedTuple):
    """A winning skill the offer leaves out, and why (logged to the host; `check` says more)."""

    name: str
    path: str
    reason: str


class Offer(NamedTuple):
    catalog: Catalog
    offered: MappingProxyType[str, Offered]  # by skill name, in the catalog's order
    left_out: tuple[LeftOut, ...]


def skill_uri(name: str, resource: str = SKILL_FILE) -> str:
    """`skill://NAME/PATH`, each path segment percent-encoded (a space, `#` or `%` in a file name)."""
    return f"{SCHEME}{name}/{quote(resource, safe='/')}"


def build_offer(catalog: Catalog) -> Offer:
    offered: dict[str, Offered] = {}
    left_out: list[LeftOut] = []
    for skill in catalog.skills:
        try:
            offered[skill.name] = _offered(skill)
        except _NotOfferable as why:
            left_out.append(LeftOut(skill.name, skill.path, str(why)))
        except SkillsError as exc:  # the folder or a file moved, or was swapped for a link, since discovery
            left_out.append(LeftOut(skill.name, skill.path, f"its files could not be read ({exc})"))
    return Offer(catalog, MappingProxyType(offered), tuple(left_out))


class _NotOfferable(Exception):
    pass


def _offered(skill: Skill) -> Offered:
    listing = list_resources(skill.name, skill.folder, discovery_root=skill.root)
    if listing["truncated"]:
        raise _NotOfferable(
            f"its folder holds more than Albedo lists of a skill ({MAX_RESOURCE_FILES} files, or deeper or wider "
            "folders than the listing bounds), so no complete manifest can be given; move what the model does "
            "not need out of the skill's folder"
        )
    manifest: list[dict[str, Any]] = []
    total = 0
    skill_md = b""
    for resource in listing["resources"]:
        data = read_whole_resource(skill.folder, resource, discovery_root=skill.root)
        total += len(data)
        if total > MAX_OFFERED_SKILL_BYTES:
            raise _NotOfferable(
                f"its files hold more than {MAX_OFFERED_SKILL_BYTES // (1024 * 1024)} MiB together, more than "
                "a host loads for one skill; move large data out of the skill's folder"
            )
        if resource == SKILL_FILE:
            skill_md = data
        manifest.append(
            {"uri": skill_uri(skill.name, resource), "digest": f"sha256:{hashlib.sha256(data).hexdigest()}",
             "size": len(data)}
        )
    entry = {"uri": skill_uri(skill.name), "frontmatter": frontmatter_json(skill_md, skill.path), "resources": manifest}
    return Offered(skill, entry, frozenset(listing["resources"]))


def frontmatter_json(data: bytes, path: str) -> dict[str, Any]:
    """The frontmatter mapping as the author wrote it, every field, as JSON values: YAML's scalars keep their
    types (a number stays a number); a date or other value JSON has no type for becomes its text."""
    from ruamel.yaml import YAML  # the catalog checked this frontmatter already; only the offer needs its values

    parsed = read_text(data, path)
    if parsed.text is None or parsed.frontmatter is None:
        raise _NotOfferable(f"its {SKILL_FILE} changed since discovery and has no frontmatter now; reload")
    block = "".join(parsed.lines[1 : parsed.frontmatter.end_line])
    from ruamel.yaml.error import YAMLError

    try:
        value = YAML(typ="safe", pure=True).load(block) or {}
    except (YAMLError, ValueError) as exc:  # the catalog's rules accepted it; a safe load may still refuse
        raise _NotOfferable(f"its frontmatter could not be read as values ({type(exc).__name__}): see `albedo-skills check`") from None
    if not isinstance(value, dict):
        raise _NotOfferable(f"its {SKILL_FILE} frontmatter is no longer a mapping; reload")
    return _json_value(value)


def _json_value(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _json_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(item) for item in value]
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def _skill_of(offer: Offer, uri: str) -> tuple[Offered, bool, str]:
    """The offered skill a `skill://NAME[/PATH]` URI names, whether a `/` follows the name, and PATH as written
    (percent-encoded). Refused, with what to do, for any other URI or a skill not offered."""
    if not isinstance(uri, str) or not uri.startswith(SCHEME):
        raise InvalidArguments(f"{uri!r} is not a skill:// URI; list the skills with skills/list")
    name, slash, encoded = uri[len(SCHEME):].partition("/")
    offered = offer.offered.get(name)
    if offered is None:
        raise Refused(f"no skill `{name}` is served here; list the skills with skills/list (or reload if it is new)")
    return offered, bool(slash), encoded


def parse_skill_uri(offer: Offer, uri: str) -> tuple[Offered, str]:
    """The offered skill and the file path a `skill://NAME/PATH` URI names. Refused (with what to do) for any
    other URI, a skill not offered, or a path not in the skill's manifest: `..`, absolute paths, backslashes
    and NUL, written plainly or percent-encoded, name no listed file, so they are refused before any file is
    looked at (and a listed file is still read through the engine's confinement)."""
    offered, slash, encoded = _skill_of(offer, uri)
    name = offered.skill.name
    resource = unquote(encoded) if slash else ""
    if resource not in offered.files:  # a traversal form is never a listed path: refused before any file is opened
        raise Refused(
            f"{resource!r} is not a file of skill `{name}`: read the files its skills/get entry lists "
            "(a new file is listed once the server has noticed it)"
        )
    return offered, resource


def read_file(offer: Offer, uri: str) -> dict[str, Any]:
    """The `resources/read` contents of a skill file: text when it is UTF-8, else a base64 blob, with the
    same bytes its manifest digest covers (read again, through the confinement, at the time of the read)."""
    offered, resource = parse_skill_uri(offer, uri)
    data = read_whole_resource(offered.skill.folder, resource, discovery_root=offered.skill.root)
    mime = _mime(resource)
    try:
        contents: dict[str, Any] = {"uri": uri, "text": data.decode("utf-8")}
    except UnicodeDecodeError:
        contents = {"uri": uri, "blob": base64.b64encode(data).decode("ascii")}
    if mime:
        contents["mimeType"] = mime
    return contents


def _mime(resource: str) -> str | None:
    return "text/markdown" if resource.endswith(".md") else mimetypes.guess_type(resource)[0]


def directory_children(offer: Offer, uri: str) -> list[dict[str, Any]]:
    """`resources/directory/read`: the direct children of a folder of an offered skill (`skill://NAME` for its
    root, `skill://NAME/PATH` below it, no trailing slash), as its manifest has them: each file with its
    name, MIME type and size, each subfolder as an `inode/directory` resource. A folder is one that holds a
    listed file, so nothing outside the manifest is named and the disk is not read again. Anything else
    is refused with what to do."""
    offered, slash, encoded = _skill_of(offer, uri)
    name = offered.skill.name
    folder = unquote(encoded) if slash else ""
    prefix = f"{folder}/" if folder else ""
    files_prefix = skill_uri(name, "")
    children: dict[str, dict[str, Any]] = {}
    for item in offered.entry["resources"] if folder or not slash else ():  # `skill://NAME/` names no folder
        resource = unquote(item["uri"][len(files_prefix):])
        if not resource.startswith(prefix):
            continue
        child, _, below = resource[len(prefix):].partition("/")
        if below:
            children.setdefault(child, {"uri": skill_uri(name, prefix + child), "name": child, "mimeType": DIRECTORY_MIME})
        else:
            children[child] = {"uri": item["uri"], "name": child, "size": item["size"]}
            if (mime := _mime(resource)) is not None:
                children[child]["mimeType"] = mime
    if not children:  # no listed file lies below it: a file, a path outside the skill, a trailing slash, or nothing
        raise InvalidArguments(
            f"{uri!r} is not a folder of skill `{name}`: a folder URI is `{skill_uri(name, '').rstrip('/')}` or "
            f"`{files_prefix}PATH` without a trailing slash, naming a folder that holds files of its skills/get entry"
        )
    return [children[child] for child in sorted(children)]


def prompt_name(skill: Skill) -> str:
    """The command without its slash: `demo`, or `skill:model` for a skill named like a built-in."""
    return skill.command.removeprefix("/")


def prompts(offer: Offer, by_word: bool = False) -> list[dict[str, Any]]:
    """`prompts/list`: one prompt per offered skill; `by_word` for a host that hands over the typed text a word
    per declared argument (WORD_SPLITTING_CLIENTS)."""
    typed = {"name": PROMPT_ARGUMENT, "description": "the text typed after the command"}
    declared = [typed, *({"name": word} for word in PROMPT_ARGUMENTS[1:])] if by_word else [typed | {"required": True}]
    return [
        {"name": prompt_name(offered.skill), "description": offered.skill.description, "arguments": declared}
        for offered in offer.offered.values()
    ]


def prompt_turn(offer: Offer, name: str, arguments: dict[str, str] | None) -> dict[str, Any]:
    """`prompts/get`: the user turn Albedo submits for `/NAME ARGUMENTS` (the JSON-delimited activation with
    the exact arguments, the source and the instructions, read again from disk)."""
    offered = next((o for o in offer.offered.values() if prompt_name(o.skill) == name), None)
    if offered is None:
        raise Refused(f"no prompt `{name}` is served here; list them with prompts/list (or reload if it is new)")
    given = arguments or {}
    unknown = sorted(set(given) - set(PROMPT_ARGUMENTS))
    if unknown:
        raise InvalidArguments(
            f"prompt `{name}` takes `{PROMPT_ARGUMENT}` (the text after the command) and the words after its first, "
            f"`{PROMPT_ARGUMENTS[1]}` … `{PROMPT_ARGUMENTS[-1]}`; not {', '.join(f'`{n}`' for n in unknown)}"
        )
    text = " ".join(given[word] for word in PROMPT_ARGUMENTS if given.get(word))
    turn = activation.invoke(offer.catalog, offered.skill.command, text, "user")
    return {
        "description": offered.skill.description,
        "messages": [{"role": "user", "content": {"type": "text", "text": turn["input"]}}],
    }


class Fingerprint(NamedTuple):
    """What a look at the disk saw: `mark` (equal marks give equal offers) and how many files it stat'ed."""

    mark: tuple[Any, ...]
    files: int


def fingerprint(catalog: Catalog) -> Fingerprint:
    """What a change on disk alters in the offer built from `catalog`: its winning skills, and the size, time
    and identity of each of their files (listed, not opened). Equal fingerprints give equal offers, so a
    watcher rebuilds (reads and digests every file) only when the fingerprint moved."""
    parts: list[Any] = [catalog.skills]
    files = 0
    for skill in catalog.skills:
        try:
            listing = list_resources(skill.name, skill.folder, discovery_root=skill.root)
        except SkillsError as exc:
            parts.append((skill.name, str(exc)))
            continue
        stats = []
        for resource in listing["resources"]:
            try:
                st = os.stat(os.path.join(skill.folder, resource))
            except OSError:
                stats.append((resource, None))
                continue
            stats.append((resource, st.st_size, st.st_mtime_ns, st.st_ino))
        files += len(stats)
        parts.append((skill.name, listing["truncated"], tuple(stats)))
    return Fingerprint(tuple(parts), files)
