"""The keyword rules one by one, on single schema nodes."""

from __future__ import annotations

from typing import Any

import pytest
from toolc.diff import schema_rules as sr
from toolc.diff.result import At

INPUT, OUTPUT = At("t", ("inputSchema",)), At("t", ("outputSchema",))


def rules(check: Any, old: dict[str, Any], new: dict[str, Any], at: At = INPUT) -> list[str]:
    return [c.rule for c in check(old, new, at)]


def test_type_atoms_put_integer_inside_number() -> None:
    assert sr.type_atoms("number") == {"integer", "fraction"}
    assert sr.type_atoms(["integer", "null"]) == {"integer", "null"}
    assert len(sr.type_atoms(None)) == 7 and sr.type_atoms(False) == frozenset()
    values: list[Any] = [None, True, 3, 3.0, 3.5, "x", [], {}]
    assert [sr.value_atom(v) for v in values] == [
        "null", "boolean", "integer", "integer", "fraction", "string", "array", "object"]


@pytest.mark.parametrize(("key", "old", "new", "rule"), [
    ("minimum", 1, 2, "CONSTRAINT_TIGHTENED"), ("minimum", 2, 1, "CONSTRAINT_LOOSENED"),
    ("maximum", 2, 1, "CONSTRAINT_TIGHTENED"), ("maxLength", None, 9, "CONSTRAINT_TIGHTENED"),
    ("minItems", 1, None, "CONSTRAINT_LOOSENED"), ("exclusiveMaximum", 5, 5.5, "CONSTRAINT_LOOSENED"),
    ("maxProperties", 3, "3", "OTHER_CHANGED"),
])
def test_bounds(key: str, old: Any, new: Any, rule: str) -> None:
    before = {} if old is None else {key: old}
    after = {} if new is None else {key: new}
    assert rules(sr.bounds, before, after) == [rule]
    assert rules(sr.bounds, before, dict(before)) == []


@pytest.mark.parametrize(("old", "new", "input_rule", "output_rule"), [
    (2, 4, "CONSTRAINT_TIGHTENED", "CONSTRAINT_TIGHTENED"),
    (0.5, 0.25, "CONSTRAINT_LOOSENED", "CONSTRAINT_LOOSENED"),
    (4, 6, "CONSTRAINT_TIGHTENED", "CONSTRAINT_LOOSENED"),  # neither: breaking per side
])
def test_multiple_of(old: float, new: float, input_rule: str, output_rule: str) -> None:
    assert rules(sr.multiple_of, {"multipleOf": old}, {"multipleOf": new}) == [input_rule]
    assert rules(sr.multiple_of, {"multipleOf": old}, {"multipleOf": new}, OUTPUT) == [output_rule]


def test_pattern_const_and_format() -> None:
    assert rules(sr.pattern, {}, {"pattern": "a"}) == ["CONSTRAINT_TIGHTENED"]
    assert rules(sr.pattern, {"pattern": "a"}, {"pattern": "b"}) == ["CONSTRAINT_TIGHTENED"]
    assert rules(sr.pattern, {"pattern": "a"}, {"pattern": "b"}, OUTPUT) == ["CONSTRAINT_LOOSENED"]
    assert rules(sr.const, {"const": 1}, {}) == ["CONSTRAINT_LOOSENED"]
    assert rules(sr.const, {"const": 1}, {"const": 1.0}) == []
    assert rules(sr.format_, {}, {"format": "uri"}) == ["FORMAT_ADDED"]
    assert rules(sr.format_, {"format": "uri"}, {"format": "email"}) == ["FORMAT_ADDED"]
    assert rules(sr.format_, {"format": "uri"}, {}) == ["CONSTRAINT_LOOSENED"]
    assert rules(sr.unique_items, {"uniqueItems": False}, {}) == []


def test_whole_enums_and_per_value_changes() -> None:
    assert rules(sr.enum, {}, {"enum": ["a"]}) == ["CONSTRAINT_TIGHTENED"]
    assert rules(sr.enum, {"enum": ["a"]}, {}) == ["CONSTRAINT_LOOSENED"]
    assert rules(sr.enum, {"enum": ["a", "b"]}, {"enum": ["b", "c"]}) == [
        "ENUM_VALUE_REMOVED", "ENUM_VALUE_ADDED"]
    assert rules(sr.enum, {"enum": "a"}, {"enum": "b"}) == ["OTHER_CHANGED"]


def test_openness_levels() -> None:
    assert [sr.openness_level(v) for v in (False, {"type": "string"}, {}, True, None)] == [
        0, 1, 2, 2, 2]
    key = "additionalProperties"
    assert rules(lambda o, n, a: sr.openness(o, n, a, key), {key: False}, {}) == [
        "CONSTRAINT_LOOSENED"]
    assert rules(lambda o, n, a: sr.openness(o, n, a, key), {}, {key: {"type": "string"}}) == [
        "CONSTRAINT_TIGHTENED"]


def test_properties_closed_open_and_pattern_admitted() -> None:
    old = {"properties": {"a": {}, "b": {}}, "additionalProperties": False}
    closed = {"properties": {"a": {}}, "additionalProperties": False}
    by_pattern = {**closed, "patternProperties": {"^b": {}}}
    [removed] = sr.properties(old, closed, INPUT)
    assert removed.severity.name == "ERROR"
    [removed] = sr.properties(old, by_pattern, INPUT)
    assert removed.severity.name == "WARNING"


def test_branches_pair_identical_then_same_shape_then_leave_the_rest() -> None:
    old = [{"type": "null"}, {"type": "string", "maxLength": 3}, {"$ref": "#/a"}]
    new = [{"type": "string", "maxLength": 5}, {"type": "integer"}, {"type": "null"}]
    pairs, removed, added = sr.match_branches(old, new)
    assert pairs == [(1, 0), (0, 2)] and removed == [2] and added == [1]
    assert sr.branch_added(INPUT, "anyOf", 2, {"type": "null"}).message \
        == "input schema now admits null (anyOf branch added)"
    assert sr.branch_removed(INPUT, "allOf", 0, {"required": ["a"]}).rule == "CONSTRAINT_LOOSENED"
