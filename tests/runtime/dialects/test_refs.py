"""The `$ref` shape of a view (``refs``): inline, defs, as written."""

from __future__ import annotations

import json
from typing import Any

from toolc.config import REFS_MODES as CONFIGURED
from toolc.runtime.dialects import TARGETS, lower_tool
from toolc.runtime.dialects.refs import HOIST_CHARS, REFS_MODES, shape_refs

ADDRESS = {"type": "object", "description": "An address.", "additionalProperties": False,
           "properties": {"street": {"type": "string", "description": "The street."},
                          "city": {"type": "string", "description": "The city."}},
           "required": ["street", "city"]}
TWICE = {"type": "object", "additionalProperties": False, "required": ["home", "work"],
         "properties": {"home": ADDRESS, "work": ADDRESS,
                        "past": {"type": "array", "items": ADDRESS}}}
RECURSIVE = {"type": "object", "additionalProperties": False, "required": ["root"],
             "properties": {"root": {"$ref": "#/$defs/Node"}},
             "$defs": {"Node": {"type": "object", "additionalProperties": False,
                                "required": ["children"], "properties": {"children": {
                                    "type": "array", "items": {"$ref": "#/$defs/Node"}}}}}}


def _chars(schema: Any) -> int:
    return len(json.dumps(schema, separators=(",", ":")))


def test_the_configuration_knows_the_same_shapes() -> None:
    assert CONFIGURED == REFS_MODES


def test_defs_hoists_a_repeated_subschema_and_inline_writes_it_back() -> None:
    hoisted, problems = shape_refs(TWICE, "defs")
    assert problems == []
    assert hoisted["$defs"] == {"Shared": ADDRESS}
    assert {p["$ref"] for p in (hoisted["properties"]["home"], hoisted["properties"]["work"],
                                hoisted["properties"]["past"]["items"])} == {"#/$defs/Shared"}
    assert _chars(hoisted) < _chars(TWICE)
    assert shape_refs(hoisted, "inline") == (TWICE, [])
    assert shape_refs(TWICE, "as-written") == (TWICE, [])


def test_defs_leaves_small_and_single_subschemas_in_place() -> None:
    small = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    assert len(json.dumps({"type": "string"})) < HOIST_CHARS
    assert shape_refs(small, "defs") == (small, [])
    once = {"type": "object", "properties": {"a": ADDRESS}}
    assert shape_refs(once, "defs") == (once, [])


def test_inline_keeps_a_recursive_reference_and_says_where() -> None:
    shaped, recursive = shape_refs(RECURSIVE, "inline")
    assert recursive == ["/inputSchema/properties/root/properties/children/items/$ref"]
    assert "$defs" in shaped  # the reference left in place still resolves


def test_a_recursive_schema_inlined_is_a_problem_of_the_view() -> None:
    tool = {"name": "tree", "inputSchema": RECURSIVE}
    view = lower_tool(TARGETS["openai-strict"], tool, "inline")
    assert [(p.rule, p.keyword) for p in view.problems] == [("reference", "$ref")]
    assert "cannot be written out" in view.problems[0].says()
    assert lower_tool(TARGETS["openai-strict"], tool, "defs").problems == []
    # A target that cannot express recursion at all says so once, in its own words.
    said = lower_tool(TARGETS["anthropic-strict"], tool, "inline").problems
    assert [p.rule for p in said] == ["reference"]
    assert "recursive schemas are not supported" in said[0].why


def test_an_inlined_view_has_no_references() -> None:
    hoisted, _ = shape_refs(TWICE, "defs")
    view = lower_tool(TARGETS["openai-strict"], {"name": "move", "inputSchema": hoisted},
                      "inline")
    assert "$ref" not in json.dumps(view.input_schema)
    assert "$defs" not in view.input_schema
