"""The one handler of tests/fixtures/valid/names: it fits any parameters (its context is
positional-only, as a tool with a parameter named ``ctx`` needs)."""

from __future__ import annotations

from typing import Any

from toolc import runtime as rt


def anything(ctx: rt.RunContext[Any], /, **params: Any) -> str:
    return ", ".join(sorted(params))
