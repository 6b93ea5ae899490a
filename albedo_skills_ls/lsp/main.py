"""The `albedo-skills-ls` console script: stdio by default, `--tcp HOST:PORT` for debugging."""

from __future__ import annotations

import gc
import ipaddress
import logging
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING

from .. import __version__
from .redaction import ContentRedaction

if TYPE_CHECKING:
    import argparse

MAX_PORT = 65535
EXIT_UNTESTED_PYGLS = 4  # the installed pygls lacks an internal the server relies on (lsp/pygls_internals.py)

# The options' values when the command line does not set them: argparse's defaults and the fast path's.
DEFAULTS = {"stdio": False, "tcp": None, "log_file": None, "verbose": 0}
# How editors start the server: no arguments, or `--stdio` (vscode-languageclient adds it). These need no
# parser, and skipping argparse saves about 5 ms of every start to `initialize` (its import, gettext, and
# the shutil, zlib, bz2 and lzma its help formatter imports at every `add_argument`); see benchmarks/start.py.
EDITOR_COMMAND_LINES = ((), ("--stdio",))


def parse_args(argv: list[str] | None = None) -> SimpleNamespace:
    """The options of this command line (`sys.argv[1:]` by default), exiting on `--help`, `--version` or
    a usage error as argparse does."""
    words = tuple(sys.argv[1:] if argv is None else argv)
    if words in EDITOR_COMMAND_LINES:
        return SimpleNamespace(**{**DEFAULTS, "stdio": bool(words)})
    return SimpleNamespace(**vars(build_parser().parse_args(list(words))))


def build_parser() -> argparse.ArgumentParser:
    import argparse  # here, not at the top: editors' command lines never need it (EDITOR_COMMAND_LINES)

    parser = argparse.ArgumentParser(
        prog="albedo-skills-ls", description="Language server for Albedo's Agent Skills (SKILL.md and chat buffers)."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead of stdio")
    parser.add_argument("--log-file", metavar="PATH", help="write logs to this file instead of stderr")
    parser.add_argument("-v", "--verbose", action="count", help="more logging (-v info, -vv debug)")
    parser.set_defaults(**DEFAULTS)
    return parser


class CancelsAtDebug(logging.Filter):
    """pygls logs a `$/cancelRequest` for a request already answered as a warning, and a cancelled one as
    information; editors cancel requests all the time while the user types, so both are debug records."""

    MESSAGES = ("Cancel notification for unknown message id", "Cancelled request with id")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.DEBUG and isinstance(record.msg, str) and record.msg.startswith(self.MESSAGES):
            if not logging.getLogger(record.name).isEnabledFor(logging.DEBUG):
                return False
            record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return True


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    handler: logging.Handler = (
        logging.FileHandler(args.log_file, encoding="utf-8") if args.log_file else logging.StreamHandler(sys.stderr)
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(ContentRedaction())
    # stderr keeps this verbosity whatever `albedoSkills.logLevel` lets through to the client's log.
    handler.setLevel(level)
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger("pygls.protocol.json_rpc").addFilter(CancelsAtDebug())

    # lsprotocol defines thousands of classes: a full garbage collection triggered while they import costs
    # more than our own modules do. Collect nothing during start-up, then freeze what was built so later
    # collections skip it (see benchmarks/: start to `initialize` result).
    gc.disable()
    try:
        from .app import create_server  # imported late: --version and --help stay instant

        server = create_server()
    except Exception as exc:
        if type(exc).__name__ != "PyglsInternalsMissing":  # its module may be the import that failed
            raise
        print(f"albedo-skills-ls: {exc}", file=sys.stderr)
        return EXIT_UNTESTED_PYGLS
    from .commands import RouteRefusalsLogged

    logging.getLogger("pygls.protocol.json_rpc").addFilter(RouteRefusalsLogged())
    gc.freeze()
    gc.enable()
    from . import transport

    if args.tcp:
        try:
            host, port = parse_address(args.tcp)
        except ValueError as exc:
            print(f"albedo-skills-ls: --tcp {args.tcp}: {exc}", file=sys.stderr)
            return 2
        return transport.serve_tcp(server, host, port)
    return transport.serve_stdio(server)


def parse_address(value: str) -> tuple[str, int]:
    """`HOST:PORT` or `[IPv6]:PORT` -> (host, port); ValueError saying what is wrong and what to write."""
    example = "expected HOST:PORT, such as 127.0.0.1:2087 or [::1]:2087"
    host, colon, port = value.rpartition(":")
    if not colon or not host:
        raise ValueError(example)
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ValueError(f"{host!r} between brackets is not an IPv6 address; {example}") from None
    elif ":" in host:
        raise ValueError(f"write an IPv6 address between brackets, as in [::1]:2087; {example}")
    elif host.replace(".", "").isdigit():
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise ValueError(f"{host!r} is not an IPv4 address; {example}") from None
    if not port.isdigit() or int(port) > MAX_PORT:
        raise ValueError(f"the port must be a number from 0 (any free port) to {MAX_PORT}, not {port!r}")
    return host, int(port)


if __name__ == "__main__":
    sys.exit(main())
