"""`workspace/executeCommand` routes (docs/design.md#5-commands).

Each route takes the arguments positionally, validates them itself (so a missing optional argument takes
its default and a wrong type gets a message that says what to pass), reads one snapshot once, and maps
engine refusals to JSON-RPC errors: InvalidParams for bad arguments, RequestFailed for refused or stale
requests. The server keeps serving after any of them.
"""

from __future__ import annotations

import functools
import logging
import os
from typing import Any, Callable

from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from ..skills.activation import commands as activation
from ..skills.core import limits
from ..skills.resources import listing as resource_listing, paging as resource_paging
from ..skills.activation.prompt import prompt_block
from ..skills.catalog.session import SkillsSession
from ..skills.core.errors import InvalidArguments, Refused, require_unicode
from ..skills.core.model import Skill
from .server import AlbedoLanguageServer
from .uris import uri_to_path

REQUEST_FAILED = -32803  # LSP ErrorCodes.RequestFailed

COMMANDS = (
    "skills.read",
    "skills.resources",
    "commands.catalog",
    "commands.invoke",
    "skills.reload",
    "skills.prompt",
    "skills.refused",
)


log = logging.getLogger("albedo_skills_ls")


class RequestFailed(JsonRpcException):
    CODE = REQUEST_FAILED
    MESSAGE = "Request failed"


class InvalidArgumentsError(JsonRpcInvalidParams):
    """InvalidParams (-32602) for arguments a route refused, told apart from pygls's own."""


# A refusal is an answer, not a failure of the server: a chat sends `commands.invoke` for whatever the person
# typed after `/`. The route logs it as one information line; pygls's own record of it (a traceback at error
# level, which editors show as a server error) is dropped by RouteRefusalsLogged.
_ROUTE_REFUSALS = (RequestFailed, InvalidArgumentsError)


def _route(handler: Callable[..., Any]) -> Callable[..., Any]:
    name = handler.__name__.removeprefix("_").replace("_", ".", 1)

    @functools.wraps(handler)
    async def wrapper(ls: AlbedoLanguageServer, *args: Any) -> Any:
        # A client may call right after `initialize`, while the first discovery is still running.
        await ls.ready.wait()
        try:
            if not ls.settings.enable:
                raise Refused("the Albedo skills extension is disabled (`albedoSkills.enable`): enable it first")
            for index, argument in enumerate(args):
                _require_unicode_within(f"argument {index + 1}", argument)
            return handler(ls, *args)
        except InvalidArguments as exc:
            log.info("%s refused its arguments: %s", name, exc)
            raise InvalidArgumentsError(str(exc)) from exc
        except Refused as exc:
            log.info("%s refused: %s", name, exc)
            raise RequestFailed(str(exc)) from exc

    return wrapper


class RouteRefusalsLogged(logging.Filter):
    """For pygls's request logger: drops its record of a route's refusal, which the route logged already."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, _ROUTE_REFUSALS)


def _require_unicode_within(what: str, value: Any) -> None:
    """Every string in a JSON argument (keys too) is valid Unicode: a lone surrogate names no file and must
    never reach an activation raw (docs/design.md#8-trust-boundaries)."""
    if isinstance(value, str):
        require_unicode(what, value)
    elif isinstance(value, list):
        for item in value:
            _require_unicode_within(what, item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _require_unicode_within(what, key)
            _require_unicode_within(what, item)


def _arguments(args: tuple[Any, ...], names: tuple[str, ...], required: int) -> list[Any]:
    if not required <= len(args) <= len(names):
        wanted = ", ".join(f"{name}?" if index >= required else name for index, name in enumerate(names))
        raise InvalidArguments(f"expected arguments [{wanted}], got {len(args)}")
    return list(args) + [None] * (len(names) - len(args))


def _session(ls: AlbedoLanguageServer, folder: Any) -> SkillsSession:
    """The session of a workspace folder (its `file:` URI or path), so an editor can ask about the folder of
    the active file; none given: the first folder's."""
    if folder is None:
        return ls.workspaces.primary()
    path = uri_to_path(folder) if isinstance(folder, str) and folder.startswith("file:") else folder
    if not isinstance(path, str) or not path:
        raise InvalidArguments("`folder` must be a workspace folder's `file:` URI or path, or null for the first")
    wanted = os.path.normpath(path)
    for session in ls.workspaces.sessions:
        if session.workspace is not None and os.path.normpath(session.workspace) == wanted:
            return session
    known = ", ".join(session.workspace for session in ls.workspaces.sessions if session.workspace) or "none"
    raise InvalidArguments(f"`folder` must be one of this server's workspace folders ({known}); got `{folder}`")


def _find_skill(ls: AlbedoLanguageServer, name: Any) -> Skill:
    """The skill of that name in the first session whose snapshot has it (sessions share the user roots)."""
    if not isinstance(name, str) or not name:
        raise InvalidArguments("`name` must be a skill name such as `demo`")
    bare = name.removeprefix("/skill:").removeprefix("/")
    for snapshot in [session.snapshot for session in ls.workspaces.sessions] or [ls.workspaces.primary().snapshot]:
        skill = snapshot.skill(bare)
        if skill is not None:
            return skill
    raise Refused(f"no skill named `{name}` in the catalog: call commands.catalog, or skills.reload if it is new")


def register(server: AlbedoLanguageServer) -> None:
    @server.command("commands.catalog")
    @_route
    def commands_catalog(ls: AlbedoLanguageServer, *args: Any) -> list[dict[str, Any]]:
        (folder,) = _arguments(args, ("folder",), 0)
        return activation.command_catalog(_session(ls, folder).snapshot)

    @server.command("skills.refused")
    @_route
    def skills_refused(ls: AlbedoLanguageServer, *args: Any) -> list[dict[str, Any]]:
        (folder,) = _arguments(args, ("folder",), 0)
        return activation.refused_skills(_session(ls, folder).snapshot)

    @server.command("skills.prompt")
    @_route
    def skills_prompt(ls: AlbedoLanguageServer, *args: Any) -> dict[str, str]:
        (folder,) = _arguments(args, ("folder",), 0)
        return {"text": prompt_block(_session(ls, folder).snapshot)}

    @server.command("commands.invoke")
    @_route
    def commands_invoke(ls: AlbedoLanguageServer, *args: Any) -> dict[str, Any]:
        command, arguments, mode, folder = _arguments(args, ("command", "arguments", "mode", "folder"), 1)
        session = _session(ls, folder)
        return activation.invoke(
            session.snapshot,
            command,
            "" if arguments is None else arguments,
            "model" if mode is None else mode,
            reload=lambda: _reload(ls),
        )

    @server.command("skills.resources")
    @_route
    def skills_resources(ls: AlbedoLanguageServer, *args: Any) -> dict[str, Any]:
        (name,) = _arguments(args, ("name",), 1)
        skill = _find_skill(ls, name)
        return resource_listing.list_resources(skill.name, skill.folder, discovery_root=skill.root)

    @server.command("skills.read")
    @_route
    def skills_read(ls: AlbedoLanguageServer, *args: Any) -> dict[str, Any]:
        name, resource, offset, limit = _arguments(args, ("name", "resource", "offset", "limit"), 1)
        skill = _find_skill(ls, name)
        return resource_paging.read_resource(
            skill.name,
            skill.folder,
            "SKILL.md" if resource is None else resource,
            0 if offset is None else offset,
            limits.DEFAULT_READ_LIMIT if limit is None else limit,
            discovery_root=skill.root,
            verdicts=ls.workspaces.primary().encoding_verdicts,  # keyed by file identity: any session's would do
        )

    @server.command("skills.reload")
    @_route
    def skills_reload(ls: AlbedoLanguageServer, *args: Any) -> dict[str, Any]:
        _arguments(args, (), 0)
        return _reload(ls)


def _reload(ls: AlbedoLanguageServer) -> dict[str, Any]:
    """Reload every session; the result describes the primary session (the one commands read)."""
    summaries = ls.reload_all()
    return summaries[0]
