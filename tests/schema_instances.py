"""JSON values for published JSON Schemas: values a schema accepts, and near misses.

Shared by the generator tests (``tests/generate``) and the agreement test
(``tests/test_agreement.py``). hypothesis-jsonschema 0.23 does not work with the
installed hypothesis (its object strategy calls an internal API that no longer exists),
so this is a small strategy of our own for the keywords toolc publishes.

* :func:`json_values` draws values the schema accepts (for the keywords the specs use;
  callers that must be sure check them with a JSON Schema validator);
* :func:`near_misses` draws such a value and then breaks it in one place the way a model
  gets arguments wrong: a wrong type, a missing required property, an extra property, a
  number on or past a bound, a string one character too long or short, an enum outsider,
  ``null``, a wrong array item, a duplicate item, a pattern breaker, "5" for 5, 5.0 for 5,
  ``true`` for 1, at any depth. Some near misses are still valid: callers compare
  verdicts, they do not assume one.

Values are what ``json.loads`` gives: dicts with string keys, lists, str, int, finite
float, bool, None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
# What models most often send instead of the right thing.
ODD_VALUES: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 5.0, 1.5, -0.5, 10**20, "", "5", "1.5", "true", "null", "x",
    [], [1], ["a"], {}, {"a": 1})


# -- values the schema accepts ---------------------------------------------------------

def json_values(schema: Schema, defs: dict[str, Any] | None = None, depth: int = 0
                ) -> Values:
    """Values valid against a published JSON Schema, for the keywords toolc publishes."""
    if schema is True or schema == {}:
        return ANY_SCALAR
    defs = schema.get("$defs", defs or {})
    if "$ref" in schema:
        target = defs[schema["$ref"].rsplit("/", 1)[1]]
        return st.deferred(lambda: json_values(target, defs, depth + 1))
    if "not" in schema:
        rest = {k: v for k, v in schema.items() if k != "not"}
        return json_values(rest or True, defs, depth).filter(
            lambda v: not _matches(schema["not"], v, defs))
    if "anyOf" in schema:
        return st.one_of([json_values(b, defs, depth) for b in schema["anyOf"]])
    if "oneOf" in schema:
        branches = schema["oneOf"]
        return st.one_of([json_values(b, defs, depth) for b in branches]).filter(
            lambda v: sum(_matches(b, v, defs) for b in branches) == 1)
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type", "object" if "properties" in schema else None)
    if isinstance(kind, list):
        return st.one_of([json_values({**schema, "type": k}, defs, depth) for k in kind])
    return _by_type(kind, schema, defs, depth)


def _matches(schema: Schema, value: Any, defs: dict[str, Any]) -> bool:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    if isinstance(schema, dict) and defs and "$defs" not in schema:
        schema = {**schema, "$defs": defs}
    return bool(Draft202012Validator(schema).is_valid(value))


def _by_type(kind: Any, schema: dict[str, Any], defs: dict[str, Any], depth: int) -> Values:
    if kind == "string":
        if "pattern" in schema:
            low, high = schema.get("minLength", 0), schema.get("maxLength", 50)
            return st.from_regex(schema["pattern"]).filter(lambda s: low <= len(s) <= high)
        return st.text(min_size=schema.get("minLength", 0),
                       max_size=schema.get("maxLength", 12))
    if kind in ("integer", "number"):
        return _numbers(kind, schema)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        items = json_values(schema.get("items", {}), defs, depth + 1)
        return st.lists(items, min_size=schema.get("minItems", 0),
                        max_size=schema.get("maxItems", 3 if depth < 2 else 0),
                        unique=bool(schema.get("uniqueItems")))
    if kind == "object":
        return _objects(schema, defs, depth)
    return ANY_SCALAR


def _numbers(kind: str, schema: dict[str, Any]) -> Values:
    low = schema.get("minimum", schema.get("exclusiveMinimum", -1000))
    high = schema.get("maximum", schema.get("exclusiveMaximum", 1000))
    step = schema.get("multipleOf", 1)
    values = st.integers(int(low // step) - 1, int(high // step) + 1).map(lambda n: n * step)
    # JSON Schema's integers are numbers without a fraction: 5.0 is one too.
    values = values | values.map(float)
    if kind == "number" and "multipleOf" not in schema:
        values = st.floats(low, high, allow_nan=False) | values
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
    if isinstance(extra, dict) and not props:
        return st.dictionaries(st.text(min_size=1, max_size=4), json_values(extra, defs, depth),
                               max_size=schema.get("maxProperties", 3))
    fixed = st.fixed_dictionaries(
        {k: json_values(v, defs, depth + 1) for k, v in props.items() if k in required},
        optional={k: json_values(v, defs, depth + 1) for k, v in props.items()
                  if k not in required and depth < 3})
    if extra is False or "maxProperties" in schema:
        return fixed
    # An open object: undeclared keys with values its additionalProperties allows.
    values = ANY_SCALAR if extra is True else json_values(extra, defs, depth + 1)
    others = st.dictionaries(st.text(min_size=1, max_size=4).filter(lambda k: k not in props),
                             values, max_size=2)
    return st.builds(lambda a, b: {**b, **a}, fixed, others)


# -- near misses -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Where:
    defs: dict[str, Any]
    names: tuple[str, ...]   # extra property names worth trying (e.g. Python field names)

    def resolve(self, schema: Schema) -> Schema:
        for _ in range(20):
            if not (isinstance(schema, dict) and "$ref" in schema):
                break
            schema = self.defs[schema["$ref"].rsplit("/", 1)[1]]
        return schema


def near_misses(schema: dict[str, Any], names: Sequence[str] = ()
                ) -> st.SearchStrategy[dict[str, Any]]:
    """Objects that a valid input of ``schema`` became after one mistake, at any depth.

    ``names`` are property names worth adding as an extra property (for example the
    Python names of aliased fields, which a model could take for the alias).
    """
    where = _Where(schema.get("$defs", {}), tuple(names))
    return json_values(schema).flatmap(lambda value: _mutated(schema, value, where, 0,
                                                              root=True))


def _mutated(schema: Schema, value: Any, where: _Where, depth: int, *,
             root: bool = False) -> Values:
    """``value`` broken once, here or below (an input object stays an object)."""
    schema = where.resolve(schema)
    options: list[Values] = [] if root else [st.sampled_from(_replacements(schema, value))]
    if isinstance(value, dict):
        options += _object_mistakes(schema, value, where, depth)
    elif isinstance(value, list):
        options += _array_mistakes(schema, value, where, depth)
    if isinstance(schema, dict) and depth < 6:
        for key in ("anyOf", "oneOf", "allOf"):
            branches = schema.get(key)
            if isinstance(branches, list) and branches:
                options.append(st.sampled_from(branches).flatmap(
                    lambda b: _mutated(b, value, where, depth + 1, root=root)))
    return st.one_of(options) if options else st.just(value)


def _object_mistakes(schema: Schema, value: dict[str, Any], where: _Where, depth: int
                     ) -> list[Values]:
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    extra = schema.get("additionalProperties", True) if isinstance(schema, dict) else True
    options: list[Values] = []
    if value and depth < 6:
        def below(key: str) -> Values:
            sub = props.get(key, extra if isinstance(extra, dict) else True)
            return _mutated(sub, value[key], where, depth + 1).map(
                lambda v: {**value, key: v})
        options.append(st.sampled_from(sorted(value)).flatmap(below))
        options.append(st.sampled_from(sorted(value)).map(
            lambda k: {n: v for n, v in value.items() if n != k}))
    candidates = sorted({*where.names, *(n + "_" for n in props), *(n.upper() for n in props),
                         *(n.replace("-", "_") for n in props), "extra", "_"})
    options.append(st.builds(lambda k, v: {**value, k: v},
                             st.sampled_from(candidates) | st.text(max_size=4),
                             st.sampled_from(ODD_VALUES) | ANY_JSON))
    return options


def _array_mistakes(schema: Schema, value: list[Any], where: _Where, depth: int
                    ) -> list[Values]:
    items = schema.get("items", True) if isinstance(schema, dict) else True
    options: list[Values] = [
        st.sampled_from(ODD_VALUES).map(lambda v: [*value, v]),
        json_values(items, where.defs, depth + 2).map(lambda v: [*value, v]),
    ]
    if value:
        first = value[0]
        twins = [first]  # a duplicate, and values equal in Python but not in JSON
        if isinstance(first, bool):
            twins += [int(first), float(first)]
        elif isinstance(first, int | float):
            twins += [float(first), int(first)] + ([bool(first)] if first in (0, 1) else [])
        options.append(st.sampled_from(twins).map(lambda v: [*value, v]))
        options.append(st.integers(0, len(value) - 1).map(lambda i: value[:i]))
        if depth < 6:
            options.append(st.integers(0, len(value) - 1).flatmap(
                lambda i: _mutated(items, value[i], where, depth + 1).map(
                    lambda v: [*value[:i], v, *value[i + 1:]])))
    return options


def _replacements(schema: Schema, value: Any) -> list[Any]:
    """Values to put in the place of ``value``: odd ones, and the ones next to a bound."""
    out = list(ODD_VALUES)
    out += [[value], {"value": value}]
    out += _near_number(value)
    out += _near_string(value)
    if not isinstance(schema, dict):
        return out
    for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
        bound = schema.get(key)
        if isinstance(bound, int | float) and not isinstance(bound, bool):
            out += [bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5, float(bound),
                    bound * 3, float(bound * 3), -bound]
    for key, delta in (("minLength", -1), ("minLength", 0), ("maxLength", 0),
                       ("maxLength", 1)):
        if isinstance(schema.get(key), int):
            size = max(schema[key] + delta, 0)
            out += ["a" * size, "\U0001f600" * size]
    for outsider in [*schema.get("enum", []), *([schema["const"]] if "const" in schema else [])]:
        out += _near_number(outsider) + _near_string(outsider) + [None]
    return out


def _near_number(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [int(value), float(value), str(value).lower(), not value]
    if isinstance(value, int | float):
        out = [str(value), float(value), value + 1, value + 0.5, -value]
        if value == int(value):
            out.append(int(value))
        if value in (0, 1):
            out.append(bool(value))
        return out
    return []


def _near_string(value: Any) -> list[Any]:
    if not isinstance(value, str):
        return []
    return [value + "a", value[1:], value[:-1], "!" + value, value + "\n", value.upper(),
            value + " ", " " + value]
