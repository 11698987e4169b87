"""Scalars: the YAML 1.2 core schema, and numbers bounded where they are made."""

from __future__ import annotations

import math

import pytest
from toolc.scalars import MAX_INT_DIGITS, NumberTooLarge, resolve_plain


@pytest.mark.parametrize("text, value", [
    ("yes", "yes"), ("0o17", 15), ("0x1F", 31), ("-12", -12), ("1e3", 1000.0),
    (".inf", math.inf), ("null", None), ("9" * MAX_INT_DIGITS, int("9" * MAX_INT_DIGITS)),
])
def test_core_schema_meanings(text: str, value: object) -> None:
    assert resolve_plain(text) == value and type(resolve_plain(text)) is type(value)


@pytest.mark.parametrize("text", [
    "9" * (MAX_INT_DIGITS + 1), "-" + "9" * 5000, "0x" + "f" * 600, "0o" + "7" * 800,
    "1e400", "-1e400",
])
def test_numbers_beyond_what_the_output_can_carry_raise(text: str) -> None:
    with pytest.raises(NumberTooLarge) as exc:
        resolve_plain(text)
    assert len(str(exc.value)) < 200  # the number itself is not echoed whole
