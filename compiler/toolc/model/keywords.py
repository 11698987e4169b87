"""The JSON Schema 2020-12 vocabulary, keyword by keyword, as toolc checks it.

Every keyword of the 2020-12 meta-schemas (core, applicator, unevaluated, validation,
meta-data, format-annotation, content, and the older names the meta-schema still
defines) with what its value must be. The checks apply these rules node by node; they
say exactly what ``Draft202012Validator.check_schema`` would say, in one linear pass
(the meta-schema itself costs milliseconds per schema, which 10,000 tools cannot pay;
``tests/model/test_keywords.py`` holds the two to agreement on generated schemas).
Patterns are the exception: they are compiled by jsonschema-rs, the runtime's engine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .suggestions import describe_value

JSON_TYPES: tuple[str, ...] = ("array", "boolean", "integer", "null", "number", "object",
                               "string")

Check = Callable[[str, Any], "str | None"]


@dataclass(frozen=True, slots=True)
class Keyword:
    """One keyword: where subschemas sit (``kind``) or how its value is checked."""

    name: str
    kind: str            # "value", "schema", "schema_map", "schema_list" or "dependencies"
    check: Check | None  # for "value": returns what is wrong, or None
    editor: dict[str, Any]  # JSON Schema of the value, for editors


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_nonneg_int(v: Any) -> bool:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return (isinstance(v, int) or (math.isfinite(v) and v.is_integer())) and v >= 0


def _string(kw: str, v: Any) -> str | None:
    return None if isinstance(v, str) else f"`{kw}` must be a string, got {describe_value(v)}"


def _number(kw: str, v: Any) -> str | None:
    return None if _is_number(v) else f"`{kw}` must be a number, got {describe_value(v)}"


def _positive(kw: str, v: Any) -> str | None:
    if _is_number(v) and v > 0:
        return None
    return f"`{kw}` must be a number greater than 0, got {describe_value(v)}"


def _count(kw: str, v: Any) -> str | None:
    if _is_nonneg_int(v):
        return None
    return f"`{kw}` must be a non-negative integer, got {describe_value(v)}"


def _boolean(kw: str, v: Any) -> str | None:
    return None if isinstance(v, bool) else f"`{kw}` must be true or false, got {describe_value(v)}"


def _array(kw: str, v: Any) -> str | None:
    return None if isinstance(v, list) else f"`{kw}` must be a list, got {describe_value(v)}"


def _anything(kw: str, v: Any) -> str | None:
    return None


def string_array_problem(kw: str, v: Any) -> str | None:
    if not isinstance(v, list):
        return f"`{kw}` must be a list of strings, got {describe_value(v)}"
    for item in v:
        if not isinstance(item, str):
            return f"`{kw}` must hold only strings, not {describe_value(item)}"
    if len(set(v)) != len(v):
        dup = next(x for i, x in enumerate(v) if x in v[:i])
        return f"`{kw}` names '{dup}' twice; its items must be unique"
    return None


_ANCHOR = re.compile(r"^[A-Za-z_][-A-Za-z0-9._]*$")
_ID = re.compile(r"^[^#]*#?$")


def _anchor(kw: str, v: Any) -> str | None:
    if isinstance(v, str) and _ANCHOR.search(v):
        return None
    return f"`{kw}` must be a name matching {_ANCHOR.pattern}, got {describe_value(v)}"


def _id(kw: str, v: Any) -> str | None:
    if isinstance(v, str) and _ID.search(v):
        return None
    return f"`{kw}` must be a URI reference without a fragment, got {describe_value(v)}"


def regex_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a regular expression in JSON Schema's dialect (ECMA-262, as
    the validator of record, jsonschema-rs, reads it)."""
    # lazy: loads jsonschema_rs
    from .engine import regex_problem as engine_regex_problem

    return engine_regex_problem(pattern)


def _regex(kw: str, v: Any) -> str | None:
    if not isinstance(v, str):
        return f"`{kw}` must be a string, got {describe_value(v)}"
    problem = regex_problem(v)
    return None if problem is None else f"`{kw}` is not a valid regular expression: {problem}"


def plain_type_problem(kw: str, v: Any) -> str | None:
    """``type`` as JSON Schema knows it: one JSON type, or a non-empty list of distinct ones."""
    if isinstance(v, str):
        return None if v in JSON_TYPES else f"`type` must be a JSON type, got '{v}'"
    if isinstance(v, list) and v:
        for item in v:
            if not isinstance(item, str) or item not in JSON_TYPES:
                return (f"a `type` list may hold only JSON types ({', '.join(JSON_TYPES)}), "
                        f"not {describe_value(item)}")
        if len(set(v)) != len(v):
            return "a `type` list must not name a type twice"
        return None
    return f"`type` must be a JSON type or a non-empty list of them, got {describe_value(v)}"


def _vocabulary(kw: str, v: Any) -> str | None:
    if not isinstance(v, dict) or not all(isinstance(x, bool) for x in v.values()):
        return f"`{kw}` must be a mapping of URIs to true or false"
    return None


def _dependent_required(kw: str, v: Any) -> str | None:
    if not isinstance(v, dict):
        return f"`{kw}` must be a mapping of property names to lists, got {describe_value(v)}"
    for name, names in v.items():
        problem = string_array_problem(f"{kw}.{name}", names)
        if problem:
            return problem
    return None


_SCHEMA_REF = {"$ref": "#/$defs/Schema"}


def _value(name: str, check: Check, editor: dict[str, Any]) -> Keyword:
    return Keyword(name, "value", check, editor)


def _sub(name: str, kind: str = "schema") -> Keyword:
    editor: dict[str, Any]
    if kind == "schema":
        editor = _SCHEMA_REF
    elif kind == "schema_list":
        editor = {"type": "array", "minItems": 1, "items": _SCHEMA_REF}
    else:
        editor = {"type": "object", "additionalProperties": _SCHEMA_REF}
    return Keyword(name, kind, None, editor)


_S, _N, _I, _B = {"type": "string"}, {"type": "number"}, {"type": "integer", "minimum": 0}, \
    {"type": "boolean"}

KEYWORDS: dict[str, Keyword] = {k.name: k for k in (
    # core
    _value("$id", _id, _S), _value("$schema", _string, _S), _value("$ref", _string, _S),
    _value("$anchor", _anchor, _S), _value("$dynamicRef", _string, _S),
    _value("$dynamicAnchor", _anchor, _S), _value("$vocabulary", _vocabulary, {"type": "object"}),
    _value("$comment", _string, _S), _sub("$defs", "schema_map"),
    # applicator
    _sub("prefixItems", "schema_list"), _sub("items"), _sub("contains"),
    _sub("additionalProperties"), _sub("properties", "schema_map"),
    _sub("patternProperties", "schema_map"), _sub("dependentSchemas", "schema_map"),
    _sub("propertyNames"), _sub("if"), _sub("then"), _sub("else"),
    _sub("allOf", "schema_list"), _sub("anyOf", "schema_list"), _sub("oneOf", "schema_list"),
    _sub("not"),
    # unevaluated
    _sub("unevaluatedItems"), _sub("unevaluatedProperties"),
    # validation
    _value("type", plain_type_problem, {}), _value("const", _anything, {}),
    _value("enum", _array, {"type": "array"}), _value("multipleOf", _positive, _N),
    _value("maximum", _number, _N), _value("exclusiveMaximum", _number, _N),
    _value("minimum", _number, _N), _value("exclusiveMinimum", _number, _N),
    _value("maxLength", _count, _I), _value("minLength", _count, _I),
    _value("pattern", _regex, _S), _value("maxItems", _count, _I),
    _value("minItems", _count, _I), _value("uniqueItems", _boolean, _B),
    _value("maxContains", _count, _I), _value("minContains", _count, _I),
    _value("maxProperties", _count, _I), _value("minProperties", _count, _I),
    _value("required", string_array_problem, {"type": "array", "items": _S}),
    _value("dependentRequired", _dependent_required, {"type": "object"}),
    # meta-data
    _value("title", _string, _S), _value("description", _string, _S),
    _value("default", _anything, {}), _value("deprecated", _boolean, _B),
    _value("readOnly", _boolean, _B), _value("writeOnly", _boolean, _B),
    _value("examples", _array, {"type": "array"}),
    # format-annotation and content
    _value("format", _string, _S), _value("contentEncoding", _string, _S),
    _value("contentMediaType", _string, _S), _sub("contentSchema"),
    # older names the 2020-12 meta-schema still defines
    _sub("definitions", "schema_map"), Keyword("dependencies", "dependencies", None,
                                               {"type": "object"}),
    _value("$recursiveAnchor", _anchor, _S), _value("$recursiveRef", _string, _S),
)}

# toolc's additions to the vocabulary (only in toolc's own schemas, not in raw ones).
TOOLC_KEYWORDS: tuple[str, ...] = ("nullable",)

# Annotation keywords: they stay beside `anyOf` when `nullable` wraps a schema.
ANNOTATIONS: tuple[str, ...] = ("title", "description", "default", "examples", "deprecated",
                                "readOnly", "writeOnly", "$comment")


def non_json_problem(value: Any) -> str | None:
    """JSON has no NaN or infinity: a value holding one cannot be published."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return f"{v} is not a JSON number (JSON has no NaN or infinity)"
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return None
