"""`mcp`: serve the catalog to MCP hosts over stdio (albedo_skills_ls/mcp/, docs/mcp.md)."""

from __future__ import annotations

import argparse

from ..options import add_catalog_options
from ..program import EXIT_OK
from ..workspace import UsageError, folder_argument, workspace_of

INSTALL_HINT = "pip install 'albedo-skills-ls[mcp]'"


def configure_mcp(parser: argparse.ArgumentParser) -> None:
    add_catalog_options(parser)


def run_mcp(args: argparse.Namespace) -> int:
    try:
        from ...mcp.server import serve_stdio
    except ImportError as exc:  # the `mcp` extra is not installed: say how to get it
        raise UsageError(f"`mcp` needs the MCP library ({exc.name} is missing): {INSTALL_HINT}") from None
    from ...skills.catalog.discovery import DEFAULT_BUILTINS
    from ...skills.catalog.session import SkillsSession

    home = folder_argument(args.home, "home") if args.home is not None and args.user_roots else args.home
    builtins = DEFAULT_BUILTINS if args.builtins is None else tuple(name for name in args.builtins if name)
    serve_stdio(SkillsSession(workspace_of(args).path, home, user_roots=args.user_roots, builtins=builtins))
    return EXIT_OK
