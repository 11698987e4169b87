"""TC221: a `$schema` other than 2020-12's; a value that is no string is TC202's alone."""

from __future__ import annotations

from collections.abc import Callable

TOOL = ("toolc: 1\nmodule: m\ntools:\n  t:\n    description: T.\n    handler: x.y:t\n"
        "    params:\n      p: ")


def test_a_schema_that_is_not_a_string_is_one_type_error(
        codes: Callable[..., list[str]]) -> None:
    # Was a TypeError (a list is unhashable) found by the meta-schema property test.
    assert codes(TOOL + "{type: string, description: P., $schema: []}\n") == ["TC202"]
    assert codes(TOOL + "{type: string, description: P., $schema: {a: 1}}\n") == ["TC202"]


def test_another_draft_is_tc221(codes: Callable[..., list[str]]) -> None:
    draft7 = "http://json-schema.org/draft-07/schema#"
    assert codes(TOOL + f"{{type: string, description: P., $schema: '{draft7}'}}\n") == [
        "TC221"]
