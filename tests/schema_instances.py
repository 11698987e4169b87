"""Values a published JSON Schema accepts, as a hypothesis strategy: :func:`json_values`.

Shared by the generator tests (``tests/generate``) and the agreement test
(``tests/test_agreement.py``; its near misses are in ``schema_mistakes.py``).
hypothesis-jsonschema 0.23 does not work with the installed hypothesis (its object
strategy calls an internal API that no longer exists), so this is a small strategy of
our own for the keywords toolc publishes.

Values are what ``json.loads`` gives: dicts with string keys, lists, str, int, finite
float, bool, None.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from hypothesis import strategies as st

Schema = Any  # a JSON Schema: a dict, or True / False
Values = st.SearchStrategy[Any]

ANY_SCALAR: Values = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
ANY_JSON: Values = st.recursive(
    ANY_SCALAR | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=2)
    | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=4)


# -- references ------------------------------------------------------------------------

# The key of ``defs`` that holds the whole document, for references that point anywhere in
# it: toolc rewrites a parameter's `#/$defs/a` to `#/properties/x/$defs/a`.
DOCUMENT = "#"


def document_defs(schema: Schema) -> dict[str, Any]:
    """The ``defs`` of a whole published document: its ``$defs``, and itself."""
    if not isinstance(schema, dict):
        return {}
    return {**(schema.get("$defs") or {}), DOCUMENT: schema}


def resolve_ref(ref: str, defs: dict[str, Any]) -> Schema:
    """The schema a ``$ref`` of the document points at (``#/$defs/Name`` or any pointer)."""
    name = ref.removeprefix("#/$defs/")
    if name != ref and "/" not in name and name in defs:
        return defs[name]
    from toolc.publish.json_documents import lookup

    found, target = lookup(defs.get(DOCUMENT), ref.removeprefix("#"))
    if ref.startswith("#") and found:
        return target
    raise KeyError(f"cannot follow $ref {ref!r}")


# -- values the schema accepts ---------------------------------------------------------

def json_values(schema: Schema, defs: dict[str, Any] | None = None, depth: int = 0
                ) -> Values:
    """Values valid against a published JSON Schema: built for the common keywords, and
    filtered through a validator where a keyword is easier checked than built (``not``,
    ``oneOf``, ``if``, ``contains``, ``dependentRequired``, ...)."""
    if schema is True or schema == {}:
        return ANY_SCALAR
    if not isinstance(schema, dict) or _impossible(schema):
        return st.nothing()
    if defs is None:
        defs = document_defs(schema)
    # Every value is filtered through the validator: what is built is only likely valid
    # (a type-less ``maxLength`` draws any JSON value, a long string among them).
    return _built(schema, defs, depth).filter(lambda v: _matches(schema, v, defs))


def _impossible(schema: Schema) -> bool:
    """A schema no value satisfies (a property that must be left out)."""
    return schema is False or (isinstance(schema, dict) and schema.get("not") in ({}, True))


def _built(schema: dict[str, Any], defs: dict[str, Any], depth: int) -> Values:
    if "$ref" in schema:
        target = resolve_ref(schema["$ref"], defs)
        return st.deferred(lambda: json_values(target, defs, depth + 1))
    rest = {k: v for k, v in schema.items()
            if k not in ("not", "anyOf", "oneOf", "allOf", "$defs")}
    if "allOf" in schema:  # the branches laid over each other, then filtered
        merged = dict(rest)
        for branch in schema["allOf"]:
            merged.update(branch if isinstance(branch, dict) else {})
        return json_values(merged, defs, depth)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([json_values({**rest, **b} if isinstance(b, dict) else b, defs,
                                          depth) for b in schema[key]])
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type", "object" if "properties" in schema else None)
    if isinstance(kind, list):
        return st.one_of([json_values({**rest, "type": k}, defs, depth) for k in kind])
    if kind is None and rest:  # no type, but keywords (a bound) its scalars must meet
        return ANY_SCALAR.filter(lambda v: _matches(rest, v, defs))
    return _by_type(kind, rest, defs, depth)


@functools.lru_cache(maxsize=512)
def _validator(text: str) -> Any:
    """jsonschema-rs, as the runtime (JSON Schema's regexes are ECMA-262's); None for a
    piece of a schema that does not resolve on its own (a pointer into the document)."""
    from jsonschema_rs import Draft202012Validator, ValidationError

    try:
        return Draft202012Validator(text, offline=True)
    except ValidationError:
        return None


def _matches(schema: Schema, value: Any, defs: dict[str, Any]) -> bool:
    """Whether ``value`` is valid; a piece that only resolves inside its document is left
    to the filter of the whole input schema (which always resolves)."""
    if isinstance(schema, dict) and defs and "$defs" not in schema:
        schema = {**schema, "$defs": {k: v for k, v in defs.items() if k != DOCUMENT}}
    validator = _validator(json.dumps(schema, sort_keys=True))
    return validator is None or bool(validator.is_valid(value))


def _by_type(kind: Any, schema: dict[str, Any], defs: dict[str, Any], depth: int) -> Values:
    if kind == "string":
        if "pattern" in schema:
            low, high = schema.get("minLength", 0), schema.get("maxLength", 50)
            return _ecma_regex(schema["pattern"]).filter(lambda s: low <= len(s) <= high)
        return st.text(min_size=schema.get("minLength", 0),
                       max_size=schema.get("maxLength", 12))
    if kind in ("integer", "number"):
        return _numbers(kind, schema)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return _arrays(schema, defs, depth)
    if kind == "object":
        return _objects(schema, defs, depth)
    return ANY_SCALAR


def _arrays(schema: dict[str, Any], defs: dict[str, Any], depth: int) -> Values:
    items = schema.get("items", {})
    prefix = [json_values(p, defs, depth + 1) for p in schema.get("prefixItems", [])]
    low = schema.get("minItems", 0)
    high = max(low, min(schema.get("maxItems", 3), 3 if depth < 2 else 0))  # recursion ends
    if _impossible(items):  # nothing after the prefix
        high = len(prefix)
    rest = st.lists(json_values(items, defs, depth + 1), min_size=max(low - len(prefix), 0),
                    max_size=max(high - len(prefix), 0),
                    unique=bool(schema.get("uniqueItems")))
    if not prefix:
        return rest
    return st.builds(lambda head, tail: [*head, *tail], st.tuples(*prefix), rest)
def _numbers(kind: str, schema: dict[str, Any]) -> Values:
    low = schema.get("minimum", schema.get("exclusiveMinimum", -1000))
    high = schema.get("maximum", schema.get("exclusiveMaximum", 1000))
    step = schema.get("multipleOf", 1)
    values = st.integers(int(low // step) - 1, int(high // step) + 1).map(lambda n: n * step)
    # JSON Schema's integers are numbers without a fraction: 5.0 is one too.
    values = values | values.map(float)
    if kind == "number" and "multipleOf" not in schema:
        values = st.floats(low, high, allow_nan=False) | values
    if kind == "integer":  # a fine multipleOf (1e-8) makes fractions: not integers
        values = values.filter(lambda v: float(v).is_integer())
    return values.filter(lambda v: _within(v, schema))


def _within(value: float, schema: dict[str, Any]) -> bool:
    return bool(value >= schema.get("minimum", value) and value <= schema.get("maximum", value)
                and value > schema.get("exclusiveMinimum", value - 1)
                and value < schema.get("exclusiveMaximum", value + 1))


def _objects(schema: dict[str, Any], defs: dict[str, Any], depth: int
             ) -> st.SearchStrategy[dict[str, Any]]:
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    extra = schema.get("additionalProperties", True)
    names = schema.get("propertyNames", {})
    keys = (_ecma_regex(str(names["pattern"])) if isinstance(names, dict) and "pattern" in names
            else st.text(min_size=1, max_size=4)).filter(lambda k: k not in props)
    if isinstance(extra, dict) and not props:
        return st.dictionaries(keys, json_values(extra, defs, depth + 1),
                               min_size=schema.get("minProperties", 0),
                               max_size=schema.get("maxProperties", 3))
    fixed = st.fixed_dictionaries(
        {k: json_values(v, defs, depth + 1) for k, v in props.items() if k in required},
        optional={k: json_values(v, defs, depth + 1) for k, v in props.items()
                  if k not in required and depth < 3 and not _impossible(v)})
    others: list[Values] = []
    for pattern, sub in (schema.get("patternProperties") or {}).items():
        others.append(st.dictionaries(_ecma_regex(str(pattern)).filter(lambda k: k not in props),
                                      json_values(sub, defs, depth + 1), max_size=2))
    if extra is not False and "maxProperties" not in schema:
        # an open object: undeclared keys with values its additionalProperties allows
        values = ANY_SCALAR if extra is True else json_values(extra, defs, depth + 1)
        others.append(st.dictionaries(keys, values, max_size=2))
    if not others:
        return fixed
    return st.builds(lambda a, *b: {k: v for d in (*b, a) for k, v in d.items()}, fixed,
                     *others)


def _ecma_regex(pattern: str) -> st.SearchStrategy[str]:
    """Strings matching ``pattern`` as JSON Schema reads it (ECMA-262): hypothesis reads
    it as Python does, where ``$`` also matches before a final newline."""
    return st.from_regex(pattern).filter(lambda s: not s.endswith("\n"))
