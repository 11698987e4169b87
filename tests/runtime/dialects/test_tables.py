"""Each target's table held against the provider's own SDK code, installed from PyPI.

What an SDK can say offline, it says here: the Anthropic SDK's strict transform
(``transform_schema``) keeps, moves into the description or rewrites each keyword as the
``anthropic-strict`` table says; the Google Gen AI SDK's ``Schema`` takes exactly the
keywords the ``gemini`` table keeps and refuses the others; the OpenAI Agents SDK's
strict conversion rewrites, closes and refuses what the ``openai-strict`` table says it
does. What only the provider's API decides (OpenAI's keyword subset, Anthropic's
refusals of numeric bounds) is the documentation's, cited in each table.
"""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import ValidationError
from pydantic.alias_generators import to_camel
from toolc.config import TARGET_NAMES
from toolc.model.module import TargetName
from toolc.runtime.dialects import TARGETS, Fate, anthropic_strict, gemini, openai_strict

# A schema that uses each keyword as a provider would meet it.
SAMPLES: dict[str, dict[str, Any]] = {
    "type": {"type": "string"},
    "description": {"type": "string", "description": "D."},
    "title": {"type": "string", "title": "T"},
    "format": {"type": "string", "format": "date"},
    "pattern": {"type": "string", "pattern": "^a$"},
    "minLength": {"type": "string", "minLength": 1},
    "maxLength": {"type": "string", "maxLength": 9},
    "default": {"type": "string", "default": "a"},
    "examples": {"type": "string", "examples": ["a"]},
    "deprecated": {"type": "string", "deprecated": True},
    "readOnly": {"type": "string", "readOnly": True},
    "writeOnly": {"type": "string", "writeOnly": True},
    "$comment": {"type": "string", "$comment": "for people"},
    "enum": {"enum": ["a", "b"]},
    "const": {"const": "a"},
    "minimum": {"type": "integer", "minimum": 1},
    "maximum": {"type": "integer", "maximum": 9},
    "exclusiveMinimum": {"type": "integer", "exclusiveMinimum": 1},
    "exclusiveMaximum": {"type": "integer", "exclusiveMaximum": 9},
    "multipleOf": {"type": "integer", "multipleOf": 2},
    "items": {"type": "array", "items": {"type": "string"}},
    "minItems": {"type": "array", "items": {"type": "string"}, "minItems": 1},
    "maxItems": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
    "uniqueItems": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    "prefixItems": {"type": "array", "prefixItems": [{"type": "string"}]},
    "contains": {"type": "array", "contains": {"type": "string"}},
    "properties": {"type": "object", "properties": {"a": {"type": "string"}}},
    "required": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
    "additionalProperties": {"type": "object", "properties": {}, "additionalProperties": False},
    "anyOf": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    "allOf": {"allOf": [{"type": "string"}]},
    "oneOf": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "$defs": {"type": "object", "properties": {}, "$defs": {"A": {"type": "string"}}},
    "definitions": {"type": "object", "properties": {},
                    "definitions": {"A": {"type": "string"}}},
    "$ref": {"$ref": "#/$defs/A", "$defs": {"A": {"type": "string"}}},
}


def test_every_place_names_the_same_targets() -> None:
    """The configuration and the spec format list the targets without importing them."""
    assert tuple(TARGETS) == TARGET_NAMES == TargetName.__args__  # type: ignore[attr-defined]


def test_every_table_says_where_it_comes_from_and_when() -> None:
    for table in TARGETS.values():
        assert table.source and len(table.checked) == 10, table.name
        for keyword, row in table.keywords.items():
            assert row.fate is Fate.KEPT or (row.why and row.fix), (table.name, keyword)


# -- anthropic-strict: the SDK's strict transform --------------------------------------

def _anthropic(schema: dict[str, Any]) -> dict[str, Any]:
    from anthropic.lib._parse._transform import transform_schema

    out: dict[str, Any] = transform_schema(copy.deepcopy(schema))
    return out


def _anthropic_fate(keyword: str) -> Fate:
    """What the transform does with the keyword of its sample."""
    sample = SAMPLES[keyword]
    out = _anthropic(sample)
    if keyword in out and "{" not in out.get("description", ""):
        return Fate.KEPT
    if keyword == "oneOf" and "anyOf" in out:
        return Fate.CHANGED
    assert f"{keyword}: " in out.get("description", ""), (keyword, out)
    return Fate.DESCRIBED


@pytest.mark.parametrize("keyword", sorted(anthropic_strict.TABLE.keywords))
def test_the_anthropic_sdk_does_what_the_table_says(keyword: str) -> None:
    row = anthropic_strict.TABLE.row(keyword)
    found = _anthropic_fate(keyword)
    # A keyword the API refuses is one the SDK writes into the description instead.
    expected = Fate.DESCRIBED if row.fate is Fate.REJECTED else row.fate
    assert found is expected, (keyword, row)
    if row.fate is Fate.REJECTED:
        assert "Anthropic SDK writes" in row.why or "SDK writes" in row.why


def test_the_anthropic_formats_and_min_items_are_the_sdks() -> None:
    from anthropic.lib._parse._transform import SupportedStringFormats

    assert anthropic_strict.TABLE.formats == frozenset(SupportedStringFormats)
    moved = _anthropic({"type": "string", "format": "uri-reference"})
    assert "format" not in moved and "format: uri-reference" in moved["description"]
    for least in (0, 1):
        assert _anthropic({"type": "array", "minItems": least})["minItems"] == least
    assert "minItems: 2" in _anthropic({"type": "array", "minItems": 2})["description"]
    assert anthropic_strict.TABLE.min_items_most == 1


def test_the_anthropic_sdk_closes_objects_and_drops_complex_enums() -> None:
    row = anthropic_strict.TABLE.objects_closed
    assert row is not None and row.fate is Fate.CHANGED
    closed = _anthropic({"type": "object", "properties": {"a": {"type": "string"}}})
    assert closed["additionalProperties"] is False
    opened = _anthropic({"type": "object", "properties": {}, "additionalProperties": True})
    assert opened["additionalProperties"] is False  # the open object is closed silently
    kinds = anthropic_strict.TABLE.enum_kinds
    assert kinds is not None and "string" in kinds and "structure" not in kinds
    assert "enum" not in _anthropic({"type": "string", "enum": [{"a": 1}]})


# -- gemini: the SDK's Schema model ----------------------------------------------------

def _schema_fields() -> set[str]:
    from google.genai import types

    return {to_camel(name) for name in types.Schema.model_fields}


def test_gemini_keeps_exactly_the_fields_of_the_sdks_schema() -> None:
    kept = {k for k, row in gemini.TABLE.keywords.items() if row.fate is Fate.KEPT}
    assert kept == _schema_fields()


@pytest.mark.parametrize("keyword", sorted(set(SAMPLES) - _schema_fields()))
def test_the_gemini_sdk_refuses_what_the_table_rejects(keyword: str) -> None:
    from google.genai import types

    assert gemini.TABLE.row(keyword).fate is Fate.REJECTED
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        types.Schema.model_validate(SAMPLES[keyword])


def test_the_gemini_sdk_refuses_type_lists_number_enums_and_open_objects() -> None:
    from google.genai import _transformers, types

    with pytest.raises((ValidationError, AttributeError)):  # 3.6.1 fails in its Type enum
        types.Schema.model_validate({"type": ["string", "null"]})
    with pytest.raises(ValidationError):
        types.Schema.model_validate({"type": "integer", "enum": [1, 2]})
    assert gemini.TABLE.enum_kinds == frozenset({"string"})
    developer_api = SimpleNamespace(vertexai=False)
    with pytest.raises(ValueError, match="additionalProperties"):
        _transformers.process_schema({"type": "object", "additionalProperties": True},
                                     developer_api)  # type: ignore[arg-type]
    closed = {"type": "object", "properties": {}, "additionalProperties": False}
    _transformers.process_schema(closed, developer_api)  # type: ignore[arg-type]


def test_the_gemini_names_and_formats_are_the_sdks_docstrings() -> None:
    from google.genai import types

    declaration = types.FunctionDeclaration.model_fields
    assert "maximum length of 128" in str(declaration["name"].description)
    assert "colons" in str(declaration["name"].description)
    assert "maximum length of 64" in str(declaration["parameters"].description)
    said = str(types.Schema.model_fields["format"].description) + str(
        types.Schema.model_fields["enum"].description)
    assert gemini.TABLE.formats is not None
    for name in gemini.TABLE.formats:
        assert f"`{name}`" in said, name


# -- openai-strict: the Agents SDK's strict conversion ---------------------------------

def _openai(schema: dict[str, Any]) -> dict[str, Any]:
    from agents.strict_schema import ensure_strict_json_schema

    out: dict[str, Any] = ensure_strict_json_schema(copy.deepcopy(schema))
    return out


def test_the_agents_sdk_rewrites_one_of_and_closes_objects() -> None:
    wrapped = {"type": "object", "additionalProperties": False, "required": ["a"],
               "properties": {"a": SAMPLES["oneOf"]}}
    assert openai_strict.TABLE.row("oneOf").fate is Fate.CHANGED
    assert "anyOf" in _openai(wrapped)["properties"]["a"]
    row = openai_strict.TABLE.objects_closed
    assert row is not None and "Agents SDK adds it" in row.why
    assert _openai({"type": "object", "properties": {}})["additionalProperties"] is False


def test_the_agents_sdk_refuses_open_objects_root_unions_and_outside_references() -> None:
    from agents.exceptions import UserError

    with pytest.raises(UserError):
        _openai({"type": "object", "properties": {}, "additionalProperties": True})
    with pytest.raises(UserError):
        _openai({"anyOf": [{"type": "object", "properties": {}}]})
    with pytest.raises(ValueError, match="Does not start with #/"):
        _openai({"type": "object", "properties": {
            "a": {"$ref": "https://example.com/a.json", "description": "A."}}})
    for row in (openai_strict.TABLE.open_object, openai_strict.TABLE.root_any_of,
                openai_strict.TABLE.local_refs):
        assert row is not None and row.fate is Fate.REJECTED
