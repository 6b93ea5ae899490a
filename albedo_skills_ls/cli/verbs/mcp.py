"""`mcp`: serve the catalog to MCP hosts over stdio, or streamable HTTP with `--http` (albedo_skills_ls/mcp/,
docs/mcp.md)."""

from __future__ import annotations

import argparse
import sys

from ..options import add_catalog_options
from ..program import EXIT_OK, PROG
from ..workspace import UsageError, folder_argument, workspace_of

INSTALL_HINT = "pip install 'albedo-skills-ls[mcp]'"
LOOPBACK = "127.0.0.1"  # `--http PORT` binds here: only this machine can connect
LOOPBACK_HOSTS = frozenset({LOOPBACK, "localhost", "::1"})


def http_address(text: str) -> tuple[str, int]:
    """An argparse type: `PORT` (on the loopback) or `HOST:PORT` (`[::1]:PORT` for an IPv6 host)."""
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]") if colon else LOOPBACK
    try:
        number = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not PORT or HOST:PORT (for example 8765 or 127.0.0.1:8765)") from None
    if not 0 < number < 65536 or not host:
        raise argparse.ArgumentTypeError(f"{text!r}: give a port from 1 to 65535 and, if any, a host before it")
    return host, number


def configure_mcp(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        type=http_address,
        default=None,
        help=f"serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (HOST defaults to {LOOPBACK}: only "
        "this machine can connect)",
    )
    add_catalog_options(parser)


def run_mcp(args: argparse.Namespace) -> int:
    try:
        from ...mcp import server
    except ImportError as exc:  # the `mcp` extra is not installed: say how to get it
        raise UsageError(f"`mcp` needs the MCP library ({exc.name} is missing): {INSTALL_HINT}") from None
    from ...skills.catalog.discovery import DEFAULT_BUILTINS
    from ...skills.catalog.session import SkillsSession

    home = folder_argument(args.home, "home") if args.home is not None and args.user_roots else args.home
    builtins = DEFAULT_BUILTINS if args.builtins is None else tuple(name for name in args.builtins if name)
    session = SkillsSession(workspace_of(args).path, home, user_roots=args.user_roots, builtins=builtins)
    if args.http is None:
        server.serve_stdio(session)
        return EXIT_OK
    host, port = args.http
    if host not in LOOPBACK_HOSTS:
        print(f"{PROG}: serving on {host}, not the loopback: anyone who can reach it can read these skills",
              file=sys.stderr)
    server.serve_http(session, host, port)
    return EXIT_OK
