"""Fixtures for the adapter tests: the bundled showcase module, with its handlers
importable, and helpers in adapter_support.py (on sys.path here)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def showcase(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """`generated.showcase` as committed (CI checks it equals a fresh build); notes are
    kept in tmp_path, and the handlers come from examples/."""
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setenv("WORKBENCH_WORKSPACE", str(tmp_path / "workspace"))
    return importlib.import_module("generated.showcase")
