"""The schema walk: keywords, their values, toolc's additions, raw JSON Schema."""

from __future__ import annotations

from collections.abc import Callable

H = "toolc: 1\nmodule: m\n"
TOOL = H + "tools:\n  t:\n    description: T.\n    handler: x.y:t\n    params:\n      p: "
EXT = H + ("toolsets:\n  e:\n    kind: external\n    tools:\n      t:\n        description: T.\n"
           "        input_schema: ")


def test_every_2020_12_keyword_is_kept(codes: Callable[..., list[str]]) -> None:
    schema = ("{description: P., type: object, $defs: {X: {type: string}}, propertyNames: "
              "{pattern: '^[a-z]+$'}, patternProperties: {'^x': true}, if: {required: [a]}, "
              "then: {minProperties: 1}, else: {}, examples: [{}], deprecated: false, "
              "readOnly: true, contentMediaType: text/plain, const: {}, format: x, "
              "dependentRequired: {a: [b]}, unevaluatedProperties: false}")
    assert codes(TOOL + schema + "\n") == []


def test_toolc_additions_are_not_json_schema(codes: Callable[..., list[str]]) -> None:
    schema = ("{type: object, properties: {a: {type: string, nullable: true, "
              "required: false, description: A.}}}\n")
    assert codes(EXT + schema) == ["TC101", "TC202"]


def test_unknown_keywords_in_raw_schemas_suggest_json_schema_ones(
        check: Callable[..., list]) -> None:
    (r,) = check(EXT + "{type: object, propertys: {}}\n")
    assert r[0] == "TC101" and r[3].endswith("did you mean 'properties'?")


def test_pattern_property_names_must_be_regexes(codes: Callable[..., list[str]]) -> None:
    assert codes(TOOL + "{description: P., patternProperties: {'[': true}}\n") == ["TC202"]


def test_dependencies_take_schemas_or_name_lists(codes: Callable[..., list[str]]) -> None:
    assert codes(TOOL + "{description: P., dependencies: {a: [b], c: {}}}\n") == []
    assert codes(TOOL + "{description: P., dependencies: {a: [b, b]}}\n") == ["TC202"]


def test_schemas_of_a_broken_tool_are_still_checked(codes: Callable[..., list[str]]) -> None:
    text = H + "tools:\n  t:\n    descripton: T.\n    params:\n      p: {type: strng}\n"
    assert codes(text) == ["TC101", "TC305"]


def test_a_named_type_in_another_module(codes: Callable[..., list[str]]) -> None:
    other = "toolc: 1\nmodule: o\ntypes:\n  T: {type: string, description: T.}\n"
    assert codes(TOOL + "{type: o.T}\n", other) == []
    assert codes(TOOL + "{type: o.U, description: P.}\n", other) == ["TC305"]


def test_a_schema_keyword_that_is_not_a_string_is_one_clear_error(
        codes: Callable[..., list[str]]) -> None:
    assert codes(EXT + "{type: object, $schema: []}\n") == ["TC202"]
    assert codes(TOOL + "{description: P., $schema: {}}\n") == ["TC202"]
