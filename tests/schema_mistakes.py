"""Near misses of a published JSON Schema: valid arguments after one mistake.

The mistakes are the ways a model gets arguments wrong: a wrong type, ``null``, "5" for
5, 5.0 for 5, ``true`` for 1, a missing required property, an extra property (also one
named like a Python field behind an alias), a number on or past a bound, a string one
character too long or too short, an enum outsider, a pattern breaker, a wrong, extra or
duplicate array item, at any depth. Some near misses are still valid: callers compare
verdicts, they do not assume one.

* :func:`near_misses`: a hypothesis strategy, one random mistake in a drawn valid value;
* :func:`single_mistakes`: every mistake of the fixed lists, in every place of a given
  valid value (the systematic counterpart, where chance would miss a rare place).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from schema_instances import ANY_JSON, Schema, Values, document_defs, json_values, resolve_ref

# What models most often send instead of the right thing.
ODD_VALUES: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 5.0, 1.5, -0.5, 10**20, "", "5", "1.5", "true", "null", "x",
    [], [1], ["a"], {}, {"a": 1})
EXTRA_VALUES: tuple[Any, ...] = (None, 1, "x", {})  # for an extra property
MAX_DEPTH = 6


@dataclass(frozen=True, slots=True)
class _Where:
    defs: dict[str, Any]
    names: tuple[str, ...]   # extra property names worth trying (e.g. Python field names)

    def resolve(self, schema: Schema) -> Schema:
        for _ in range(20):
            if not (isinstance(schema, dict) and "$ref" in schema):
                break
            schema = resolve_ref(schema["$ref"], self.defs)
        return schema


def _where(schema: dict[str, Any], names: Sequence[str]) -> _Where:
    return _Where(document_defs(schema), tuple(names))


# -- the pieces ------------------------------------------------------------------------

def _property_schema(schema: Schema, key: str) -> Schema:
    """The schema a property's value answers to: its own, a matching pattern's, or the
    additional properties'."""
    if not isinstance(schema, dict):
        return True
    props = schema.get("properties") or {}
    if key in props:
        return props[key]
    for pattern, sub in (schema.get("patternProperties") or {}).items():
        if re.search(pattern, key):
            return sub
    extra = schema.get("additionalProperties", True)
    return extra if isinstance(extra, dict) else True


def _item_schema(schema: Schema, index: int) -> Schema:
    if not isinstance(schema, dict):
        return True
    prefix = schema.get("prefixItems") or []
    return prefix[index] if index < len(prefix) else schema.get("items", True)


def _extra_names(schema: Schema, where: _Where) -> list[str]:
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    return sorted({*where.names, *(n + "_" for n in props), *(n.upper() for n in props),
                   *(n.replace("-", "_") for n in props), "extra", "_"})


def _twins(first: Any) -> list[Any]:
    """A duplicate of ``first``, and values equal to it in Python but not in JSON."""
    twins = [first]
    if isinstance(first, bool):
        twins += [int(first), float(first)]
    elif isinstance(first, int | float):
        twins += [float(first), int(first)] + ([bool(first)] if first in (0, 1) else [])
    return twins


def _branches(schema: Schema) -> list[Schema]:
    if not isinstance(schema, dict):
        return []
    return [b for key in ("anyOf", "oneOf", "allOf") for b in schema.get(key) or []]


def _near_values(schema: Schema, value: Any) -> list[Any]:
    """Values to put in the place of ``value`` that are near it, or near a bound or an
    allowed value of its schema."""
    out: list[Any] = [[value], {"value": value}, *_near_number(value), *_near_string(value)]
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
        out += [*_near_number(outsider), *_near_string(outsider), None]
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


# -- one random mistake ----------------------------------------------------------------

def near_misses(schema: dict[str, Any], names: Sequence[str] = ()
                ) -> st.SearchStrategy[dict[str, Any]]:
    """Input objects of ``schema`` after one random mistake, at any depth. ``names`` are
    property names worth adding as an extra property (such as the Python names of
    aliased fields, which a model could take for the alias)."""
    where = _where(schema, names)
    return json_values(schema).flatmap(lambda value: _mutated(schema, value, where, 0,
                                                              root=True))


def _mutated(schema: Schema, value: Any, where: _Where, depth: int, *,
             root: bool = False) -> Values:
    """``value`` broken once, here or below (an input object stays an object)."""
    schema = where.resolve(schema)
    options: list[Values] = [] if root else [
        st.sampled_from(ODD_VALUES),  # as likely as all the near values together
        st.sampled_from(_near_values(schema, value))]
    if isinstance(value, dict):
        options += _object_mistakes(schema, value, where, depth)
    elif isinstance(value, list):
        options += _array_mistakes(schema, value, where, depth)
    branches = _branches(schema)
    if branches and depth < MAX_DEPTH:
        options.append(st.sampled_from(branches).flatmap(
            lambda b: _mutated(b, value, where, depth + 1, root=root)))
    return st.one_of(options) if options else st.just(value)


def _object_mistakes(schema: Schema, value: dict[str, Any], where: _Where, depth: int
                     ) -> list[Values]:
    options: list[Values] = []
    if value and depth < MAX_DEPTH:
        def below(key: str) -> Values:
            return _mutated(_property_schema(schema, key), value[key], where, depth + 1).map(
                lambda v: {**value, key: v})
        options.append(st.sampled_from(sorted(value)).flatmap(below))
        options.append(st.sampled_from(sorted(value)).map(
            lambda k: {n: v for n, v in value.items() if n != k}))
    options.append(st.builds(lambda k, v: {**value, k: v},
                             st.sampled_from(_extra_names(schema, where)) | st.text(max_size=4),
                             st.sampled_from(ODD_VALUES) | ANY_JSON))
    return options


def _array_mistakes(schema: Schema, value: list[Any], where: _Where, depth: int
                    ) -> list[Values]:
    options: list[Values] = [
        st.sampled_from(ODD_VALUES).map(lambda v: [*value, v]),
        json_values(_item_schema(schema, len(value)), where.defs, depth + 2).map(
            lambda v: [*value, v]),
    ]
    if value:
        options.append(st.sampled_from(_twins(value[0])).map(lambda v: [*value, v]))
        options.append(st.integers(0, len(value) - 1).map(lambda i: value[:i]))
        if depth < MAX_DEPTH:
            options.append(st.integers(0, len(value) - 1).flatmap(
                lambda i: _mutated(_item_schema(schema, i), value[i], where, depth + 1).map(
                    lambda v: [*value[:i], v, *value[i + 1:]])))
    return options


# -- every mistake ---------------------------------------------------------------------

def single_mistakes(schema: dict[str, Any], value: dict[str, Any], names: Sequence[str] = ()
                    ) -> list[Any]:
    """Every near miss of ``value`` (valid for ``schema``) with one mistake from the fixed
    lists, in every place, without repeats."""
    seen: dict[str, Any] = {}
    for instance in _mistakes_at(schema, value, _where(schema, names), 0, replace=False):
        seen.setdefault(json.dumps(instance, sort_keys=True), instance)
    return list(seen.values())


def _mistakes_at(schema: Schema, value: Any, where: _Where, depth: int, *,
                 replace: bool = True) -> Iterator[Any]:
    schema = where.resolve(schema)
    if replace:
        yield from ODD_VALUES
        yield from _near_values(schema, value)
    if depth >= MAX_DEPTH:
        return
    if isinstance(value, dict):
        for key in value:
            yield {k: v for k, v in value.items() if k != key}
            for wrong in _mistakes_at(_property_schema(schema, key), value[key], where,
                                      depth + 1):
                yield {**value, key: wrong}
        for name in _extra_names(schema, where):
            yield from ({**value, name: v} for v in EXTRA_VALUES)
    elif isinstance(value, list):
        yield from ([*value, v] for v in ODD_VALUES)
        if value:
            yield from ([*value, v] for v in _twins(value[0]))
            yield from (value[:i] for i in range(len(value)))
        for i, item in enumerate(value):
            for wrong in _mistakes_at(_item_schema(schema, i), item, where, depth + 1):
                yield [*value[:i], wrong, *value[i + 1:]]
    for branch in _branches(schema):  # bounds and enums of each branch, without repeats
        yield from _mistakes_at(branch, value, where, depth + 1)
