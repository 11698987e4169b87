"""Fixtures every test folder may use."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the session's mypy runs (the package, the generated code, a user
    wrapper): the first pays for pydantic and toolc.runtime, the others reuse them. It
    lives in the session's temporary folder, so nothing is written into the repository,
    and two suites running at once never share one."""
    return tmp_path_factory.mktemp("mypy-cache")
