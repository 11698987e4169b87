"""Checks on the written-out schemas: defaults and `returns`."""

from __future__ import annotations

from collections.abc import Callable

H = ("toolc: 1\nmodule: m\ntools:\n  t:\n    description: T.\n    handler: x.y:t\n"
     "    params:\n")


def test_default_is_checked_against_nullable_and_named_types(
        codes: Callable[..., list[str]]) -> None:
    types = "types:\n  Small: {type: integer, maximum: 3, description: S.}\n"
    ok = H + "      a: {type: Small, default: 2}\n      b: {type: Small, default: null, " \
             "nullable: true}\n"
    assert codes(ok + types) == []
    assert codes(H + "      a: {type: Small, default: 5}\n" + types) == ["TC204"]


def test_the_same_shape_with_other_values_is_judged_per_value(
        check: Callable[..., list]) -> None:
    text = H + ("      a: {type: integer, description: A., minimum: 1, default: 1}\n"
                "      b: {type: integer, description: B., minimum: 1, default: 0}\n"
                "      c: {type: integer, description: C., minimum: 2, default: 1}\n")
    assert [(r[0], r[1]) for r in check(text)] == [("TC204", 9), ("TC204", 10)]


def test_default_inside_a_recursive_type(codes: Callable[..., list[str]]) -> None:
    text = ("toolc: 1\nmodule: m\ntypes:\n  N:\n    type: object\n    description: N.\n"
            "    properties:\n      next: {type: N, required: false, default: {next: 3}}\n")
    assert codes(text) == ["TC206", "TC204"]


def test_returns_named_object_type_is_an_object(codes: Callable[..., list[str]]) -> None:
    text = ("toolc: 1\nmodule: m\ntypes:\n  R: {type: object, properties: {}}\ntools:\n"
            "  t: {description: T., handler: x.y:t, returns: {type: R}}\n")
    assert codes(text) == []
    assert codes(text.replace("returns: {type: R}", "returns: {type: R, nullable: true}")) \
        == ["TC209"]


def test_meta_must_be_json(check: Callable[..., list]) -> None:
    (r,) = check("toolc: 1\nmodule: m\ntools:\n  t: {description: T., handler: x.y:t, "
                 "meta: {a: [.nan]}}\n")
    assert r[:3] == ("TC103", 4, 46) and "not a JSON number" in r[3]
