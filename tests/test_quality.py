"""The codebase's own gates: ruff over everything, mypy --strict over the package and the
examples (tests/generate checks the generated code the same way)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mypy_ahead import StrictAhead

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    found = BIN / name
    if found.exists():
        return str(found)
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return path


def test_ruff_is_clean() -> None:
    # --no-cache: tests write nothing into the repository (ruff is quick without one).
    run = subprocess.run([tool("ruff"), "check", "--no-cache", "compiler", "tests", "bench",
                          "examples", "conformance", "docs/hooks"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_strict_is_clean(strict_ahead: StrictAhead) -> None:
    status, output = strict_ahead.run.result()  # (started as collection ended)
    assert status == 0, output
