"""The questions the model builder asks of a schema."""

from __future__ import annotations

from generate_support import analyse_case
from toolc.generate.schemas import (
    constraints,
    holds_object,
    is_model_schema,
    recursive_aliases,
    unenforced,
)


def test_which_objects_become_classes() -> None:
    assert is_model_schema({"type": "object", "properties": {}})
    assert is_model_schema({"properties": {"a": {}}})
    assert is_model_schema({"type": "object", "additionalProperties": False})
    assert not is_model_schema({"type": "object"})  # any keys: a dict
    assert not is_model_schema({"type": "object", "additionalProperties": {"type": "string"}})
    assert not is_model_schema({"anyOf": [{"type": "object", "properties": {}}]})
    assert not is_model_schema({"$ref": "#/$defs/Node"})


def test_bounds_become_field_arguments() -> None:
    assert constraints({"minLength": 1, "maxLength": 5, "pattern": "^a"}, "string") == {
        "min_length": 1, "max_length": 5, "pattern": "^a"}
    assert constraints({"minimum": 0, "exclusiveMaximum": 9, "multipleOf": 3}, "integer") == {
        "ge": 0, "lt": 9, "multiple_of": 3}
    assert constraints({"minimum": 0}, "boolean") == {}


def test_what_the_model_cannot_check_is_named() -> None:
    assert unenforced({"type": "array", "uniqueItems": True, "not": {}}) == [
        "not checked by the model: not, uniqueItems"]
    assert unenforced({"type": "string", "format": "uri"}) == []


def test_defaults_that_hold_objects() -> None:
    assert holds_object({"a": 1}) and holds_object([[{"a": 1}]])
    assert not holds_object([1, "a"]) and not holds_object([])


def test_only_recursive_types_that_are_not_objects_are_inexpressible() -> None:
    module = analyse_case("schemas").modules["schemas"]
    assert recursive_aliases(module) == {"Json"}  # Tree, Folder and File are models
