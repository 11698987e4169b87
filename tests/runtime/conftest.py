"""Fixtures for the runtime tests; helpers live in runtime_support.py (on sys.path here)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import toolc.runtime as rt
from runtime_support import HttpToy


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def ctx() -> rt.RunContext[None]:
    return rt.RunContext.empty()


@pytest.fixture
def user_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path for user modules; they are forgotten after the test."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        if getattr(sys.modules[name], "__file__", "") and str(tmp_path) in str(
            sys.modules[name].__file__
        ):
            del sys.modules[name]


@pytest.fixture
def http_toy() -> Iterator[Callable[[str], HttpToy]]:
    """Start toy HTTP servers (by tool prefix); each is stopped at the end of the test."""
    started: list[HttpToy] = []

    def start(prefix: str = "") -> HttpToy:
        toy = HttpToy(prefix)
        toy.start()
        started.append(toy)
        return toy

    yield start
    for toy in started:
        if toy.thread.is_alive():
            toy.stop()
