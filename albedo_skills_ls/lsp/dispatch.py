"""How every editor feature starts, written once: the dispatcher's prologue.

Every editor feature (completion, hover, actions, links, symbols, and the optional ones a client declares)
starts the same way: take the open buffer from a snapshot of the documents (`AlbedoLanguageServer.buffers()`),
decide whether it is a `SKILL.md`, a chat buffer or an agent's instruction file, and answer for that kind
(`by_kind`, and `offer` for the optional features, registered at `initialize` for the clients that declare
them and switched off by their setting); then it turns the client's position (UTF-16 by default) into the
engine's code-point position. Errors inside a feature are logged and answered with an error that names the
feature, never with a crash (`isolated`).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from typing import Any, Callable, TypeVar

from pygls.exceptions import JsonRpcException, JsonRpcInternalError

from .client import ClientFeatures
from .documents import Kind, OpenDocument
from .server import AlbedoLanguageServer
from .settings import Settings

log = logging.getLogger("albedo_skills_ls")


def open_document(ls: AlbedoLanguageServer, uri: str) -> OpenDocument | None:
    """The open buffer at `uri`, read now, or None (also when the extension is disabled)."""
    return ls.buffers().at_uri(uri) if ls.settings.enable else None


T = TypeVar("T")


def by_kind(
    ls: AlbedoLanguageServer,
    uri: str,
    otherwise: T,
    *,
    skill: Callable[[OpenDocument], T] | None = None,
    chat: Callable[[OpenDocument], T] | None = None,
    instructions: Callable[[OpenDocument], T] | None = None,
    skill_needs_file: bool = True,
) -> T:
    """The prologue every editor feature shares: the open buffer at `uri`, answered by `skill(document)`
    for a `SKILL.md`, `chat(document)` for a chat buffer or `instructions(document)` for an agent's
    instruction file; `otherwise` when it is not open, the extension is
    disabled, or the feature does not serve its kind. A `SKILL.md` without a file (an `untitled:` buffer)
    goes to `skill` only when the feature needs no folder (`skill_needs_file=False`: hover, symbols)."""
    document = open_document(ls, uri)
    if document is None:
        return otherwise
    if document.kind == "skill" and skill is not None and (document.path is not None or not skill_needs_file):
        return skill(document)
    if document.kind == "chat" and chat is not None:
        return chat(document)
    if document.kind == "instructions" and instructions is not None:
        return instructions(document)
    return otherwise


def offer(
    server: AlbedoLanguageServer,
    method: str,
    feature: str,
    *,
    kinds: tuple[Kind, ...] | None = ("skill",),
    options: Callable[[ClientFeatures], Any] | None = None,
    declared: Callable[[ClientFeatures], bool] | None = None,
    after_discovery: bool = False,
) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """The prologue every optional editor feature shares, written once. `feature` names both the client's
    flag (`ClientFeatures.<feature>`, unless `declared` says otherwise) and the switch that turns it off
    (`Settings.<feature>`): the decorated answer is registered for `method` at `initialize`, and only for a
    client that declares the feature, so only those clients see it advertised (`options(ls.client)`: its
    registration options). Each request is answered None while the extension or the feature's setting is
    off; else the answer is called with the open buffer at the request's URI, `answer(ls, document, params)`,
    when the buffer is one of `kinds` (None: a request that names no document, `answer(ls, params)`). An
    answer `after_discovery` waits for the first catalog (a request sent while it is still being
    discovered). Failures are `isolated`."""
    switches = {setting.name for setting in dataclasses.fields(Settings)}
    flags = {flag.name for flag in dataclasses.fields(ClientFeatures)}
    if feature not in switches or (declared is None and feature not in flags):
        raise ValueError(f"{feature!r} must name a field of Settings (and of ClientFeatures, unless `declared` is given)")
    is_declared = declared or (lambda client: getattr(client, feature))

    def decorate(answer: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(answer)
        def prologue(ls: AlbedoLanguageServer, params: Any) -> Any:
            if not ls.settings.enable or not getattr(ls.settings, feature):
                return None
            if kinds is None:
                return answer(ls, params)
            document = open_document(ls, params.text_document.uri)
            if document is None or document.kind not in kinds:
                return None
            return answer(ls, document, params)

        handler = waiting_for_discovery(isolated(prologue)) if after_discovery else isolated(prologue)

        def register_if_declared(ls: AlbedoLanguageServer) -> None:
            if is_declared(ls.client):
                ls.feature(method, options(ls.client) if options is not None else None)(handler)

        server.offered.append(register_if_declared)
        return answer

    return decorate


def waiting_for_discovery(handler: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(handler)
    async def waiting(ls: AlbedoLanguageServer, params: Any) -> Any:
        await ls.ready.wait()
        return handler(ls, params)

    return waiting


def isolated(handler: Callable[..., Any]) -> Callable[..., Any]:
    """A feature handler whose failure is logged with its traceback and answered as a JSON-RPC error
    that names the feature, so one broken feature never takes the request loop or the server down."""

    @functools.wraps(handler)
    def run(*args: Any) -> Any:
        try:
            return handler(*args)
        except JsonRpcException:
            raise
        except Exception as exc:
            log.exception("%s failed", handler.__name__)
            raise JsonRpcInternalError(
                f"albedo-skills: {handler.__name__} failed ({exc.__class__.__name__}: {exc}); "
                "the server log has the details"
            ) from exc

    return run
