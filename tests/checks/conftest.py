"""A helper for check tests: analyse spec texts and get what was reported."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from toolc.diagnostics import DiagnosticBag
from toolc.frontend import analyse
from toolc.loader import load_text

Reported = list[tuple[str, int, int, str]]


def run(*texts: str) -> tuple[Reported, object]:
    """Analyse each text as ``m<i>.toolc.yaml``; (code, line, col, message) in order.

    TC220 (info: a handler type wider than its schema) is left out: the schemas here test
    other rules, and TC220 has its own fixture and tests (tests/test_schema_typing.py)."""
    files = [load_text(t, f"m{i}.toolc.yaml") for i, t in enumerate(texts)]
    bag = DiagnosticBag()
    ir = analyse(files, bag)
    return [(d.code, d.span.line, d.span.col, d.message) if d.span else (d.code, 0, 0, d.message)
            for d in bag.sorted() if d.code != "TC220"], ir


@pytest.fixture
def check() -> Callable[..., Reported]:
    return lambda *texts: run(*texts)[0]


@pytest.fixture
def codes() -> Callable[..., list[str]]:
    return lambda *texts: [r[0] for r in run(*texts)[0]]


@pytest.fixture
def analysed() -> Callable[..., tuple[Reported, object]]:
    """(reported, IR or None) for the given spec texts."""
    return run
