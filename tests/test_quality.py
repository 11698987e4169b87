"""The codebase's own gates: ruff over everything, mypy --strict over the package and the
examples (tests/generate checks the generated code the same way)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_mypy_strict_is_clean(mypy_cache: Path) -> None:
    run = subprocess.run([tool("mypy"), "--cache-dir", str(mypy_cache), "compiler/toolc",
                          "examples"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                         check=False)
    assert run.returncode == 0, run.stdout + run.stderr
