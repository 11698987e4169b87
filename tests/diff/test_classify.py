"""Classification, fixture by fixture: tests/fixtures/diff/<RULE_ID>/{old,new}/ and its
expected.json (the json rendering, compared in full), plus the cases fixtures do not show."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from toolc.diagnostics import Severity
from toolc.diff import RULES, Change, diff_tools, golden_text, load_folder
from toolc.diff.rules import POLICY_RULES
from toolc.report.render import render_changes

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "diff"
CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "old").is_dir())
# Rules that only ever happen on one side, or outside both schemas.
ONE_SIDED = {"TOOL_REMOVED", "TOOL_ADDED", "OUTPUT_SCHEMA_ADDED", "OUTPUT_SCHEMA_REMOVED"}


def changes_of(case: str) -> list[Change]:
    """The case's changes; ``pinned.txt`` lists the new side's tools pinned from an MCP
    server (a build knows them from its specs, golden files alone do not say)."""
    listed = FIXTURES / case / "pinned.txt"
    pinned = listed.read_text("utf-8").split() if listed.is_file() else ()
    return diff_tools(load_folder(FIXTURES / case / "old"), load_folder(FIXTURES / case / "new"),
                      pinned=pinned)


SCHEMA_RULES = sorted(set(RULES) - POLICY_RULES)  # the others: tests/commands/test_gate.py


def test_every_rule_has_a_fixture() -> None:
    assert set(SCHEMA_RULES) <= set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_fixture_matches_expected_json(case: str, expect: Callable[[Path, str], None]) -> None:
    expect(FIXTURES / case / "expected.json", render_changes(changes_of(case), "json") + "\n")


@pytest.mark.parametrize("rule", SCHEMA_RULES)
def test_rule_fixture_shows_only_its_rule_on_every_side(rule: str) -> None:
    changes = changes_of(rule)
    assert changes and {c.rule for c in changes} == {rule}
    spec = RULES[rule]
    for c in changes:
        assert c.severity in (spec.severity(c.schema), spec.severity(c.schema, open_object=True))
    if spec.input != spec.output and rule not in ONE_SIDED:
        assert {"input", "output"} <= {c.schema for c in changes}, "both sides are covered"
    if spec.input_open is not None:
        assert {c.severity for c in changes if c.schema == "input"} == {spec.input,
                                                                       spec.input_open}


def test_a_pure_reordering_reports_nothing() -> None:
    old = load_folder(FIXTURES / "_reorder_only" / "old")
    new = load_folder(FIXTURES / "_reorder_only" / "new")
    assert old.paths == new.paths == {"demo/search": "demo/search.json"}
    assert old.texts["demo/search"] != new.texts["demo/search"]  # its lists are reordered
    assert diff_tools(old, new) == []


def test_a_tool_moved_to_another_module_is_removed_there_and_added_here(tmp_path: Path) -> None:
    # Each module is served on its own: moving a file between module folders takes the
    # tool away from one server and gives it to another.
    text = (FIXTURES / "_reorder_only" / "old" / "demo" / "search.json").read_text("utf-8")
    for relative in ("old/demo/search.json", "new/moved/search.json"):
        (tmp_path / relative).parent.mkdir(parents=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    changes = diff_tools(load_folder(tmp_path / "old"), load_folder(tmp_path / "new"))
    assert [(c.tool, c.rule, c.pointer, c.severity) for c in changes] == [
        ("demo/search", "TOOL_REMOVED", "", Severity.ERROR),
        ("moved/search", "TOOL_ADDED", "", Severity.INFO)]
    assert [c.message for c in changes] == ["tool 'demo/search' was removed",
                                            "tool 'moved/search' was added"]


def test_tools_of_one_name_in_two_modules_are_compared_each_with_its_own() -> None:
    mine = tool({"a": {"type": "string", "description": "A."}})
    theirs = tool({"b": {"type": "integer", "description": "B."}})
    old = {"workbench/t": mine, "showcase/t": theirs}
    new = {"workbench/t": mine, "showcase/t": {**theirs, "description": "Changed."}}
    changes = diff_tools(old, new)
    assert [(c.tool, c.rule, c.pointer) for c in changes] == [
        ("showcase/t", "DESCRIPTION_CHANGED", "/description")]
    assert changes[0].message == "tool 'showcase/t': description changed"


def test_order_is_deterministic_whatever_the_input_order() -> None:
    old = load_folder(FIXTURES / "_multi" / "old")
    new = load_folder(FIXTURES / "_multi" / "new")
    expected = diff_tools(old, new)
    names = list(new)
    random.Random(5).shuffle(names)
    assert diff_tools(dict(old), {n: new[n] for n in names}) == expected
    assert expected == sorted(expected, key=lambda c: (c.tool, c.pointer.split("/"), c.rule))


# -- cases the fixtures do not show ------------------------------------------------------

def tool(input_props: dict[str, Any], required: list[str] | None = None,
         output: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    schema = {"type": "object", "properties": input_props, "additionalProperties": False,
              "required": list(input_props) if required is None else required}
    result = {"name": "t", "description": "T.", "inputSchema": schema, **extra}
    if output is not None:
        result["outputSchema"] = output
    return result


def rules_of(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, Severity]]:
    return [(c.rule, c.pointer, c.severity) for c in diff_tools({"t": old}, {"t": new})]


def test_new_required_property_is_added_required_alone() -> None:
    old = tool({"a": {"type": "string", "description": "A."}})
    new = tool({"a": {"type": "string", "description": "A."},
                "b": {"type": "string", "description": "B."}})
    assert rules_of(old, new) == [
        ("PROPERTY_ADDED_REQUIRED", "/inputSchema/properties/b", Severity.ERROR)]


def test_removed_required_property_is_property_removed_alone() -> None:
    old = tool({}, output={"type": "object", "required": ["a"],
                           "properties": {"a": {"type": "string", "description": "A."}}})
    new = tool({}, output={"type": "object", "properties": {}})
    assert rules_of(old, new) == [
        ("PROPERTY_REMOVED", "/outputSchema/properties/a", Severity.ERROR)]


def test_description_moved_up_from_a_branch_is_only_added() -> None:
    inner = {"type": "string", "description": "Level."}
    old = tool({"x": {"anyOf": [inner, {"type": "null"}]}})
    new = tool({"x": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "Level."}})
    assert rules_of(old, new) == [
        ("DESCRIPTION_ADDED", "/inputSchema/properties/x/description", Severity.INFO)]


def test_integer_within_number_and_enum_that_still_fits() -> None:
    number = {"type": "number", "description": "N."}
    integer = {"type": "integer", "description": "N."}
    assert rules_of(tool({"n": number}), tool({"n": integer}))[0][0] == "TYPE_NARROWED"
    # The enum already admitted only integers: declaring the type loses nothing.
    listed = {"enum": [1, 2], "description": "N."}
    assert rules_of(tool({"n": listed}), tool({"n": {**listed, "type": "integer"}})) == []
    assert rules_of(tool({"n": {**listed, "enum": [1, 2.5]}}),
                    tool({"n": {**listed, "enum": [1, 2.5], "type": "integer"}}))[0][0] \
        == "TYPE_NARROWED"


def test_an_incomparable_change_takes_the_breaking_rule_of_its_side() -> None:
    string = {"type": "string", "description": "S."}
    integer = {"type": "integer", "description": "S."}
    assert rules_of(tool({"v": string}), tool({"v": integer})) == [
        ("TYPE_NARROWED", "/inputSchema/properties/v/type", Severity.ERROR)]
    out_old = tool({}, output={"type": "object", "properties": {"v": string}})
    out_new = tool({}, output={"type": "object", "properties": {"v": integer}})
    assert rules_of(out_old, out_new) == [
        ("TYPE_WIDENED", "/outputSchema/properties/v/type", Severity.ERROR)]
    step = {"type": "number", "description": "S.", "multipleOf": 4}
    assert rules_of(tool({"v": step}), tool({"v": {**step, "multipleOf": 6}}))[0][:2] == (
        "CONSTRAINT_TIGHTENED", "/inputSchema/properties/v/multipleOf")
    assert rules_of(tool({"v": step}), tool({"v": {**step, "multipleOf": 2}}))[0][0] \
        == "CONSTRAINT_LOOSENED"


def test_a_ref_and_an_inline_schema_are_compared_by_meaning() -> None:
    node = {"type": "object", "description": "N.",
            "properties": {"id": {"type": "string", "description": "Id."}}}
    old = tool({"n": {"$ref": "#/$defs/Node"}})
    old["inputSchema"]["$defs"] = {"Node": node}
    same_inline = tool({"n": copy.deepcopy(node)})
    assert rules_of(old, same_inline) == []
    narrowed = copy.deepcopy(same_inline)
    narrowed["inputSchema"]["properties"]["n"]["properties"]["id"]["maxLength"] = 3
    assert rules_of(old, narrowed) == [("CONSTRAINT_TIGHTENED",
                                        "/inputSchema/properties/n/properties/id/maxLength",
                                        Severity.ERROR)]


def test_a_percent_encoded_ref_is_followed_to_its_target() -> None:
    """toolc publishes pointers percent-encoded (`#/properties/a%20b/$defs/n`)."""
    def with_ref(limit: int) -> dict[str, Any]:
        result = tool({"a b": {"$defs": {"n": {"type": "integer", "maximum": limit}},
                               "items": {"$ref": "#/properties/a%20b/$defs/n"}}})
        return result
    old = with_ref(5)
    new = tool({"a b": {"$defs": {"m": {"type": "integer", "maximum": 3}},
                        "items": {"$ref": "#/properties/a%20b/$defs/m"}}})
    assert ("CONSTRAINT_TIGHTENED", "/inputSchema/properties/a b/items/maximum",
            Severity.ERROR) in rules_of(old, new)


def test_recursive_types_terminate() -> None:
    def tree(kind: str) -> dict[str, Any]:
        result = tool({"root": {"$ref": "#/$defs/A"}})
        result["inputSchema"]["$defs"] = {
            "A": {"type": "object", "properties": {"k": {"type": kind}, "b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}},
        }
        return result
    old, new = tree("string"), tree("integer")
    new["inputSchema"]["properties"]["root"] = {"$ref": "#/$defs/B"}
    assert ("TYPE_NARROWED", "/inputSchema/$defs/A/properties/k/type", Severity.ERROR) \
        in rules_of(old, new)


def test_false_schemas_and_switching_combinators() -> None:
    assert rules_of(tool({"v": True}), tool({"v": False})) == [
        ("TYPE_NARROWED", "/inputSchema/properties/v", Severity.ERROR)]
    branches = [{"type": "string"}, {"type": "integer"}]
    changes = rules_of(tool({"v": {"anyOf": branches, "description": "V."}}),
                       tool({"v": {"oneOf": branches, "description": "V."}}))
    assert changes == [("OTHER_CHANGED", "/inputSchema/properties/v/oneOf", Severity.WARNING)]


def test_blank_description_counts_as_removed() -> None:
    old = tool({"a": {"type": "string", "description": "A."}})
    new = tool({"a": {"type": "string", "description": "  "}})
    assert rules_of(old, new) == [
        ("DESCRIPTION_REMOVED", "/inputSchema/properties/a/description", Severity.ERROR)]


def test_numbers_compare_by_value_and_booleans_are_not_numbers() -> None:
    old = tool({"a": {"type": "number", "description": "A.", "maximum": 5, "enum": [1, 2]}})
    new = tool({"a": {"type": "number", "description": "A.", "maximum": 5.0, "enum": [2.0, 1]}})
    assert rules_of(old, new) == []
    flags = tool({"a": {"description": "A.", "enum": [1, True]}})
    other = tool({"a": {"description": "A.", "enum": [True, 1.0]}})
    assert rules_of(flags, other) == []
    assert rules_of(tool({"a": {"description": "A.", "enum": [1]}}),
                    tool({"a": {"description": "A.", "enum": [True]}})) == [
        ("ENUM_VALUE_ADDED", "/inputSchema/properties/a/enum/0", Severity.INFO),
        ("ENUM_VALUE_REMOVED", "/inputSchema/properties/a/enum/0", Severity.ERROR)]


def test_output_schema_description_moved_into_oneof_names_oneof() -> None:
    old = tool({}, output={"type": "object", "properties": {
        "v": {"type": "string", "description": "V."}}})
    new = tool({}, output={"type": "object", "properties": {
        "v": {"oneOf": [{"type": "string", "description": "V."}, {"type": "integer"}]}}})
    changes = diff_tools({"t": old}, {"t": new})
    assert [(c.rule, c.pointer) for c in changes] == [
        ("DESCRIPTION_REMOVED", "/outputSchema/properties/v/description"),
        ("TYPE_WIDENED", "/outputSchema/properties/v/oneOf/1")]
    assert "oneOf branch" in changes[0].message


# -- any JSON at all -----------------------------------------------------------------------

KEYWORDS = ["type", "properties", "required", "items", "prefixItems", "anyOf", "oneOf",
            "allOf", "enum", "const", "minimum", "maxLength", "pattern", "format",
            "description", "title", "default", "additionalProperties", "$ref", "$defs",
            "multipleOf", "uniqueItems", "not", "a", "b"]
SCALARS = (st.none() | st.booleans() | st.integers(-3, 3)
           | st.floats(allow_nan=False, allow_infinity=False, width=16)
           | st.sampled_from(["string", "integer", "number", "null", "object", "#/$defs/a",
                              "#", "^a+$", "a", "b"]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(KEYWORDS), inner, max_size=4),
                    max_leaves=30)
TOOLS = st.builds(lambda i, o, a: {"name": "t", "inputSchema": i, "outputSchema": o,
                                   "annotations": a}, JSON, JSON, JSON)


def shuffled(value: Any, rnd: random.Random) -> Any:
    if isinstance(value, dict):
        keys = list(value)
        rnd.shuffle(keys)
        return {k: shuffled(value[k], rnd) for k in keys}
    if isinstance(value, list):
        return [shuffled(v, rnd) for v in value]
    return value


@settings(max_examples=examples(100), deadline=None)
@given(TOOLS, TOOLS, st.randoms(use_true_random=False))
def test_any_json_is_classified_without_error_and_key_order_never_counts(
        old: dict[str, Any], new: dict[str, Any], rnd: random.Random) -> None:
    changes = diff_tools({"t": old}, {"t": new})
    assert diff_tools({"t": old}, {"t": shuffled(old, rnd)}) == []
    assert diff_tools({"t": shuffled(old, rnd)}, {"t": shuffled(new, rnd)}) == changes
    for fmt in ("text", "markdown", "json", "github"):
        render_changes(changes, fmt, paths={"t": "m/t.json"}, new_texts={"t": golden_text(new)})


def test_pointers_follow_the_side_that_has_the_branches() -> None:
    level = {"type": "string", "enum": ["a", "b"]}
    old = tool({"x": {"anyOf": [level, {"type": "null"}], "description": "X."}})
    new = tool({"x": {**level, "enum": ["a"], "description": "X."}})
    assert rules_of(old, new) == [
        ("TYPE_NARROWED", "/inputSchema/properties/x/anyOf/1", Severity.ERROR),
        ("ENUM_VALUE_REMOVED", "/inputSchema/properties/x/enum/1", Severity.ERROR)]
    integer = tool({"x": {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "X."}})
    assert rules_of(tool({"x": {"type": "string", "description": "X."}}), integer) == [
        ("TYPE_NARROWED", "/inputSchema/properties/x", Severity.ERROR),
        ("TYPE_WIDENED", "/inputSchema/properties/x/anyOf/0", Severity.INFO),
        ("TYPE_WIDENED", "/inputSchema/properties/x/anyOf/1", Severity.INFO)]


def test_approval_between_two_values_that_ask_nothing_is_only_a_meta_change() -> None:
    old = {"t": tool({}, _meta={"toolc/requiresApproval": False})}
    new = {"t": tool({}, _meta={})}
    assert [c.rule for c in diff_tools(old, new)] == ["META_CHANGED"]


def test_approval_and_other_meta_entries_are_reported_each_by_its_rule() -> None:
    old = {"t": tool({}, _meta={"owner": "a"})}
    new = {"t": tool({}, _meta={"owner": "b", "toolc/requiresApproval": True})}
    assert [(c.rule, c.severity) for c in diff_tools(old, new)] == [
        ("META_CHANGED", Severity.INFO), ("APPROVAL_ADDED", Severity.WARNING)]


# -- renames -----------------------------------------------------------------------------

def test_a_tool_alike_but_for_its_name_is_renamed_only_within_its_folder() -> None:
    body = tool({"q": {"type": "string", "description": "Q."}})
    old = {"demo/find": {**body, "name": "find"}}
    assert [(c.tool, c.rule, c.old, c.new) for c in diff_tools(
        old, {"demo/search": {**body, "name": "search"}})] == [
        ("demo/search", "TOOL_RENAMED", "find", "search")]
    # In another module's folder it is another server's tool: a removal and an addition.
    assert [c.rule for c in diff_tools(old, {"other/search": {**body, "name": "search"}})] == [
        "TOOL_REMOVED", "TOOL_ADDED"]


def test_two_alike_tools_gone_and_one_come_is_no_rename() -> None:
    body = tool({"q": {"type": "string", "description": "Q."}})
    old = {f"demo/{n}": {**body, "name": n} for n in ("a", "b")}
    assert sorted(c.rule for c in diff_tools(old, {"demo/c": {**body, "name": "c"}})) == [
        "TOOL_ADDED", "TOOL_REMOVED", "TOOL_REMOVED"]


def test_a_declared_rename_carries_the_tools_other_changes() -> None:
    old = {"demo/find": {**tool({"q": {"type": "string", "description": "Q."}}), "name": "find"}}
    new = {"demo/search": {**tool({"q": {"type": "string", "description": "Query."}}),
                           "name": "search"}}
    assert [(c.tool, c.rule, c.pointer) for c in diff_tools(
        old, new, renames={"demo/search": "demo/find"})] == [
        ("demo/search", "DESCRIPTION_CHANGED", "/inputSchema/properties/q/description"),
        ("demo/search", "TOOL_RENAMED", "/name")]
    # A declared rename whose old key the old side lacks, or the new side keeps, is none.
    assert "TOOL_RENAMED" not in {c.rule for c in diff_tools(
        old, new, renames={"demo/search": "demo/lost"})}
    assert "TOOL_RENAMED" not in {c.rule for c in diff_tools(
        old, {**new, **old}, renames={"demo/search": "demo/find"})}
