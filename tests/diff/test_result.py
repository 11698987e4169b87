"""Pointers, ordering and readable places of the Change model."""

from __future__ import annotations

from toolc.diagnostics import Severity
from toolc.diff import Change
from toolc.diff.result import At, parts_of, pointer_of, same


def test_pointer_tokens_are_escaped_both_ways() -> None:
    parts = ("_meta", "ui/template", "a~b")
    assert pointer_of(parts) == "/_meta/ui~1template/a~0b"
    assert parts_of(pointer_of(parts)) == parts
    assert pointer_of(()) == "" and parts_of("") == ()


def test_changes_sort_by_tool_then_pointer_numerically_then_rule() -> None:
    def change(tool: str, pointer: str, rule: str) -> Change:
        return Change(tool, pointer, rule, Severity.INFO, "m")

    items = [change("b", "", "TOOL_ADDED"), change("a", "/x/anyOf/10", "R"),
             change("a", "/x/anyOf/2", "S"), change("a", "/x/anyOf/2", "R"), change("a", "", "Z")]
    ordered = sorted(items, key=Change.sort_key)
    assert [(c.tool, c.pointer, c.rule) for c in ordered] == [
        ("a", "", "Z"), ("a", "/x/anyOf/2", "R"), ("a", "/x/anyOf/2", "S"),
        ("a", "/x/anyOf/10", "R"), ("b", "", "TOOL_ADDED")]


def test_a_property_named_by_a_non_ascii_digit_sorts_as_a_name() -> None:
    # "²" is a digit to str.isdigit but no number to int(): it was a ValueError traceback
    # in every format, from a golden file's property name.
    items = [Change("a", pointer, "R", Severity.INFO, "m") for pointer in
             ("/x/1", "/inputSchema/properties/\u0663", "/inputSchema/properties/\u00b2")]
    assert [c.pointer for c in sorted(items, key=Change.sort_key)] == [
        "/inputSchema/properties/\u00b2", "/inputSchema/properties/\u0663", "/x/1"]


def test_places_read_like_property_paths() -> None:
    at = At("t", ("inputSchema",))
    assert at.describe() == "input schema"
    assert at.child("properties", "a", "items", "properties", "b").describe() \
        == "input property 'a[].b'"
    assert at.child("properties", "a", "anyOf", 1).describe() == "input property 'a', anyOf branch 1"
    assert At("t", ("outputSchema", "$defs", "Node")).describe() == "output definition 'Node'"
    assert At("t", ("annotations",)).describe() == "tool 't'"
    assert at.child("properties", "a").kind == "input"


def test_same_follows_json_schema_equality() -> None:
    assert same({"a": 1, "b": [1.0]}, {"b": [1], "a": 1.0})
    assert not same(True, 1) and not same(0, False) and not same([1, 2], [2, 1])
