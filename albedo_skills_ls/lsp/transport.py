"""Reading JSON-RPC frames from stdio or TCP, strictly (docs/design.md#8-trust-boundaries).

pygls 2.1.1's reader skips any header line it does not understand and never resynchronises: after one
bad or missing `Content-Length`, the next body is read as header lines and the server stays alive but
answers nothing, forever. A server that silently stops answering is the worst outcome for an editor, so
here a malformed frame is logged (its header bytes, never a body) and the server exits with
EXIT_BAD_FRAME; every client restarts a server that exits. A frame whose body is not valid JSON is
logged and skipped: its length was known, so the next frame is still found.

The process exit code follows the protocol: 0 after `shutdown` then `exit`, 1 after `exit` alone (pygls
computes it, then raises SystemExit inside its loop, which its own runner swallowed).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
from typing import Any, Awaitable, BinaryIO, Protocol

from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from .pygls_internals import keep_listener, stop_event

log = logging.getLogger("albedo_skills_ls")

EXIT_USAGE = 2  # as argparse: the command line asked for something impossible
EXIT_BAD_FRAME = 3
MAX_HEADER_LINE_BYTES = 1024  # one header line, its `\r\n` included: real ones are under 100 bytes
DISCARD_CHUNK_BYTES = 64 * 1024  # one read of a refused client's input, dropped at once (nothing is kept)


class FrameError(Exception):
    """The input is not a sequence of well-formed frames."""


class _Reader(Protocol):
    def readline(self) -> Awaitable[bytes]: ...

    def readexactly(self, n: int) -> Awaitable[bytes]: ...


class _StdinReader:
    """Blocking reads of stdin in the server's thread pool, a header line never longer than the bound."""

    def __init__(self, stdin: BinaryIO, executor: Any) -> None:
        self.stdin = stdin
        self.executor = executor

    def readline(self) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(self.executor, self.stdin.readline, MAX_HEADER_LINE_BYTES + 1)

    def readexactly(self, n: int) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(self.executor, self.stdin.read, n)


async def _read_header(reader: _Reader) -> dict[bytes, bytes] | None:
    """The header fields of the next frame (names lower-cased), or None at the end of the input."""
    fields: dict[bytes, bytes] = {}
    while True:
        try:
            line = await reader.readline()
        except (ValueError, asyncio.LimitOverrunError) as exc:  # a TCP stream's own line bound
            raise FrameError(f"a header line longer than the stream allows ({exc})") from None
        if not line:
            if fields:
                raise FrameError("the input ended inside a frame header")
            return None
        if len(line) > MAX_HEADER_LINE_BYTES:
            raise FrameError(f"a header line longer than {MAX_HEADER_LINE_BYTES} bytes: {line[:80]!r}...")
        if line in (b"\r\n", b"\n"):
            if not fields:
                raise FrameError("an empty line where a frame header was expected")
            return fields
        name, colon, value = line.rstrip(b"\r\n").partition(b":")
        if not colon or not name.replace(b"-", b"").isalnum():  # a field name is letters, digits and `-`
            raise FrameError(f"not a header line: {line[:80]!r}")
        fields[name.lower()] = value.strip()


async def read_frames(reader: _Reader, protocol: Any, stop: threading.Event) -> None:
    """Hand every frame's message to `protocol` until the input ends or `stop` is set; FrameError on a
    malformed frame."""
    while not stop.is_set():
        fields = await _read_header(reader)
        if fields is None:
            return
        length = fields.get(b"content-length")
        if length is None or not length.isdigit():
            raise FrameError(f"a frame without a valid Content-Length (header fields: {sorted(fields)!r})")
        size = int(length)
        body = await reader.readexactly(size) if size else b""
        if len(body) != size:
            raise FrameError(f"the input ended inside a frame body ({len(body)} of {size} bytes)")
        try:
            message = json.loads(body, object_hook=protocol.structure_message)
        except Exception as exc:
            # Sizes only: a body may hold a document's text (docs/design.md#8-trust-boundaries: logs never hold file contents).
            log.error("skipped a frame of %d bytes whose body is not a JSON-RPC message: %s", size, type(exc).__name__)
            continue
        try:
            protocol.handle_message(message)
        except Exception as exc:  # as pygls's own loop: one message's failure is not the server's
            log.error("a message of %d bytes could not be handled: %s", size, type(exc).__name__)


def _address(writer: asyncio.StreamWriter) -> str:
    peer = writer.get_extra_info("peername")
    if not isinstance(peer, tuple) or len(peer) < 2:
        return str(peer)
    host = f"[{peer[0]}]" if ":" in str(peer[0]) else peer[0]
    return f"{host}:{peer[1]}"


async def _close_after_peer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """End our side (the peer reads what was written, then the end), discard what the peer sends until it
    closes, then close. Closing with its input unread would reset the connection, and a reset can make the
    peer drop the refusal it has not read yet."""
    try:
        writer.write_eof()
        while await reader.read(DISCARD_CHUNK_BYTES):
            pass  # discarded as it comes: nothing is kept
    except OSError:
        pass
    finally:
        writer.close()


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _exit_code(exc: SystemExit) -> int:
    return exc.code if isinstance(exc.code, int) else 1


def serve_stdio(server: LanguageServer) -> int:
    """Serve one client over stdin/stdout; the process exit code."""
    stop = stop_event(server)
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    reader = _StdinReader(sys.stdin.buffer, server.thread_pool)
    try:
        asyncio.run(read_frames(reader, server.protocol, stop))
    except SystemExit as exc:  # the `exit` notification
        return _exit_code(exc)
    except FrameError as exc:
        log.error("malformed input from the client, exiting so that it restarts the server: %s", exc)
        return EXIT_BAD_FRAME
    except BrokenPipeError:
        log.error("the client closed the connection")
        return 1
    finally:
        server.shutdown()
    return 0


def serve_tcp(server: LanguageServer, host: str, port: int) -> int:
    """Listen on host:port and serve one client; the exit code once it ends the server.

    One server holds one client's state (its documents, capabilities, what it was sent), and writes to one
    client. A second connection while the first is served is refused: closed at once, with a logged reason,
    never handed the first client's writer (docs/server.md, "TCP")."""
    stop = stop_event(server)
    listener: list[asyncio.Server] = []
    outcome: list[int] = []
    serving: list[str] = []  # the client being served, by address

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = _address(writer)
        if serving:
            reason = (
                f"albedo-skills-ls refused the connection from {peer}: it serves one client at a time and is "
                f"serving {serving[0]}; start another server (on another port) for another client"
            )
            log.warning("%s", reason)
            # the one message the protocol lets a server send before `initialize` is answered: the reason
            refusal = {"jsonrpc": "2.0", "method": "window/showMessage", "params": {"type": 1, "message": reason}}
            writer.write(_frame(refusal))
            await _close_after_peer(reader, writer)
            return
        serving.append(peer)
        log.info("serving the client at %s", peer)
        server.protocol.set_writer(writer)
        try:
            await read_frames(reader, server.protocol, stop)
        except FrameError as exc:
            log.error("malformed input from the client, exiting so that it restarts the server: %s", exc)
            outcome.append(EXIT_BAD_FRAME)
        listener[0].close()

    async def listen() -> None:
        listener.append(await asyncio.start_server(connection, host, port, limit=MAX_HEADER_LINE_BYTES * 64))
        keep_listener(server, listener[0])
        # the same words as pygls ("Serving on ('127.0.0.1', 2087)"): scripts read the port chosen for :0
        log.info("Serving on %s", ", ".join(str(sock.getsockname()) for sock in listener[0].sockets))
        async with listener[0]:
            try:
                await listener[0].serve_forever()
            except asyncio.CancelledError:
                pass

    try:
        asyncio.run(listen())
    except SystemExit as exc:
        return _exit_code(exc)
    except OSError as exc:  # an address that does not resolve, a port in use or not ours to take
        print(f"albedo-skills-ls: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        server.shutdown()
    return outcome[0] if outcome else 0
