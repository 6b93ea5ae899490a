"""Session-wide: record the code of every engine `Diagnostic` built in this test process.

The registry parity test (tests/unit/test_codes.py) needs to know which codes the tests really made the
engine emit. Recording happens where every finding is born, `Diagnostic.__new__`, not in `Code.at`, so a
finding built from a bare string outside the registry is recorded too and then reported as unregistered.
(`_replace` keeps the code it copies, so it needs no recording.)

A run that does not execute the whole of tests/unit cannot say which codes are never emitted; the parity
test then runs tests/unit in a child pytest, which writes its recorded codes to the file named by
`EMITTED_CODES_FILE_ENV` at the end of its session.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from albedo_skills_ls.skills.core.model import Diagnostic

EMITTED_CODES_FILE_ENV = "ALBEDO_SKILLS_TEST_EMITTED_CODES_FILE"
PARITY_MARKER = "codes_parity"
UNIT_TESTS = Path(__file__).parent / "unit"

EMITTED: set[str] = set()
_built_by_namedtuple = Diagnostic.__new__


def _recording_new(cls, *args, **kwargs):  # type: ignore[no-untyped-def]
    code = kwargs["code"] if "code" in kwargs else args[1] if len(args) > 1 else None
    EMITTED.add(code)
    return _built_by_namedtuple(cls, *args, **kwargs)


Diagnostic.__new__ = staticmethod(_recording_new)  # type: ignore[method-assign]


class SessionScope:
    """Whether this session runs every test of tests/unit, so EMITTED covers them all."""

    whole_unit_suite = False


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{PARITY_MARKER}: runs after every other test of the session")


def _selects_whole_unit_suite(config: pytest.Config) -> bool:
    option = config.option
    if getattr(option, "keyword", "") or getattr(option, "markexpr", "") or getattr(option, "deselect", None):
        return False
    if getattr(option, "lf", False) or getattr(option, "stepwise", False):
        return False
    args = config.args or [str(config.rootpath)]
    unit = UNIT_TESTS.resolve()
    for arg in args:
        if "::" in arg:
            continue
        path = Path(config.invocation_params.dir, arg).resolve()
        if path == unit or path in unit.parents:
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The parity tests read what every other test emitted: run them last.
    items.sort(key=lambda item: item.get_closest_marker(PARITY_MARKER) is not None)
    SessionScope.whole_unit_suite = _selects_whole_unit_suite(config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    target = os.environ.get(EMITTED_CODES_FILE_ENV)
    if target:
        Path(target).write_text(json.dumps(sorted(code for code in EMITTED if code is not None)))


class EmittedCodes:
    """What the parity tests read: the codes recorded so far and whether the session covers tests/unit."""

    def __init__(self) -> None:
        self.codes = EMITTED
        self.whole_unit_suite = SessionScope.whole_unit_suite


@pytest.fixture
def emitted_codes() -> EmittedCodes:
    return EmittedCodes()


@pytest.fixture
def world_tree():
    """A temporary tree an unprivileged user can traverse (pytest's tmp_path parents are mode 0700)."""
    base = Path(tempfile.mkdtemp(prefix="albedo-world-"))
    os.chmod(base, 0o755)
    try:
        yield base
    finally:
        for dirpath, dirnames, _ in os.walk(base):
            for d in dirnames:
                os.chmod(os.path.join(dirpath, d), 0o755)
        shutil.rmtree(base)
