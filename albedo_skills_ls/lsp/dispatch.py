"""How every editor feature is answered, written once: the dispatcher.

Each feature is one `Method` of the table in `methods.py`: the LSP method, the answer for each kind of open
document it serves (a `SKILL.md`, a chat buffer, an agent's instruction file, a file a skill bundles, or none
for a request that names no document), and when it is offered (to every client, or registered at
`initialize` only for the clients that declare it, so only those see it advertised) and switched off (its
setting). `handler` turns a method into the handler pygls calls: it takes the `Request` once (the open
documents, settings, client features, sessions: request.py), answers the method's `otherwise` while the
extension or the feature's setting is off or the buffer is of a kind the feature does not serve, and calls
the answer with the request, the open buffer and the parameters. Errors inside an answer are logged and
answered with an error that names the feature, never with a crash (`isolated`).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable

from pygls.exceptions import JsonRpcException, JsonRpcInternalError

from .client import ClientFeatures
from .documents import OpenDocument
from .request import Request
from .server import AlbedoLanguageServer
from .settings import Settings

log = logging.getLogger("albedo_skills_ls")

# the kinds of open document an answer may serve (documents.kind_of), and a file a skill bundles
SKILL, CHAT, INSTRUCTIONS, BUNDLED = "skill", "chat", "instructions", "bundled"
# the key of the answer to a request that names no document (`workspace/symbol`, `workspace/willRenameFiles`)
NO_DOCUMENT = "no document"

Answer = Callable[..., Any]  # answer(request, document, params), or answer(request, params) for NO_DOCUMENT


@dataclass(frozen=True)
class Method:
    """One LSP method an editor feature answers: what answers it for which documents, and when it is offered.

    - `answers`: the answer for each kind of buffer (`SKILL`, `CHAT`, `INSTRUCTIONS`, `BUNDLED`), or for
      `NO_DOCUMENT`; any other buffer, a closed one, or the extension turned off gets `otherwise`.
    - `untitled`: a `SKILL.md` buffer with no file (an `untitled:` one) is answered too (hover, symbols).
    - `switch`: the setting (a field of `Settings`) that turns the feature off, or None.
    - `declared`: the client flag (a field of `ClientFeatures`, or a test of several) without which the
      method is not offered: registered at `initialize` for the clients that declare it. None: offered to
      every client, registered when the server is made.
    - `options`: the registration options, or `client_options` when they depend on the client.
    - `after_discovery`: the answer waits for the first catalog (a request sent while it is being discovered).
    """

    name: str
    answers: Mapping[str, Answer]
    otherwise: Any = None
    untitled: bool = False
    switch: str | None = None
    declared: str | Callable[[ClientFeatures], bool] | None = None
    options: Any = None
    client_options: Callable[[ClientFeatures], Any] | None = None
    after_discovery: bool = False

    def __post_init__(self) -> None:
        switches = {setting.name for setting in dataclasses.fields(Settings)}
        flags = {flag.name for flag in dataclasses.fields(ClientFeatures)}
        if self.switch is not None and self.switch not in switches:
            raise ValueError(f"{self.name}: switch {self.switch!r} must name a field of Settings")
        if isinstance(self.declared, str) and self.declared not in flags:
            raise ValueError(f"{self.name}: declared {self.declared!r} must name a field of ClientFeatures")
        kinds = {SKILL, CHAT, INSTRUCTIONS, BUNDLED, NO_DOCUMENT}
        alone = NO_DOCUMENT not in self.answers or len(self.answers) == 1
        if not self.answers or not set(self.answers) <= kinds or not alone:
            raise ValueError(f"{self.name}: answers must be keyed by {sorted(kinds)}, NO_DOCUMENT alone")

    def offered_to(self, client: ClientFeatures) -> bool:
        if self.declared is None:
            return True
        return getattr(client, self.declared) if isinstance(self.declared, str) else self.declared(client)

    def registration_options(self, client: ClientFeatures) -> Any:
        return self.client_options(client) if self.client_options is not None else self.options


def kind_served(method: Method, request: Request, document: OpenDocument) -> str | None:
    """The key of `method.answers` that serves this buffer, or None."""
    kind = document.kind
    if kind is None and document.path is not None and BUNDLED in method.answers and request.findings.bundled(
        document.path
    ):
        return BUNDLED
    if kind == SKILL and document.path is None and not method.untitled:
        return None
    return kind if kind in method.answers else None


def handler(method: Method) -> Callable[[AlbedoLanguageServer, Any], Any]:
    """The function pygls calls for `method`: the request taken, the answer chosen, failures isolated."""
    def prologue(ls: AlbedoLanguageServer, params: Any) -> Any:
        request = ls.request()
        if not request.settings.enable or (method.switch is not None and not getattr(request.settings, method.switch)):
            return method.otherwise
        if NO_DOCUMENT in method.answers:
            return method.answers[NO_DOCUMENT](request, params)
        document = request.buffers.at_uri(params.text_document.uri)
        kind = kind_served(method, request, document) if document is not None else None
        if kind is None:
            return method.otherwise
        return method.answers[kind](request, document, params)

    prologue.__name__ = prologue.__qualname__ = method.name  # named in a failure's message and the log
    answered = isolated(prologue)
    return waiting_for_discovery(answered) if method.after_discovery else answered


def register(server: AlbedoLanguageServer, methods: tuple[Method, ...]) -> None:
    """Register each method: those offered to every client now, the others at `initialize` for the clients
    that declare them (`server.offered`)."""
    for method in methods:
        answer = handler(method)
        if method.declared is None:
            server.feature(method.name, method.options)(answer)
        else:
            server.offered.append(functools.partial(_register_if_declared, method, answer))


def _register_if_declared(method: Method, answer: Callable[..., Any], ls: AlbedoLanguageServer) -> None:
    if method.offered_to(ls.client):
        ls.feature(method.name, method.registration_options(ls.client))(answer)


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
