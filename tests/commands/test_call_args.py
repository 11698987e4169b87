"""`toolc call`'s key=value words typed by a published schema (toolc.commands.call_args):
the kinds read as toolc.schema_typing reads them, and each word that cannot be typed
refused with the fix (the served path's tests are in test_call.py)."""

from __future__ import annotations

from typing import Any

import pytest
from toolc.commands.call_args import (
    MAX_DEPTH,
    ArgumentError,
    build_arguments,
    check_arguments,
    parse_args_json,
    schema_kinds,
    type_word,
)
from toolc.runtime.validation import MAX_PROBLEMS

SCHEMA: dict[str, Any] = {
    "type": "object",
    "$defs": {"Level": {"enum": ["low", 2]}, "Loop": {"$ref": "#/$defs/Loop"}},
    "properties": {
        "count": {"type": "integer"},
        "size": {"type": ["number", "null"]},
        "level": {"$ref": "#/$defs/Level"},
        "either": {"anyOf": [{"type": "boolean"}, {"type": "integer"}]},
        "fixed": {"const": True},
        "free": {"description": "no type: any value"},
        "loop": {"$ref": "#/$defs/Loop"},
        "elsewhere": {"$ref": "other.json#/x"},
    },
    "additionalProperties": {"type": "integer"},
}


@pytest.mark.parametrize(("key", "kinds"), [
    ("count", {"integer"}), ("size", {"number", "null"}), ("level", {"string", "integer"}),
    ("either", {"boolean", "integer"}), ("fixed", {"boolean"}), ("free", None),
    ("loop", None), ("elsewhere", None),
])
def test_the_kinds_a_schema_allows(key: str, kinds: set[str] | None) -> None:
    assert schema_kinds(SCHEMA["properties"][key], SCHEMA) == kinds


def test_a_union_with_an_untyped_branch_allows_anything() -> None:
    assert schema_kinds({"oneOf": [{"type": "string"}, {}]}, {}) is None
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(MAX_DEPTH + 2):
        deep = {"anyOf": [deep]}
    assert schema_kinds(deep, {}) is None  # nesting beyond the bound: not followed


@pytest.mark.parametrize(("key", "word", "value"), [
    ("count", "-12", -12), ("size", "1e3", 1000.0), ("size", "7", 7), ("level", "2", 2),
    ("level", "low", "low"), ("either", "true", True), ("either", "5", 5),
    ("free", "5", "5"), ("extra", "9", 9),
])
def test_a_word_becomes_the_first_kind_it_can_be(key: str, word: str, value: Any) -> None:
    got = build_arguments({}, [f"{key}={word}"], "t", SCHEMA)[key]
    assert (got, type(got)) == (value, type(value))


@pytest.mark.parametrize(("word", "message"), [
    ("count=1.5", "'count' is an integer, and '1.5' is not one"),
    ("size=inf", "'size' is a number or null, and 'inf' is not one; write it as JSON: size:=JSON"),
    ("size=nan", "and 'nan' is not one"),
    ("either=yes", "'either' is an integer or boolean, and 'yes' is not one"),
    ("fixed=True", "'fixed' is a boolean, and 'True' is not one"),
    ("=3", "'=3' is not key=value"),
    (":=3", "':=3' is not key=value"),
    ("count:=x", "count:= takes JSON, and 'x' is not"),
])
def test_a_word_that_cannot_be_typed_says_what_to_write(word: str, message: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        build_arguments({}, [word], "t", SCHEMA)
    assert message in str(caught.value)


def test_a_closed_schema_names_its_arguments_and_an_empty_one_says_none() -> None:
    closed = {"type": "object", "properties": {"limit": {"type": "integer"}},
              "additionalProperties": False}
    with pytest.raises(ArgumentError, match=r"t has no argument 'limt' \(did you mean "
                                            r"'limit'\?\); its arguments: limit"):
        build_arguments({}, ["limt=1"], "t", closed)
    with pytest.raises(ArgumentError, match="t has no argument 'x'; it takes no arguments"):
        build_arguments({}, ["x=1"], "t", {"type": "object", "additionalProperties": False})
    # an open schema without a word for the key: the word as it is
    assert build_arguments({}, ["x=1"], "t", {"type": "object"}) == {"x": "1"}


def test_words_go_over_args_and_json_words_are_json() -> None:
    got = build_arguments({"count": 1, "kept": True}, ["count=2", "tags:=[1, {\"a\": null}]"],
                          "t", SCHEMA)
    assert got == {"count": 2, "kept": True, "tags": [1, {"a": None}]}


def test_control_characters_in_a_word_are_shown_escaped() -> None:
    with pytest.raises(ArgumentError) as caught:
        type_word("count", "\x1b[2J", {"type": "integer"}, {})
    assert "\x1b" not in str(caught.value) and "\\x1b[2J" in str(caught.value)


@pytest.mark.parametrize(("text", "message"), [
    ("{", ("--args is not JSON: Expecting property name enclosed in double quotes (line 1, "
          "column 2)")),
    ('"x"', "--args must be a JSON object of arguments, not a string"),
    ("null", "--args must be a JSON object of arguments, not a null"),
])
def test_args_must_be_a_json_object(text: str, message: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        parse_args_json(text)
    assert str(caught.value) == message
    assert parse_args_json(None) == {} and parse_args_json('{"a": 1}') == {"a": 1}


def test_arguments_the_schema_refuses_are_said_at_their_json_pointers() -> None:
    schema = {"type": "object", "properties": {"a/b": {"type": "integer"}, "n": {
        "type": "array", "items": {"oneOf": [{"type": "integer"}, {"type": "boolean"}]}}},
        "additionalProperties": False}
    with pytest.raises(ArgumentError) as caught:
        check_arguments("t", {"a/b": "x", "n": [1, "two"], "\x1b": 0}, schema)
    lines = str(caught.value).splitlines()
    assert lines[0] == ("the arguments do not match t's published input schema, so it was "
                        "not called:")
    assert '  /a~1b: "x" is not of type "integer"' in lines  # RFC 6901: "/" is "~1"
    assert any(line.startswith("  /n/1: ") for line in lines)
    assert any(line.startswith("  (arguments): ") and "\\x1b" in line for line in lines)
    assert "\x1b" not in str(caught.value)
    check_arguments("t", {"a/b": 1, "n": [True]}, schema)  # valid: nothing said


def test_the_problems_told_are_bounded_and_a_broken_schema_is_left_to_the_server() -> None:
    schema = {"type": "object", "additionalProperties": {"type": "integer"}}
    with pytest.raises(ArgumentError) as caught:
        check_arguments("t", {f"k{i}": "x" for i in range(MAX_PROBLEMS + 3)}, schema)
    lines = str(caught.value).splitlines()
    assert len(lines) == 1 + MAX_PROBLEMS + 1 and lines[-1] == "  ... and 3 more"
    check_arguments("t", {"x": 1}, {"type": "object", "properties": {"x": {
        "$ref": "https://example.invalid/s.json"}}})  # does not compile: the server says so
