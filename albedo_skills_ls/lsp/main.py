"""The `albedo-skills-ls` console script: stdio by default, `--tcp HOST:PORT` for debugging."""

from __future__ import annotations

import argparse
import gc
import logging
import sys

from .. import __version__


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="albedo-skills-ls", description="Language server for Albedo's Agent Skills (SKILL.md and chat buffers)."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead of stdio")
    parser.add_argument("--log-file", metavar="PATH", help="write logs to this file instead of stderr")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-v info, -vv debug)")
    return parser.parse_args(argv)


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
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger("pygls.protocol.json_rpc").addFilter(CancelsAtDebug())

    # lsprotocol defines thousands of classes: a full garbage collection triggered while they import costs
    # more than our own modules do. Collect nothing during start-up, then freeze what was built so later
    # collections skip it (see benchmarks/: start to `initialize` result).
    gc.disable()
    from .app import create_server  # imported late: --version and --help stay instant

    server = create_server()
    gc.freeze()
    gc.enable()
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not host or not port.isdigit():
            print("albedo-skills-ls: --tcp expects HOST:PORT, e.g. 127.0.0.1:2087", file=sys.stderr)
            return 2
        server.start_tcp(host, int(port))
    else:
        server.start_io()
    return 0


if __name__ == "__main__":
    sys.exit(main())
