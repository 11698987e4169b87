"""Schemas written out as published: the publication rules of spec-format.md, one by one."""

from __future__ import annotations

from typing import Any

from toolc.loader import load_text
from toolc.model.named import TypeDef, TypeRegistry
from toolc.model.parse import ParsedModule, parse_module
from toolc.publish.json_documents import pointer_token, to_json
from toolc.publish.writer import SchemaWriter
from toolc.publish.written import Written


def _module(text: str) -> tuple[ParsedModule, SchemaWriter, TypeRegistry]:
    parsed, diags = parse_module(load_text("toolc: 1\nmodule: m\n" + text, "m.toolc.yaml"))
    assert diags == []
    registry = TypeRegistry([parsed], {"m": parsed})
    return parsed, SchemaWriter(registry.lookup, set()), registry


def _input(text: str, additional: bool = False) -> Written:
    parsed, writer, _ = _module(text)
    params = parsed.section("tools")["t"]["params"]
    return writer.input_schema(parsed, params, additional)


def test_input_object_keeps_written_order_and_forbids_extra_properties() -> None:
    w = _input("tools:\n  t:\n    params:\n      b: {type: string, description: B.}\n"
               "      a: {type: string, description: A., default: x}\n")
    assert list(w.schema) == ["type", "properties", "required", "additionalProperties"]
    assert list(w.schema["properties"]) == ["b", "a"]
    assert w.schema["required"] == ["b"] and w.schema["additionalProperties"] is False


def test_no_required_list_when_nothing_is_required_and_additional_params() -> None:
    w = _input("tools:\n  t:\n    params:\n      a: {type: string, required: false}\n",
               additional=True)
    assert w.schema == {"type": "object", "properties": {"a": {"type": "string"}}}


def test_nullable_publishes_any_of_with_annotations_beside_it() -> None:
    w = _input("tools:\n  t:\n    params:\n      a:\n        type: integer\n        minimum: 1\n"
               "        description: A.\n        default: null\n        nullable: true\n")
    assert w.schema["properties"]["a"] == {
        "anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}],
        "description": "A.", "default": None}
    assert w.schema.get("required") is None  # a default makes it optional
    assert set(w.description_spans) == {"/inputSchema/properties/a/description"}


def test_optional_without_default_gets_no_invented_null() -> None:
    w = _input("tools:\n  t:\n    params:\n      a: {type: string, description: A., "
               "required: false}\n")
    assert w.schema["properties"]["a"] == {"type": "string", "description": "A."}


def test_named_type_is_written_in_place_with_the_property_laid_over() -> None:
    w = _input("types:\n  Level: {description: Type text., enum: [a, b], default: a}\n"
               "tools:\n  t:\n    params:\n      own: {type: Level, description: Own text.}\n"
               "      bare: {type: Level}\n")
    props = w.schema["properties"]
    assert props["own"] == {"description": "Own text.", "enum": ["a", "b"], "default": "a"}
    assert props["bare"]["description"] == "Type text."
    spans = w.description_spans
    assert spans["/inputSchema/properties/own/description"].line == 8
    assert spans["/inputSchema/properties/bare/description"].line == 4
    assert "$ref" not in str(w.schema) and "$defs" not in w.schema


def test_nested_objects_get_a_required_list_and_are_closed() -> None:
    w = _input("tools:\n  t:\n    params:\n      o:\n        type: object\n"
               "        description: O.\n        properties:\n"
               "          x: {type: string, description: X.}\n"
               "          y: {type: string, description: Y., required: false}\n")
    assert w.schema["properties"]["o"] == {
        "type": "object", "description": "O.",
        "properties": {"x": {"type": "string", "description": "X."},
                       "y": {"type": "string", "description": "Y."}},
        "required": ["x"], "additionalProperties": False}


def test_an_author_written_required_list_is_kept() -> None:
    w = _input("tools:\n  t:\n    params:\n      o:\n        type: object\n"
               "        properties: {x: {type: string}, y: {type: string}}\n"
               "        required: [y]\n")
    assert w.schema["properties"]["o"]["required"] == ["y"]


def test_overriding_a_types_properties_forgets_the_types_description_spans() -> None:
    w = _input("types:\n  P:\n    type: object\n    properties: {a: {type: string, "
               "description: A.}}\ntools:\n  t:\n    params:\n      p:\n        type: P\n"
               "        description: P.\n        properties: {b: {type: string, "
               "description: B.}}\n")
    assert w.schema["properties"]["p"]["properties"] == {"b": {"type": "string",
                                                               "description": "B."}}
    assert "/inputSchema/properties/p/properties/a/description" not in w.description_spans
    assert "/inputSchema/properties/p/properties/b/description" in w.description_spans


def test_recursive_types_go_through_defs_only_below_the_property() -> None:
    parsed, _, registry = _module(
        "types:\n  N:\n    type: object\n    description: N.\n    properties:\n"
        "      next: {type: N, required: false}\n"
        "tools:\n  t:\n    params:\n      n: {type: N}\n")
    node: TypeDef = registry.local(parsed)["N"]
    writer = SchemaWriter(registry.lookup, {node})
    w = writer.input_schema(parsed, parsed.section("tools")["t"]["params"], False)
    n = w.schema["properties"]["n"]
    assert n["description"] == "N." and n["type"] == "object"
    assert n["properties"]["next"] == {"$ref": "#/$defs/N", "description": "N."}
    assert w.schema["$defs"]["N"]["properties"]["next"]["$ref"] == "#/$defs/N"


def test_defaults_are_recorded_with_their_own_published_schema() -> None:
    w = _input("tools:\n  t:\n    params:\n      a: {type: integer, description: A., "
               "default: 3, nullable: true}\n")
    (site,) = w.defaults
    assert site.value == 3 and site.span.line == 6
    assert site.schema["anyOf"][1] == {"type": "null"}


def test_helpers() -> None:
    assert pointer_token("a/b~c") == "a~1b~0c"
    loaded: Any = load_text("a: [1, {b: c}]\n", "x.yaml").data
    plain = to_json(loaded)
    assert plain == {"a": [1, {"b": "c"}]} and type(plain) is dict
    assert type(plain["a"][1]) is dict


# -- closed objects (issue 11 item 7) ------------------------------------------------------

_NESTED = ("types:\n  Point:\n    description: A point.\n    type: object\n"
           "    properties:\n      x: {type: number, description: X.}\n")


def test_nested_objects_of_the_input_are_closed() -> None:
    w = _input("tools:\n  t:\n    params:\n      filters:\n        description: F.\n"
               "        properties:\n          priority: {type: string, description: P.}\n"
               "          inner:\n            description: I.\n            properties:\n"
               "              a: {type: string, description: A.}\n"
               "      many:\n        description: M.\n        type: array\n"
               "        items:\n          properties:\n            b: {type: string}\n")
    filters = w.schema["properties"]["filters"]
    assert filters["additionalProperties"] is False
    assert filters["properties"]["inner"]["additionalProperties"] is False
    assert w.schema["properties"]["many"]["items"]["additionalProperties"] is False


def test_the_specs_own_word_on_other_properties_wins() -> None:
    w = _input("tools:\n  t:\n    params:\n"
               "      a: {description: A., properties: {x: {}}, additionalProperties: true}\n"
               "      b: {description: B., properties: {x: {}}, patternProperties: {'^y': {}}}\n"
               "      c: {description: C., properties: {x: {}}, unevaluatedProperties: false}\n")
    props = w.schema["properties"]
    assert props["a"]["additionalProperties"] is True
    assert "additionalProperties" not in props["b"] and "additionalProperties" not in props["c"]


def test_parts_of_an_object_stay_open_so_that_they_do_not_refuse_each_other() -> None:
    w = _input("tools:\n  t:\n    params:\n      a:\n        description: A.\n"
               "        allOf: [{properties: {x: {}}}, {properties: {y: {}}}]\n"
               "      b:\n        description: B.\n        properties: {x: {}}\n"
               "        anyOf: [{properties: {y: {}}}]\n"
               "      c:\n        description: C.\n"
               "        oneOf: [{properties: {x: {}}}, {properties: {y: {}}}]\n"
               "      d:\n        description: D.\n        not: {properties: {x: {}}}\n")
    props = w.schema["properties"]
    assert all("additionalProperties" not in s for s in props["a"]["allOf"])
    assert "additionalProperties" not in props["b"]
    assert "additionalProperties" not in props["b"]["anyOf"][0]
    assert all(s["additionalProperties"] is False for s in props["c"]["oneOf"])  # alternatives
    assert "additionalProperties" not in props["d"]["not"]


def test_fragments_and_alternatives_inside_parts_stay_open() -> None:
    """A spec's own `$defs` entry is a part of whatever object refers to it, and the
    alternatives of a part (under `allOf`) are parts too: closing either would refuse the
    properties the object's other keywords allow (the JSON-Schema-Test-Suite's
    "unevaluatedProperties with $ref" and "anyOf complex types" shapes)."""
    w = _input("tools:\n  t:\n    params:\n      a:\n        description: A.\n"
               "        $ref: '#/$defs/bar'\n        properties: {foo: {}}\n"
               "        unevaluatedProperties: false\n"
               "        $defs: {bar: {properties: {bar: {}}}}\n"
               "      b:\n        description: B.\n"
               "        allOf: [{anyOf: [{properties: {x: {}}}]}, {properties: {y: {}}}]\n")
    props = w.schema["properties"]
    assert "additionalProperties" not in props["a"]["$defs"]["bar"]
    assert "additionalProperties" not in props["b"]["allOf"][0]["anyOf"][0]


def test_a_named_type_is_closed_in_the_input_and_open_in_the_output() -> None:
    parsed, writer, registry = _module(
        _NESTED + "tools:\n  t:\n    params:\n      p: {type: Point}\n"
        "    returns:\n      type: object\n      properties:\n        p: {type: Point}\n")
    params = parsed.section("tools")["t"]["params"]
    closed = writer.input_schema(parsed, params, False).schema["properties"]["p"]
    assert closed["additionalProperties"] is False
    returns = parsed.section("tools")["t"]["returns"]
    opened = writer.document(parsed, returns, "/outputSchema").schema
    assert "additionalProperties" not in opened and "additionalProperties" not in \
        opened["properties"]["p"]
    td = registry.lookup(parsed, "Point")
    assert td is not None and "additionalProperties" not in writer.type_schema(td).schema


def test_nullable_object_is_closed_inside_its_any_of() -> None:
    w = _input("tools:\n  t:\n    params:\n      a:\n        description: A.\n"
               "        nullable: true\n        properties: {x: {}}\n")
    assert w.schema["properties"]["a"]["anyOf"][0]["additionalProperties"] is False


def test_an_object_without_properties_is_left_as_written() -> None:
    w = _input("tools:\n  t:\n    params:\n      a: {description: A., type: object}\n")
    assert w.schema["properties"]["a"] == {"description": "A.", "type": "object"}
