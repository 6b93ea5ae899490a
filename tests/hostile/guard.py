"""A hang guard: run a call in a forked child and fail if it has not finished after a generous time.

It asserts nothing about speed. The inputs of the tests that use it are sized so that a linear scan ends
in well under a second and a quadratic one would take minutes to hours; the guard only turns "hours"
into a failure instead of a stuck test run.
"""

from __future__ import annotations

import multiprocessing
from typing import Any, Callable

HANG_GUARD_SECONDS = 120.0


def finishes(call: Callable[..., Any], *args: Any) -> None:
    """Run `call(*args)` in a child process; fail when it raises or does not finish within the guard."""
    context = multiprocessing.get_context("fork")
    child = context.Process(target=call, args=args, daemon=True)
    child.start()
    child.join(HANG_GUARD_SECONDS)
    if child.is_alive():
        child.kill()
        child.join()
        raise AssertionError(f"{getattr(call, '__name__', call)} did not finish in {HANG_GUARD_SECONDS:.0f} s")
    assert child.exitcode == 0, f"{getattr(call, '__name__', call)} failed in the child (exit {child.exitcode})"
