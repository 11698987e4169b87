"""The forms MCP elicitation allows, and answers checked against them
(toolc.runtime.elicitation)."""

from __future__ import annotations

from typing import Any

import pytest
from toolc.runtime.elicitation import InvalidAnswer, check_answer, check_schema, schema_problems

# SEP-1034: a default for every primitive type (the conformance suite's form).
DEFAULTS = {"type": "object", "properties": {
    "name": {"type": "string", "description": "Your name.", "default": "John Doe"},
    "age": {"type": "integer", "default": 30, "minimum": 0},
    "score": {"type": "number", "default": 95.5, "maximum": 100},
    "status": {"type": "string", "enum": ["active", "inactive", "pending"],
               "default": "active"},
    "verified": {"type": "boolean", "default": True},
}, "required": ["name"]}

# SEP-1330: the five kinds of choice.
ENUMS = {"type": "object", "properties": {
    "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
    "titledSingle": {"type": "string", "oneOf": [
        {"const": "value1", "title": "First Option"},
        {"const": "value2", "title": "Second Option"}]},
    "legacyEnum": {"type": "string", "enum": ["opt1", "opt2"],
                   "enumNames": ["Option One", "Option Two"]},
    "untitledMulti": {"type": "array", "items": {"type": "string",
                                                  "enum": ["option1", "option2"]},
                      "minItems": 1},
    "titledMulti": {"type": "array", "items": {"anyOf": [
        {"const": "value1", "title": "First Choice"},
        {"const": "value2", "title": "Second Choice"}]}, "default": ["value1"]},
}}


def test_every_form_mcp_allows_is_taken() -> None:
    assert schema_problems(DEFAULTS) == []
    assert schema_problems(ENUMS) == []
    assert schema_problems({"type": "object", "properties": {
        "mail": {"type": "string", "format": "email", "minLength": 3, "maxLength": 80,
                 "title": "Mail"}}, "$schema": "https://json-schema.org/draft/2020-12/schema"}
    ) == []


@pytest.mark.parametrize(("schema", "problem"), [
    ([], "the schema must be an object schema (a mapping)"),
    ({"type": "array", "properties": {}}, '"type" must be "object"'),
    ({"type": "object"}, '"properties" must map each field to its schema'),
    ({"type": "object", "properties": {}, "additionalProperties": False},
     "key 'additionalProperties' is not allowed at the top"),
    ({"type": "object", "properties": {"a": {"type": "object", "properties": {}}}},
     'properties.a: "type" must be string, number, integer, boolean, or array'),
    ({"type": "object", "properties": {"a": {"type": "string", "pattern": "x"}}},
     "properties.a: key 'pattern' is not allowed here"),
    ({"type": "object", "properties": {"a": {"type": "string", "format": "ipv4"}}},
     "properties.a: format must be one of email, uri, date, date-time"),
    ({"type": "object", "properties": {"a": {"type": "integer", "default": 1.5}}},
     "properties.a: default is not of the property's type"),
    ({"type": "object", "properties": {"a": {"type": "boolean", "default": "yes"}}},
     "properties.a: default is not of the property's type"),
    ({"type": "object", "properties": {"a": {"type": "string", "enum": ["x"],
                                             "default": "y"}}},
     "properties.a: default must be one of the choices"),
    ({"type": "object", "properties": {"a": {"type": "string", "enum": [1, 2]}}},
     "properties.a: enum must be a non-empty list of strings"),
    ({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"],
                                             "enumNames": ["X"]}}},
     "properties.a: enumNames must be strings, one per enum value"),
    ({"type": "object", "properties": {"a": {"type": "string", "oneOf": [{"const": "x"}]}}},
     "properties.a: oneOf must be a non-empty list of {const, title}, both strings"),
    ({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}}},
     'properties.a: items must be {"type": "string", "enum": [...]}'),
    ({"type": "object", "properties": {"a": {"type": "array", "items": {
        "type": "string", "enum": ["x"]}, "default": ["z"]}}},
     "properties.a: default must be a list of the choices"),
    ({"type": "object", "properties": {"a": {"type": "string", "minLength": -1}}},
     "properties.a: minLength must be a whole number >= 0"),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]},
     "required: 'b' is not a property"),
])
def test_a_form_mcp_does_not_allow_is_refused_saying_where(schema: Any, problem: str) -> None:
    assert any(p.startswith(problem) for p in schema_problems(schema)), schema_problems(schema)
    with pytest.raises(ValueError, match="not a schema MCP elicitation allows"):
        check_schema(schema)


def test_an_answer_is_checked_against_the_form() -> None:
    answer = {"name": "Jane Smith", "age": 25, "score": 88.0, "status": "inactive",
              "verified": False}
    assert check_answer(DEFAULTS, answer) == answer
    with pytest.raises(InvalidAnswer) as refused:
        check_answer(DEFAULTS, {"age": "old", "status": "gone"})
    text = str(refused.value)
    assert text.startswith("The user's answer does not fit the form:\n")
    assert '"name" is a required property' in text and "age" in text and "status" in text
    with pytest.raises(InvalidAnswer):
        check_answer(ENUMS, {"untitledMulti": ["option9"]})
