"""The Python type of a schema is never narrower than the schema; and when it is wider."""

from __future__ import annotations

from toolc.schema_typing import (
    extra_schema,
    is_model_schema,
    items_schema,
    literal_values,
    widening,
)


def test_only_typed_objects_with_properties_become_classes() -> None:
    assert is_model_schema({"type": "object", "properties": {}})
    # without `type`, `properties` also accepts every non-object: no class can hold that
    assert not is_model_schema({"properties": {"a": {}}})
    assert not is_model_schema({"type": "object"})  # any keys: a dict
    assert not is_model_schema({"type": "object", "additionalProperties": {"type": "string"}})
    assert not is_model_schema({"anyOf": [{"type": "object", "properties": {}}]})
    assert not is_model_schema({"$ref": "#/$defs/Node"})


def test_literals_hold_only_scalar_values() -> None:
    assert literal_values({"enum": ["a", 1, True, None]}) == ["a", 1, True, None]
    assert literal_values({"const": "x"}) == ["x"]
    assert literal_values({"enum": [1.5]}) is None  # no Literal of floats
    assert literal_values({"enum": [{"a": 1}]}) is None
    assert literal_values({"enum": []}) is None
    assert literal_values({"type": "string"}) is None


def test_items_and_extras_type_only_what_they_apply_to() -> None:
    assert items_schema({"items": {"type": "string"}}) == {"type": "string"}
    assert items_schema({"items": {"type": "string"}, "prefixItems": [{}]}) is None
    assert items_schema({"items": False}) is None
    assert extra_schema({"additionalProperties": {"type": "integer"}}) == {"type": "integer"}
    assert extra_schema({"additionalProperties": {"type": "integer"},
                         "patternProperties": {"^x": {}}}) is None


def test_a_typed_schema_with_only_narrowing_keywords_is_typed_faithfully() -> None:
    for schema in ({"type": "string", "maxLength": 3, "pattern": "^a", "format": "email"},
                   {"type": "integer", "minimum": 1, "multipleOf": 2},
                   {"type": "array", "items": {}, "uniqueItems": True, "maxItems": 3},
                   {"type": "object", "properties": {}, "required": ["a"],
                    "minProperties": 1, "propertyNames": {"maxLength": 3}},
                   {"enum": ["a", "b"], "description": "d"},
                   {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                   {"allOf": [{"type": "string"}]},
                   {"type": "object", "properties": {}, "unevaluatedProperties": False},
                   {"type": "string", "not": {"const": "x"}},  # only narrows a string
                   {"description": "anything at all"}):
        assert widening(schema) is None, schema


def test_keywords_without_a_type_widen_to_any_json_value() -> None:
    reason = widening({"maxLength": 2})
    assert reason is not None and "no `type`" in reason and "`maxLength`" in reason
    assert widening({"properties": {"a": {}}, "required": ["a"]}) is not None


def test_shaping_keywords_are_named() -> None:
    cases = {
        "`if`": {"type": "object", "if": {}, "then": {}},
        "`dependentSchemas`": {"type": "object", "dependentSchemas": {"a": {}}},
        "`unevaluatedProperties`": {"type": "object", "unevaluatedProperties": {}},
        "`patternProperties`": {"type": "object", "patternProperties": {"^a": {}}},
        "`prefixItems`": {"type": "array", "prefixItems": [{}]},
        "`$dynamicRef`": {"$dynamicRef": "#node"},
        "`anyOf`": {"type": "string", "anyOf": [{"maxLength": 1}]},
        "`allOf`": {"allOf": [{"type": "string"}, {"maxLength": 3}]},
    }
    for name, schema in cases.items():
        reason = widening(schema)
        assert reason is not None and name in reason, (name, reason)


def test_keys_the_caller_handles_are_not_looked_at() -> None:
    spec = {"type": "Severity", "nullable": True, "required": False}
    assert widening(spec, frozenset({"type", "nullable", "required"})) is None
