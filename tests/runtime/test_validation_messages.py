"""What the model reads when its call fails a union: each branch named, and why it failed.

jsonschema-rs alone says `"mid" is not valid under any of the schemas listed in the
'anyOf' keyword`; these are the messages toolc's validator of record gives instead.
"""

from __future__ import annotations

import json
from typing import Any

from toolc.runtime.validation import Validator
from toolc.runtime.validation_messages import MAX_BRANCHES


def problems(schema: dict[str, Any], args: Any) -> list[str]:
    # the text form, as a generated module holds the schema
    return Validator(json.dumps(schema)).problems(args)


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def test_a_nullable_enum_names_its_values() -> None:
    # what `enum: [low, medium, high], nullable: true` publishes
    level = {"anyOf": [{"enum": ["low", "medium", "high"]}, {"type": "null"}]}
    assert problems(obj(level=level), {"level": "mid"}) == [
        '- level: "mid" is not one of "low", "medium", "high", null']


def test_a_union_of_constants_and_enums_names_every_value() -> None:
    either = {"oneOf": [{"const": 3}, {"enum": [1, 2]}]}
    assert problems(obj(n=either), {"n": 7}) == ["- n: 7 is not one of 3, 1, 2"]


def test_a_failing_oneof_names_each_branch_and_why_the_deepest_first() -> None:
    by_id = {"title": "By id", "type": "object", "required": ["id"],
             "properties": {"id": {"type": "integer"}}}
    by_name = {"title": "By name", "type": "object", "required": ["name"],
               "properties": {"name": {"type": "string", "minLength": 2}}}
    reason = {"oneOf": [by_id, by_name, {"type": "string", "maxLength": 3}]}
    assert problems(obj(who=reason), {"who": {"name": "x"}}) == [
        '- who: {"name":"x"} matches none of the 3 branches of oneOf:',
        "  - 'By name' (branch 2): name: \"x\" is shorter than 2 characters",
        "  - 'By id' (branch 1): \"id\" is a required property",
        '  - branch 3 (string): {"name":"x"} is not of type "string"',
    ]


def test_a_branch_behind_a_ref_is_named_by_the_schema_it_names() -> None:
    schema = {**obj(at={"$ref": "#/$defs/When"}), "$defs": {
        "When": {"anyOf": [{"$ref": "#/$defs/Day"}, {"type": "integer"}]},
        "Day": {"title": "Day", "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}}}
    assert problems(schema, {"at": "May 1"}) == [
        '- at: "May 1" matches none of the 2 branches of anyOf:',
        "  - 'Day' (branch 1): \"May 1\" does not match \"^[0-9]{4}-[0-9]{2}-[0-9]{2}$\"",
        '  - branch 2 (integer): "May 1" is not of type "integer"',
    ]


def test_a_value_matching_two_branches_of_oneof_names_both() -> None:
    number = {"oneOf": [{"type": "integer"}, {"type": "number", "title": "Any number"}]}
    assert problems(obj(n=number), {"n": 3}) == [
        ("- n: 3 matches 2 branches of oneOf (branch 1 (integer), 'Any number' (branch 2)); "
        "it must match exactly one")]


def test_a_union_inside_a_branch_is_told_on_its_line() -> None:
    inner = {"anyOf": [{"type": "string"}, {"type": "boolean"}]}
    outer = {"anyOf": [obj(flag=inner), {"type": "null"}]}
    assert problems(obj(opt=outer), {"opt": {"flag": 1}}) == [
        '- opt: {"flag":1} matches none of the 2 branches of anyOf:',
        ("  - branch 1 (object): flag: 1 matches none of the 2 branches of anyOf (branch 1 "
        '(string): 1 is not of type "string" | branch 2 (boolean): 1 is not of type "boolean")'),
        '  - branch 2 (null): {"flag":1} is not of type "null"']


def test_a_branch_that_is_a_union_gives_its_branches() -> None:
    # a named union made nullable: anyOf [{anyOf [circle, square]}, {type: null}]
    circle = {"title": "Circle", "type": "object", "required": ["radius"],
              "properties": {"radius": {"type": "number", "exclusiveMinimum": 0}}}
    square = {"type": "object", "required": ["side"], "properties": {"side": {"type": "number"}}}
    shape = {"anyOf": [{"anyOf": [circle, square]}, {"type": "null"}]}
    assert problems(obj(shape=shape), {"shape": {"radius": 0}}) == [
        '- shape: {"radius":0} matches none of the 3 branches of anyOf:',
        "  - 'Circle' (branch 1.1): radius: 0 is less than or equal to the minimum of 0",
        '  - branch 1.2 (object): "side" is a required property',
        '  - branch 2 (null): {"radius":0} is not of type "null"']


def test_the_branches_told_are_bounded() -> None:
    many = {"anyOf": [{"type": "string", "minLength": n} for n in range(10, 30)]}
    lines = problems(obj(s=many), {"s": "short"})
    assert len(lines) == 1 + MAX_BRANCHES + 1
    assert lines[-1] == f"  - ... and {20 - MAX_BRANCHES} more branches"


NULLABLE_ENUM = """toolc: 1
module: clinic
tools:
  triage:
    description: Say how urgent a visit is.
    handler: clinic.visits:triage
    params:
      urgency: {description: How urgent., enum: [low, medium, high], nullable: true}
"""


def test_a_spec_with_a_nullable_enum_publishes_what_names_its_values() -> None:
    from toolc.diagnostics import DiagnosticBag
    from toolc.frontend import analyse
    from toolc.loader import load_text

    project = analyse([load_text(NULLABLE_ENUM, "clinic.toolc.yaml")], DiagnosticBag())
    assert project is not None
    schema = project.modules["clinic"].tools["triage"].input_schema
    assert "anyOf" in json.dumps(schema)  # `nullable` on an enum: anyOf [{enum}, {null}]
    assert problems(schema, {"urgency": "mid"}) == [
        '- urgency: "mid" is not one of "low", "medium", "high", null']
