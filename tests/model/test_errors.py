"""Pydantic's errors told in words, at the key or value they are about."""

from __future__ import annotations

from pydantic import ValidationError
from toolc.loader import load_text
from toolc.model.errors import describe_path, describe_value, diagnostics_from, did_you_mean
from toolc.model.module import ModuleSpec


def _diagnose(text: str) -> list[tuple[str, int, int, str]]:
    f = load_text(text, "s.toolc.yaml")
    try:
        ModuleSpec.model_validate(f.data)
    except ValidationError as exc:
        return [(d.code, d.span.line, d.span.col, d.message) if d.span else (d.code, 0, 0, "")
                for d in diagnostics_from(exc, f.data, ModuleSpec, f.path)]
    return []


def test_did_you_mean_names_only_near_misses() -> None:
    assert did_you_mean("descripton", ["description", "title"]) == "; did you mean 'description'?"
    assert did_you_mean("prefix", ["prefixed", "renamed"]) == "; did you mean 'prefixed'?"
    assert did_you_mean("zzz", ["description"]) == ""
    assert did_you_mean(3, ["description"]) == ""


def test_describe_value_reads_like_yaml() -> None:
    assert [describe_value(v) for v in (None, True, 3, 1.5, "x", {}, [])] == [
        "null", "true", "the integer 3", "the number 1.5", "the string 'x'", "a mapping", "a list"]
    assert describe_value("y" * 100).endswith("...'")


def test_describe_path_names_tools_toolsets_and_fields() -> None:
    assert describe_path(()) == "the spec"
    assert describe_path(("tools", "a")) == "tool 'a'"
    assert describe_path(("toolsets", "s", "tools", "t")) == "external tool 't' of toolset 's'"
    assert describe_path(("tools", "a", "annotations")) == "`annotations` of tool 'a'"
    assert describe_path(("toolsets", "c", "toolsets", 0)) == "item 1 of `toolsets` of toolset 'c'"


def test_unknown_key_is_reported_at_the_key_with_a_suggestion() -> None:
    (d,) = _diagnose("toolc: 1\nmodule: m\ntools:\n  t: {descripton: x}\n")
    assert d == ("TC101", 4, 7, "unknown key 'descripton' in tool 't'; did you mean 'description'?")


def test_unknown_key_in_a_toolset_uses_the_keys_of_its_kind() -> None:
    (d,) = _diagnose("toolc: 1\nmodule: m\ntoolsets:\n  s: {kind: renamed, inner: a, nmes: {}}\n")
    assert d[0] == "TC101" and d[3].endswith("did you mean 'names'?")


def test_missing_key_is_reported_at_the_mapping_that_should_hold_it() -> None:
    (d,) = _diagnose("toolc: 1\nmodule: m\ntoolsets:\n  s: {kind: filtered, inner: a}\n")
    assert d == ("TC102", 4, 3, "toolset 's' has no `predicate`")
    (top,) = _diagnose("# c\ntoolc: 1\n")
    assert top[:3] == ("TC102", 1, 1)


def test_a_misspelt_key_hides_the_missing_key_it_explains() -> None:
    diags = _diagnose("toolc: 1\nmodule: m\ntoolsets:\n  s: {kind: prefixed, inner: a, prefx: p}\n")
    assert [d[0] for d in diags] == ["TC101"]


def test_bad_values_are_reported_at_the_value() -> None:
    (d,) = _diagnose("toolc: 1\nmodule: m\ntools:\n  t: {requires_approval: no}\n")
    assert d == ("TC103", 4, 26, ("`requires_approval` of tool 't': expected true or false, "
                                  "got the string 'no'"))


def test_version_must_be_the_integer_one() -> None:
    for text in ("toolc: true", "toolc: '1'", "toolc: 1.0", "toolc: 2"):
        (d,) = _diagnose(text + "\nmodule: m\n")
        assert d[0] == "TC104" and d[1:3] == (1, 8), text
    assert _diagnose("toolc: 1\nmodule: m\n") == []


def test_unknown_kind_suggests_the_kind_meant() -> None:
    (d,) = _diagnose("toolc: 1\nmodule: m\ntoolsets:\n  s: {kind: combine, toolsets: []}\n")
    assert d == ("TC103", 4, 13, "unknown toolset kind 'combine'; did you mean 'combined'?")


def test_kind_that_is_not_a_string() -> None:
    (d,) = _diagnose("toolc: 1\nmodule: m\ntoolsets:\n  s: {kind: 3}\n")
    assert d[0] == "TC103" and "got the integer 3" in d[3]


def test_wrong_shapes_say_what_was_expected() -> None:
    (d,) = _diagnose("toolc: 1\nmodule: m\ntoolsets: [a]\n")
    assert d[3] == "`toolsets`: expected a mapping of toolset names to toolsets, got a list"
    (d,) = _diagnose("toolc: 1\nmodule: m\ntools:\n  t: text\n")
    assert d[:3] == ("TC103", 4, 6) and "got the string 'text'" in d[3]


def test_suggestions_stop_at_their_budget_and_come_back_with_a_new_analysis() -> None:
    # Each suggestion compares the word with every candidate: 4,000 unknown names among
    # 4,000 took 27 s. Within one analysis they stop at a budget; the errors do not.
    from toolc.model import suggestions as errors

    errors.reset_suggestions()
    many = [f"tool{i}" for i in range(errors.SUGGESTION_BUDGET // 2 + 1)]
    assert did_you_mean("tool1x", many) == "; did you mean 'tool1'?"
    assert did_you_mean("tool2x", many) == ""  # past the budget
    errors.reset_suggestions()
    assert did_you_mean("tool2x", many) == "; did you mean 'tool2'?"
    errors.reset_suggestions()
