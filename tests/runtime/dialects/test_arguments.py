"""A view's arguments mapped back to the canonical schema's (canonical_arguments)."""

from __future__ import annotations

from jsonschema import Draft202012Validator
from toolc.runtime.dialects import TARGETS, canonical_arguments, lower_tool

SCHEMA = {"type": "object", "additionalProperties": False, "required": ["q"],
          "properties": {
              "q": {"type": "string"},
              "limit": {"type": "integer"},
              "note": {"type": ["string", "null"]},
              "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}}},
          "$defs": {"Item": {"type": "object", "additionalProperties": False,
                             "required": ["id"], "properties": {
                                 "id": {"type": "string"}, "tag": {"type": "string"}}}}}


def test_a_null_for_an_optional_property_is_absent_at_every_depth() -> None:
    sent = {"q": "a", "limit": None, "note": None,
            "items": [{"id": "x", "tag": None}, {"id": "y", "tag": "t"}]}
    assert canonical_arguments(SCHEMA, sent) == {
        "q": "a", "note": None, "items": [{"id": "x"}, {"id": "y", "tag": "t"}]}


def test_a_null_the_canonical_schema_refuses_otherwise_is_left_for_the_runtime() -> None:
    # `q` is required: a null there is the model's mistake, said by the validation.
    assert canonical_arguments(SCHEMA, {"q": None}) == {"q": None}
    assert canonical_arguments(SCHEMA, {"q": "a", "other": None}) == {"q": "a", "other": None}


def test_what_the_view_asks_for_the_canonical_schema_takes() -> None:
    view = lower_tool(TARGETS["openai-strict"], {"name": "t", "inputSchema": SCHEMA})
    assert view.problems == []
    full = {"q": "a", "limit": None, "note": None, "items": [{"id": "x", "tag": None}]}
    assert Draft202012Validator(view.input_schema).is_valid(full)  # all the view asks
    assert not Draft202012Validator(SCHEMA).is_valid(full)
    restored = canonical_arguments(SCHEMA, full)
    assert Draft202012Validator(SCHEMA).is_valid(restored)
    assert "limit" not in restored and restored["items"] == [{"id": "x"}]
