"""`main()`: parse, run the verb, and turn what it returns or raises into the exit status."""

from __future__ import annotations

import os
import sys

from .options import build_parser
from .program import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, PROG
from .workspace import UsageError


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except UsageError as exc:
        parser.exit(EXIT_USAGE, f"{PROG}: error: {exc}\n")
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, without a second error when Python flushes stdout.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FINDINGS
    except Exception as exc:
        from ..skills.errors import SkillsError

        if isinstance(exc, SkillsError):
            print(f"{PROG}: error: {exc}", file=sys.stderr)
            return EXIT_FINDINGS
        raise
    return EXIT_OK  # pragma: no cover - parser.exit does not return
