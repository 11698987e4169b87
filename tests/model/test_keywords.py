"""The keyword catalogue says what the 2020-12 meta-schema says, keyword by keyword.

toolc checks schemas with its own one-pass rules instead of running the meta-schema on
every schema (milliseconds each). These tests hold the two to agreement: on generated
schemas, toolc reports an invalid-schema error exactly when
``Draft202012Validator.check_schema`` would refuse the schema.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from jsonschema import Draft202012Validator
from toolc.diagnostics import DiagnosticBag
from toolc.frontend import analyse
from toolc.loader import load_text
from toolc.model.keywords import JSON_TYPES, KEYWORDS, non_json_problem, plain_type_problem

META = Draft202012Validator(Draft202012Validator.META_SCHEMA,
                            format_checker=Draft202012Validator.FORMAT_CHECKER)

_junk = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(-3, 3),
                  st.sampled_from(["", "x", "[", "a(b", "#frag", "a#b#", "_ok", "9bad", "string",
                                   "integer", "uri:x"]))
_values = st.one_of(_junk, st.lists(_junk, max_size=3), st.dictionaries(
    st.sampled_from(["a", "b", "https://x"]), _junk, max_size=2))


def _schemas(depth: int) -> st.SearchStrategy[Any]:
    if depth == 0:
        return st.one_of(st.booleans(), st.just({}), _junk)
    sub = _schemas(depth - 1)
    entry = st.sampled_from(sorted(KEYWORDS)).flatmap(lambda kw: st.tuples(
        st.just(kw), _keyword_value(kw, sub)))
    return st.one_of(st.booleans(), st.lists(entry, max_size=4).map(dict))


def _keyword_value(kw: str, sub: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    kind = KEYWORDS[kw].kind
    if kind == "schema":
        return st.one_of(sub, _junk)
    if kind == "schema_list":
        return st.one_of(st.lists(sub, max_size=3), _junk)
    if kind in ("schema_map", "dependencies"):
        return st.one_of(st.dictionaries(st.sampled_from(["a", "b", "[", "c+"]),
                                         st.one_of(sub, st.lists(_junk, max_size=2)),
                                         max_size=2), _junk)
    if kw == "type":
        return st.one_of(st.sampled_from(JSON_TYPES), st.lists(st.sampled_from(
            [*JSON_TYPES, "Named"]), max_size=3), _junk)
    return _values


def _toolc_rejects(schema: Any) -> bool:
    """Whether toolc reports TC202 for ``schema`` as an external tool's property."""
    spec = {"toolc": 1, "module": "m", "toolsets": {"e": {"kind": "external", "tools": {"t": {
        "description": "T.", "input_schema": {"type": "object", "properties": {"p": schema}}}}}}}
    bag = DiagnosticBag()
    analyse([load_text(json.dumps(spec), "m.toolc.yaml")], bag)
    return any(d.code == "TC202" for d in bag)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_schemas(3))
def test_toolc_agrees_with_the_meta_schema(schema: Any) -> None:
    assert _toolc_rejects(schema) == (not META.is_valid(schema)), json.dumps(schema)


def test_known_keywords_are_exactly_the_meta_schemas() -> None:
    meta_props: set[str] = set(Draft202012Validator.META_SCHEMA["properties"])
    registry = Draft202012Validator.META_SCHEMA
    del registry
    from jsonschema_specifications import REGISTRY

    for vocab in ("core", "applicator", "unevaluated", "validation", "meta-data",
                  "format-annotation", "content"):
        url = f"https://json-schema.org/draft/2020-12/meta/{vocab}"
        meta_props |= set(REGISTRY.contents(url)["properties"])
    assert set(KEYWORDS) == meta_props


def test_type_keyword_rules() -> None:
    assert plain_type_problem("type", "string") is None
    assert plain_type_problem("type", ["string", "null"]) is None
    assert plain_type_problem("type", []) is not None
    assert plain_type_problem("type", ["string", "string"]) is not None
    assert plain_type_problem("type", "text") is not None


def test_non_json_numbers_are_found_at_any_depth() -> None:
    assert non_json_problem([1, {"a": float("inf")}]) is not None
    assert non_json_problem({"a": [1.5, "x", None]}) is None
