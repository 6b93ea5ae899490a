"""Every use of pygls's internals, in one module, checked at start against the installed pygls.

pygls has no public API for a few things the server needs; each is done here, and only here, by overriding or
setting a private name of pygls 2.1.1 (the version `pyproject.toml` pins). `check(server)` runs at start
(`app.create_server`) and refuses to start, naming the installed pygls and what is gone, when one of those
names no longer exists, so an upgrade fails at once and clearly instead of breaking silently later
(docs/server.md, "Moving to a new pygls"; docs/design.md#10-the-server). Each fix is also tested
(tests/hostile/test_protocol.py), and each of those tests fails when pygls fixes the bug itself.

The protocol's fixes (`AlbedoProtocol`):

- Finished handlers are forgotten. `JsonRPCProtocol._execute_handler` stores the future of every async,
  threaded or generator handler in `_request_futures`, keyed by a fresh uuid for notifications and for each
  step of a generator handler (every builtin such as `didChange`), and only responses ever remove entries:
  one or two futures leaked per notification, about 2 KB per edit.
- Ended progress tokens are forgotten (pygls's tracker: https://github.com/openlawlibrary/pygls/issues/607):
  `Progress.end` leaves the token's future in `Progress.tokens` forever.
- `shutdown` cancels what is in flight over a copy of `_request_futures` (a cancelled future is now
  forgotten at once, which changed the dict under pygls's own loop).
- Before `initialize`, a request is answered with ServerNotInitialized (-32002) and a notification other
  than `exit` is dropped, as the protocol says, instead of reaching handlers that wait for a first
  discovery that has not started (the request was held forever).
- A `didChange` of a document that is not open is dropped with a log line instead of raising KeyError
  (shown to the person as "Error in server").
- What is sent holds no lone surrogate, and what is logged is its size, never its body (`_send_data`).

The transport's hooks (`transport.py` reads frames itself, strictly): pygls's `shutdown()` ends the input
loop by setting the server's `_stop_event` and closes a TCP listener kept in `_server`; `stop_event` and
`keep_listener` set them.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
import threading
from urllib.parse import unquote
from concurrent.futures import Future
from typing import Any, Generator

from lsprotocol import types

TESTED_PYGLS = "2.1.1"


class PyglsInternalsMissing(RuntimeError):
    """The installed pygls lacks a name this module relies on."""


def installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pygls")
    except PackageNotFoundError:
        return "unknown"


def _refusal(missing: str) -> PyglsInternalsMissing:
    return PyglsInternalsMissing(
        f"albedo-skills-ls was tested with pygls {TESTED_PYGLS}, and the installed pygls {installed_version()} "
        f"lacks {missing}. Install the tested version (pip install 'pygls=={TESTED_PYGLS}'), or see "
        '"Moving to a new pygls" in docs/server.md.'
    )


try:
    from pygls.exceptions import JsonRpcInternalError, JsonRpcServerNotInitialized
    from pygls.progress import Progress
    from pygls.protocol import JsonRPCProtocol, LanguageServerProtocol, lsp_method
    from pygls.protocol.json_rpc import RPCNotification, RPCRequest
    from pygls.lsp.server import LanguageServer
    from pygls.server import JsonRPCServer
except ImportError as exc:  # a module or name moved: said as clearly as a missing attribute
    raise _refusal(f"{exc.name or 'a module'} ({exc})") from exc

log = logging.getLogger("albedo_skills_ls")


# In pygls's ASCII JSON, a surrogate escape: a lone one (from a surrogate-escaped name) or half of a pair. A
# match only sends the message down the slower path that decides which.
_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def _shown(value: Any) -> Any:
    """`value` with every lone surrogate in its strings shown as an escape: `\\xff` for an undecodable byte,
    `\\ud800` for any other (after json.loads, an astral character is one code point, never a pair)."""
    if isinstance(value, str):
        return _SURROGATE.sub(_escape, value)
    if isinstance(value, list):
        return [_shown(item) for item in value]
    if isinstance(value, dict):
        return {_shown(key): _shown(item) for key, item in value.items()}
    return value


class EndingProgress(Progress):
    """`Progress` that drops a token once its work has ended: nothing can cancel finished work."""

    def end(self, token: types.ProgressToken, value: types.WorkDoneProgressEnd) -> None:
        super().end(token, value)
        self.tokens.pop(token, None)


class AlbedoProtocol(LanguageServerProtocol):
    def __init__(self, server: LanguageServer, converter: Any) -> None:
        super().__init__(server, converter)
        self.progress = EndingProgress(self)
        self.initialize_received = False

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None) -> None:
        def forget_then(future: Future[Any]) -> None:
            # Only this handler's own entry: a request's id may since have been reused by a cancellation.
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
            callback(future)

        super()._execute_handler(msg_id, handler, forget_then, args, kwargs)

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """pygls's `shutdown`, iterating over a copy: cancelling a future now runs `forget_then`, which
        removes it from the dict being iterated."""
        if (user_handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield user_handler, args, None
        current_id = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current_id and not future.done():
                future.cancel()
        self._shutdown = True
        return None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        """pygls's `didChange`, for open documents only. VS Code 1.139.1 (code-server, a skill's folder renamed
        in the Explorer while its SKILL.md was open and edited by the rename) sent a change of a document it
        had not opened there: pygls raised KeyError and the editor showed "Error in server". Such a change is
        logged and dropped; the document's didOpen brings its whole text."""
        if unquote(params.text_document.uri) not in self.workspace.text_documents:
            log.info("didChange of a document that is not open, dropped: %s", params.text_document.uri)
            return
        yield from super().lsp_text_document__did_change(params)

    def _send_data(self, data: Any) -> None:
        """pygls's `_send_data`, with two differences: lone surrogates (names that are not UTF-8, read with
        surrogate escapes) are shown as `\\xff`-style escapes instead of reaching the editor as invalid
        Unicode, and only the size of a message is logged, never its body (a body may hold a file's text)."""
        if not data:
            return
        if self.writer is None:
            log.error("cannot send a message: no transport")
            return
        try:
            body = json.dumps(data, default=self._serialize_message)
            if _LONE_SURROGATE_ESCAPE.search(body):
                body = json.dumps(_shown(json.loads(body)))
            log.debug("sending a message of %d bytes", len(body))
            header = (
                f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
                if self._include_headers
                else ""
            )
            written = self.writer.write((header + body).encode(self.CHARSET))
            if inspect.isawaitable(written):
                asyncio.ensure_future(written)
        except BrokenPipeError:
            log.error("the client closed the connection")
            raise
        except Exception as error:
            log.error("a message could not be sent: %s", type(error).__name__)
            try:  # the public reporter (pygls's private one only adds this guard)
                self._server.report_server_error(error, JsonRpcInternalError)
            except Exception:
                log.warning("could not report a failure to send")

    def handle_message(self, message: Any) -> None:
        if not self.initialize_received:
            method = getattr(message, "method", None)
            # Checked by shape: a request also satisfies the notification protocol class.
            if isinstance(message, RPCRequest) and hasattr(message, "id"):
                if method != types.INITIALIZE:
                    # debug only: the client log handler would send a notification before `initialize`
                    log.debug("request %r before initialize: answered with ServerNotInitialized", method)
                    error = JsonRpcServerNotInitialized(f"{method} was sent before initialize; initialize first")
                    self._send_response(message.id, None, error.to_response_error())
                    return
                self.initialize_received = True
            elif isinstance(message, RPCNotification) and method != types.EXIT:
                log.debug("notification %r before initialize: dropped", method)
                return
        super().handle_message(message)


# --- the start-up check ----------------------------------------------------------------------------------

# The private names used above and in `transport.py`: (where, name). Methods are looked up on the class;
# attributes that pygls sets in `__init__` on the instance `check` is given.
PRIVATE_METHODS = (
    (JsonRPCProtocol, "_execute_handler"),
    (JsonRPCProtocol, "_send_data"),
    (JsonRPCProtocol, "_send_response"),
    (JsonRPCProtocol, "_serialize_message"),
    (LanguageServerProtocol, "lsp_shutdown"),
    (LanguageServerProtocol, "lsp_text_document__did_change"),
)
PROTOCOL_ATTRIBUTES = ("_request_futures", "_shutdown", "_include_headers", "_server")
SERVER_ATTRIBUTES = ("_stop_event", "_server")


def missing_internals(server: LanguageServer) -> list[str]:
    missing = [f"{owner.__name__}.{name}" for owner, name in PRIVATE_METHODS if not hasattr(owner, name)]
    missing += [f"protocol.{name}" for name in PROTOCOL_ATTRIBUTES if not hasattr(server.protocol, name)]
    missing += [f"server.{name}" for name in SERVER_ATTRIBUTES if not hasattr(server, name)]
    if not isinstance(getattr(server.protocol, "progress", None), Progress):
        missing.append("protocol.progress (a pygls.progress.Progress)")
    elif not hasattr(server.protocol.progress, "tokens"):
        missing.append("Progress.tokens")
    return missing


def check(server: LanguageServer) -> None:
    """Refuse to start when a pygls internal this module relies on is gone."""
    missing = missing_internals(server)
    if missing:
        raise _refusal(", ".join(missing))


# --- the transport's hooks -------------------------------------------------------------------------------


def stop_event(server: JsonRPCServer) -> threading.Event:
    """An event pygls's `shutdown()` sets, ending our input loop as it ends its own."""
    server._stop_event = event = threading.Event()
    return event


def keep_listener(server: JsonRPCServer, listener: Any) -> None:
    """Hand a TCP listener to pygls, so its `shutdown()` closes it."""
    server._server = listener
