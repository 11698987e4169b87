"""Which objects of a tool's input are closed: the rules on their own (the writer's use of
them is in test_writeout.py)."""

from __future__ import annotations

import pytest
from toolc.publish.closing import alternatives_closable, closes


@pytest.mark.parametrize(("schema", "closed"), [
    ({"properties": {"a": {}}}, True),
    ({"type": "object", "properties": {}, "required": []}, True),
    ({"type": "object"}, False),                                  # no properties declared
    ({"properties": {"a": {}}, "additionalProperties": True}, False),
    ({"properties": {"a": {}}, "patternProperties": {"^x": {}}}, False),
    ({"properties": {"a": {}}, "unevaluatedProperties": False}, False),
    ({"properties": {"a": {}}, "allOf": [{}]}, False),
    ({"properties": {"a": {}}, "$ref": "#/$defs/b"}, False),
    ({"properties": {"a": {}}, "if": {}, "then": {}}, False),
    ({"properties": {"a": {}}, "dependentSchemas": {"a": {}}}, False),
])
def test_an_object_is_closed_unless_something_else_decides_the_rest(schema: dict[str, object],
                                                                   closed: bool) -> None:
    assert closes(schema) is closed


def test_branches_are_alternatives_only_under_a_parent_that_says_nothing_else() -> None:
    assert alternatives_closable({"anyOf": [{}], "description": "x", "type": "object"})
    assert alternatives_closable({"oneOf": [{}]})
    assert not alternatives_closable({"anyOf": [{}], "oneOf": [{}]})
    assert not alternatives_closable({"anyOf": [{}], "required": ["a"]})
    assert not alternatives_closable({"anyOf": [{}], "properties": {}})
    assert not alternatives_closable({"type": "object"})
