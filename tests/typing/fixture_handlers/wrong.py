"""Deliberately wrong user code: mypy must reject every reference to it in
generated_wrong_handler/wrong.py (at the `_check_...` lines), and nowhere else."""

from __future__ import annotations

from typing import Any

from toolc import runtime as rt


def count(ctx: rt.RunContext[Any], *, n: str) -> str:  # the spec says n is an integer
    return n


def missing(ctx: rt.RunContext[Any]) -> str:  # the spec gives a parameter n
    return "no n"


def structured(ctx: rt.RunContext[Any]) -> str:  # the spec declares `returns`
    return "not structured"


def not_a_predicate(ctx: rt.RunContext[Any]) -> str:  # a predicate returns a bool
    return "yes"


class NotAWrapper:  # a wrapper subclasses rt.WrapperToolset
    pass
