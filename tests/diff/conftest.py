"""The diff tests' shared helper: comparing output with an expected file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def check_expected(path: Path, actual: str) -> None:
    """Compare in full with an expected file; TOOLC_UPDATE_EXPECTED=1 rewrites it instead
    (then review the diff of the expected file before committing it)."""
    if os.environ.get("TOOLC_UPDATE_EXPECTED"):
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"missing expected file {path}"
    assert actual == path.read_text(encoding="utf-8")


@pytest.fixture
def expect() -> object:
    return check_expected
