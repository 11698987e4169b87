"""The questions the model builder asks of a schema."""

from __future__ import annotations

from generate_support import analyse_case
from toolc.generate.schemas import (
    constraints,
    holds_object,
    is_model_schema,
    recursive_aliases,
    referenced_defs,
    unchecked_part,
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


def test_what_the_types_cannot_check_is_left_to_the_schema() -> None:
    assert unchecked_part({"type": "array", "uniqueItems": True, "not": {}, "maxItems": 3}
                          ) == {"not": {}, "uniqueItems": True}
    assert unchecked_part({"type": "string", "format": "uri"}) == {}  # format only annotates
    assert unchecked_part({"oneOf": [{"type": "integer"}]}) == {}    # one branch: exact
    assert unchecked_part({"oneOf": [{}, {}]}) == {"oneOf": [{}, {}]}


def test_a_model_leaves_its_object_keywords_to_the_schema() -> None:
    schema = {"type": "object", "properties": {"a": {}}, "required": ["a", "b"],
              "minProperties": 1}
    assert unchecked_part(schema) == {}
    assert unchecked_part(schema, model=True) == {"minProperties": 1, "required": ["a", "b"]}


def test_keywords_that_depend_on_their_siblings_take_the_whole_schema() -> None:
    schema = {"type": "array", "prefixItems": [{"type": "integer"}], "items": False,
              "$defs": {"X": {}}}
    assert unchecked_part(schema) == {k: v for k, v in schema.items() if k != "$defs"}


def test_a_piece_of_a_schema_takes_the_defs_it_refers_to() -> None:
    defs = {"A": {"items": {"$ref": "#/$defs/B"}}, "B": {"type": "string"}, "C": {}}
    assert referenced_defs({"not": {"$ref": "#/$defs/A"}}, defs) == {
        "A": defs["A"], "B": defs["B"]}
    assert referenced_defs({"type": "string"}, defs) == {}


def test_defaults_that_hold_objects() -> None:
    assert holds_object({"a": 1}) and holds_object([[{"a": 1}]])
    assert not holds_object([1, "a"]) and not holds_object([])


def test_only_recursive_types_that_are_not_objects_are_inexpressible() -> None:
    module = analyse_case("schemas").modules["schemas"]
    assert recursive_aliases(module) == {"Json"}  # Tree, Folder and File are models
