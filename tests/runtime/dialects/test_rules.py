"""The rule set over a table: each kind of finding from a schema that breaks it, with its
pointer; hostile schemas (a pinned server's) give findings, never an exception."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from toolc.runtime.dialects import TARGETS, Fate, Finding, check_request, check_tool

OPENAI, ANTHROPIC, GEMINI = (TARGETS[n] for n in ("openai-strict", "anthropic-strict", "gemini"))
CLOSED = {"type": "object", "additionalProperties": False}


def found(target: Any, schema: Any, name: str | None = None) -> list[tuple[str, str, str]]:
    return [(f.rule, f.pointer, f.fate.value) for f in check_tool(target, name, schema, "")]


def obj(**props: Any) -> dict[str, Any]:
    return {**CLOSED, "properties": props, "required": list(props)}


def test_a_schema_in_the_subset_has_no_finding() -> None:
    schema = obj(a={"anyOf": [{"type": "string"}, {"type": "null"}], "description": "A."})
    assert found(OPENAI, schema, "ok_name") == []


def test_nested_keywords_and_values_are_found_where_they_are() -> None:
    schema = obj(tags={"type": "array", "minItems": 2, "items": {
        "type": "string", "format": "uri-reference", "enum": [{"x": 1}]}})
    assert found(ANTHROPIC, schema) == [
        ("keyword", "/properties/tags/minItems", "rejected"),
        ("keyword", "/properties/tags/items/format", "rejected"),
        ("keyword", "/properties/tags/items/enum", "rejected"),
    ]


def test_objects_open_and_properties_optional() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "object", "properties": {},
                                                     "additionalProperties": True}}}
    assert found(OPENAI, schema) == [
        ("open-object", "", "rejected"),
        ("optional-property", "/properties/a", "rejected"),
        ("open-object", "/properties/a/additionalProperties", "rejected"),
    ]
    assert found(ANTHROPIC, {"type": "object", "properties": {}}) == [
        ("open-object", "", "changed")]


def test_limits_of_one_schema() -> None:
    many = obj(**{f"p{i}": {"type": "string"} for i in range(5001)})
    assert ("limit", "", "rejected") in found(OPENAI, many)
    enums = obj(a={"enum": [f"v{i}" for i in range(600)]}, b={"enum": list(range(401))})
    assert found(OPENAI, enums) == [("limit", "", "rejected")]  # 1,001 enum values
    long = obj(a={"enum": [f"{i:032d}" for i in range(251)]})  # 8,032 characters
    assert found(OPENAI, long) == [("limit", "/properties/a/enum", "rejected")]


def test_recursion_direct_and_through_another_definition() -> None:
    direct = {**obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": obj(b={"$ref": "#/$defs/A"})}}
    assert ("reference", "/$defs/A/properties/b/$ref", "rejected") in found(ANTHROPIC, direct)
    mutual = {**obj(a={"$ref": "#/$defs/A"}), "$defs": {
        "A": obj(b={"$ref": "#/$defs/B"}), "B": obj(c={"$ref": "#/$defs/A"})}}
    assert [f for f in found(ANTHROPIC, mutual) if f[0] == "reference"] == [
        ("reference", "/$defs/B/properties/c/$ref", "rejected")]
    assert [f for f in found(OPENAI, mutual) if f[0] == "reference"] == []  # OpenAI allows it
    root = obj(a={"$ref": "#"})
    assert ("reference", "/properties/a/$ref", "rejected") in found(ANTHROPIC, root)


def test_references_out_of_the_document() -> None:
    schema = obj(a={"$ref": "https://example.com/a.json"})
    assert ("reference", "/properties/a/$ref", "rejected") in found(OPENAI, schema)


def test_names_of_tools_and_gemini_parameters() -> None:
    assert found(OPENAI, obj(), "a.b") == [("name", "/name", "rejected")]
    assert found(ANTHROPIC, obj(), "a" * 129) == [("name", "/name", "rejected")]
    assert found(GEMINI, obj(**{"1st": {"type": "string"}}), "_ok.name:v1") == [
        ("name", "/properties/1st", "rejected")]


def test_request_bounds_over_an_export() -> None:
    optional = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(5)}}
    tools = [(f"t{i}", optional) for i in range(5)]  # 25 optional parameters in 5 tools
    [finding] = check_request(ANTHROPIC, tools)
    assert finding.rule == "request-limit" and "25 optional parameters" in finding.says()
    assert {f.says().split(" rejects ")[1].split(" ")[0]
            for f in check_request(ANTHROPIC, [("t", obj())] * 21)} == {"21"}
    assert check_request(OPENAI, tools) == []


def test_a_finding_says_what_why_and_where() -> None:
    [finding] = check_tool(GEMINI, None, obj(a={"const": "x"}))
    assert isinstance(finding, Finding) and finding.fate is Fate.REJECTED
    assert finding.pointer == "/inputSchema/properties/a/const"
    assert finding.says("tool 't'").startswith("gemini rejects `const` (tool 't'): ")
    assert finding.fix == "write `enum: [value]`" and finding.lowering.value == "enum"


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(
                        ["type", "properties", "required", "items", "anyOf", "$ref", "$defs",
                         "enum", "const", "format", "additionalProperties", "minItems", "x"]),
                        inner, max_size=5), max_leaves=30)


@settings(max_examples=examples(300), deadline=None, database=None)
@given(schema=JSON, name=st.text(max_size=8))
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_any_json_gives_findings_never_an_exception(target: str, schema: Any,
                                                    name: str) -> None:
    for finding in check_tool(TARGETS[target], name, schema):
        assert finding.pointer.startswith(("/inputSchema", "/name")) and finding.says()
    check_request(TARGETS[target], [(name, schema)])
