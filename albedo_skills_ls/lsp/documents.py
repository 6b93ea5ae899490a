"""Open documents as the feature modules need them: found by URI, classified, positions in engine units.

Part of the server core (it imports no feature module). `kind_of` is the one place that decides whether a
document is a `SKILL.md`, a chat buffer, an agent's instruction file (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`:
its `/commands` are checked as typed and fixed by quick fix) or neither; the server core and every feature
ask it.

Every editor feature (completion, hover, actions, links, symbols) starts the same way: find the open
buffer, decide whether it is a `SKILL.md` or a chat buffer, and answer for that kind (`by_kind`, written
once); then it turns the client's position (UTF-16 by default) into the engine's code-point position. Errors inside a feature are logged and answered with an
error that names the feature, never with a crash (`isolated`).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import functools
import logging
import os
from dataclasses import dataclass
from typing import Any, Callable, Literal, TypeVar
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError

from ..skills.document.frontmatter import lines_of
from ..skills.document.skill_file import SKILL_FILE
from ..skills.language.mentions import AGENT_INSTRUCTION_FILES
from .client import ClientFeatures
from .convert import LineSource, from_client_character, to_lsp_range
from .settings import Settings
from .uris import path_to_uri, uri_to_path

log = logging.getLogger("albedo_skills_ls")

Kind = Literal["skill", "chat", "instructions"]


@dataclass(frozen=True)
class OpenDocument:
    uri: str
    path: str | None  # None for documents that are not files (`untitled:` chat buffers)
    text: str
    version: int | None
    language_id: str | None
    kind: Kind | None

    @property
    def source(self) -> LineSource:
        return LineSource(self.path or self.uri, self.text)

    def line(self, number: int) -> str:
        lines = lines_of(self.text)
        return lines[number].rstrip("\r\n") if 0 <= number < len(lines) else ""

    def character(self, position: types.Position, encoding: str) -> int:
        """The client's column as a code-point index into its line."""
        return from_client_character(self.line(position.line), position.character, encoding)

    def to_lsp(self, where: Any, encoding: str) -> types.Range:
        return to_lsp_range(where, self.source, encoding)


def base_name(uri: str) -> str:
    path = uri_to_path(uri)
    if path is not None:
        return os.path.basename(path)
    return unquote(uri).rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]


# `ls` is the `AlbedoLanguageServer` in this module's functions, typed `Any` because the server core imports
# this module (naming the class here would be an import cycle).


def _document(ls: Any, uri: str) -> Any:
    # pygls keys its documents by the percent-decoded URI
    return ls.workspace.text_documents.get(unquote(uri))


def _uri_of_open(ls: Any, path: str) -> str | None:
    """The key under which the client's open buffer of `path` is kept: the URI as we write it, else any URI
    naming the same path (a Windows client may spell the drive `C:` or `c%3A` where we write `c:`)."""
    documents = ls.workspace.text_documents
    uri = unquote(path_to_uri(path))
    if uri in documents:
        return uri
    return next((key for key in list(documents) if uri_to_path(key) == path), None)


def open_text(ls: Any, path: str) -> tuple[str, int | None] | None:
    """An open buffer's text and version, found by its file's path; None when the file is not open."""
    uri = _uri_of_open(ls, path)
    if uri is None:
        return None
    document = ls.workspace.text_documents[uri]
    return document.source, document.version


def document_at(ls: Any, path: str) -> OpenDocument | None:
    """`open_document` found by the file's path."""
    if not ls.settings.enable:
        return None
    key = _uri_of_open(ls, path)
    return _described(ls, path_to_uri(path), ls.workspace.text_documents[key]) if key is not None else None


def open_paths(ls: Any) -> list[str]:
    """The files of the open documents (an `untitled:` buffer has none)."""
    return [path for uri in list(ls.workspace.text_documents) if (path := uri_to_path(uri))]


def is_skill_file(uri: str) -> bool:
    """A document named `SKILL.md`, open or not: its name alone decides."""
    return base_name(uri) == SKILL_FILE


def kind_of(uri: str, language_id: str | None, settings: Settings) -> Kind | None:
    """The one place a document is classified: `skill` for a document named SKILL.md (whatever the chat
    settings say), `chat` for one the chat settings select by language id or file name, `instructions` for an
    agent's instruction file by its name (`AGENTS.md`...; a chat pattern matching it wins), else None."""
    if is_skill_file(uri):
        return "skill"
    if language_id is not None and language_id in settings.chat_language_ids:
        return "chat"
    name = base_name(uri)
    if any(fnmatch.fnmatch(name, pattern) for pattern in settings.chat_file_patterns):
        return "chat"
    if name in AGENT_INSTRUCTION_FILES:
        return "instructions"
    return None


def open_document(ls: Any, uri: str) -> OpenDocument | None:
    """The open buffer at `uri`, or None (also when the extension is disabled)."""
    if not ls.settings.enable:
        return None
    return _described(ls, uri, _document(ls, uri))


def _described(ls: Any, uri: str, document: Any) -> OpenDocument | None:
    if document is None:
        return None
    language_id = getattr(document, "language_id", None)
    return OpenDocument(
        uri, uri_to_path(uri), document.source, document.version, language_id, kind_of(uri, language_id, ls.settings)
    )


T = TypeVar("T")


def by_kind(
    ls: Any,
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
    server: Any,
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
        def prologue(ls: Any, params: Any) -> Any:
            if not ls.settings.enable or not getattr(ls.settings, feature):
                return None
            if kinds is None:
                return answer(ls, params)
            document = open_document(ls, params.text_document.uri)
            if document is None or document.kind not in kinds:
                return None
            return answer(ls, document, params)

        handler = waiting_for_discovery(isolated(prologue)) if after_discovery else isolated(prologue)

        def register_if_declared(ls: Any) -> None:
            if is_declared(ls.client):
                ls.feature(method, options(ls.client) if options is not None else None)(handler)

        server.offered.append(register_if_declared)
        return answer

    return decorate


def waiting_for_discovery(handler: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(handler)
    async def waiting(ls: Any, params: Any) -> Any:
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


def markup(ls: Any, markdown: str, feature: Literal["hover", "completion"]) -> types.MarkupContent:
    """Markdown when the client renders it for this feature, else the same text as plain text."""
    renders = ls.client.hover_markdown if feature == "hover" else ls.client.completion_markdown
    kind = types.MarkupKind.Markdown if renders else types.MarkupKind.PlainText
    return types.MarkupContent(kind=kind, value=markdown)


def as_is(ls: Any) -> types.InsertTextMode | None:
    """`insertTextMode` for an item: `asIs` where the client takes it (the text is exact; see
    `ClientFeatures.completion_as_is`), else left out."""
    return types.InsertTextMode.AsIs if ls.client.completion_as_is else None


def fits_typed(candidate: str, typed: str) -> bool:
    """Whether a completion item filtered by `candidate` fits the text it replaces. The server filters its items
    itself: they carry a textEdit (or the list's default edit range) and no filterText (Neovim 0.7 ignores the
    edit's start when an item has one), and Neovim 0.11 shows such items unfiltered, trusting the server."""
    return candidate.casefold().startswith(typed.casefold())
