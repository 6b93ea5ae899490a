"""`main()`: parse, run the verb, and turn what it returns or raises into the exit status.

0 success; 1 findings (`check` found an error) or a refusal (the engine would not serve the request);
2 a usage error (argparse's, a folder that is unusable, arguments of the wrong shape); 3 a bug: an
unexpected exception prints one line naming it, never a traceback and never 1, which means findings.
"""

from __future__ import annotations

import gc
import os
import sys

from .options import build_parser
from .program import EXIT_BUG, EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_USAGE, PROG
from .workspace import UsageError


def main(argv: list[str] | None = None) -> int:
    """Run the command line on `argv` and return its exit status. With no `argv` this is the program itself
    (the `albedo-skills` script, `python -m albedo_skills_ls.cli`): it reads `sys.argv`, and once its output
    is flushed it ends the process at once (`leave`) instead of returning."""
    if argv is not None:
        return run(argv)
    # What is imported by now lives until the process ends: the collector need never look at it again (a
    # run's collections then cost a tenth of what they did; the `check` helper process inherits this).
    gc.freeze()
    leave(run(sys.argv[1:]))
    return EXIT_BUG  # not reached: `leave` ends the process


def leave(status: int) -> None:
    """End the process with `status` once stdout and stderr are flushed, without the interpreter's teardown:
    freeing every object a run made one by one, and the modules, costs about 6 ms, a twentieth of a
    `check` on a workspace of skills, and a run leaves nothing else to do (it registers no exit handler,
    and every file it writes is closed before its verb returns)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): as when it goes during the run (`run`)
        status = EXIT_FINDINGS
    except OSError:  # the output could not be written (a full disk): the run did not do its job
        status = EXIT_BUG
    try:
        sys.stderr.flush()
    except OSError:
        pass
    os._exit(status)


def run(argv: list[str]) -> int:
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except UsageError as exc:
        return _fail(EXIT_USAGE, str(exc))
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, without a second error when Python flushes stdout.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FINDINGS
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as exc:
        from ..skills.core.errors import InvalidArguments, SkillsError
        from .wording import in_cli_words

        if isinstance(exc, InvalidArguments):
            return _fail(EXIT_USAGE, in_cli_words(str(exc)))
        if isinstance(exc, SkillsError):
            return _fail(EXIT_FINDINGS, in_cli_words(str(exc)))
        return _fail(EXIT_BUG, bug_report(exc))


def _fail(status: int, message: str) -> int:
    from .output import printable

    sys.stdout.flush()
    print(f"{PROG}: error: {printable(message)}", file=sys.stderr)
    return status


def bug_report(exc: BaseException) -> str:
    """One line naming an unexpected exception and the innermost place it came from."""
    import traceback

    where = ""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        where = f" at {os.path.basename(last.filename)}:{last.lineno} in {last.name}"
    detail = str(exc).splitlines()[0] if str(exc) else ""
    shown = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    return f"internal error (a bug in {PROG}, please report it): {shown}{where}"
