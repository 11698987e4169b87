"""Cycles among named types: recursion is a warning, a pure alias loop an error."""

from __future__ import annotations

from collections.abc import Callable

H = "toolc: 1\nmodule: m\ntypes:\n"


def test_mutual_recursion_is_reported_once(check: Callable[..., list]) -> None:
    reported = check(H + "  A:\n    type: object\n    properties:\n      b: {type: B, "
                     "description: B.}\n  B:\n    type: array\n    items: {type: A}\n")
    assert [(r[0], r[1], r[3]) for r in reported] == [
        ("TC206", 10, "type 'B' is recursive: A -> B -> A")]


def test_alias_loops_are_errors_and_not_also_warnings(codes: Callable[..., list[str]]) -> None:
    assert codes(H + "  A: {type: B}\n  B: {type: C}\n  C: {type: A}\n") == ["TC208"]


def test_a_type_using_an_alias_loop_is_not_written_out(codes: Callable[..., list[str]]) -> None:
    text = H + ("  A: {type: A}\n  U: {type: object, properties: {a: {type: A, description: "
                "X., default: 1}}}\n")
    assert codes(text) == ["TC208"]


def test_recursive_type_across_modules(codes: Callable[..., list[str]]) -> None:
    a = H + "  T: {type: array, items: {type: b.U}}\n"
    b = "toolc: 1\nmodule: b\ntypes:\n  U: {type: array, items: {type: m.T}}\n"
    assert codes(a, b) == ["TC206"]
