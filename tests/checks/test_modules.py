"""Module names."""

from __future__ import annotations

from collections.abc import Callable

from toolc.checks.modules import is_identifier


def test_is_identifier() -> None:
    assert is_identifier("work_bench2") and is_identifier("_x")
    assert not is_identifier("class") and not is_identifier("2x") and not is_identifier("é")
    assert not is_identifier("a-b") and not is_identifier("")


def test_duplicates_are_reported_at_the_second_only(check: Callable[..., list]) -> None:
    reported = check("toolc: 1\nmodule: m\n", "toolc: 1\nmodule: m\n", "toolc: 1\nmodule: m\n")
    assert [(r[0], r[3]) for r in reported] == [
        ("TC308", "module 'm' is already declared in m0.toolc.yaml:2")] * 2
