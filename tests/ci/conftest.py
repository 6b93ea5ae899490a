"""Fixtures of the CI-hook tests: the offline wheelhouse and a scratch repository of skills."""

from __future__ import annotations

from pathlib import Path

import pytest

from ci.scratch import make_skills_repo
from ci.wheelhouse import build_wheelhouse


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheelhouse(tmp_path_factory.mktemp("wheelhouse"))


@pytest.fixture
def skills_repo(tmp_path: Path) -> Path:
    return make_skills_repo(tmp_path / "project")
