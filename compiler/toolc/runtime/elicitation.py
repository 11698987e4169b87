"""What a form may ask the user (MCP elicitation), and the user's answer checked against it.

MCP (2025-11-25, and 2026-07-28 alike) allows a flat object whose properties are
primitives: a string (``minLength``, ``maxLength``, ``format`` email, uri, date or
date-time), a number or integer (``minimum``, ``maximum``), a boolean, a single choice
(``enum``; ``oneOf`` of ``{const, title}``; the older ``enum`` with ``enumNames``) or a
multiple choice (an array whose ``items`` are an ``enum`` or an ``anyOf`` of ``{const,
title}``), each with ``title``, ``description`` and a ``default`` of its own type.
``required`` names some of them. Anything else is refused before the question is sent,
with the path of what is wrong: a client would show a broken form, or none.

An accepted answer is checked against the same schema (the validator of record,
``toolc.runtime.validation``): a client may send anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toolc.runtime.failures import ToolError
from toolc.runtime.validation import Validator

_COMMON = frozenset({"type", "title", "description", "default"})
_FORMATS = ("email", "uri", "date", "date-time")
# The keys each kind of property may have, beside title, description and default.
_STRING_KEYS = _COMMON | {"minLength", "maxLength", "format"}
_NUMBER_KEYS = _COMMON | {"minimum", "maximum"}
_CHOICE_KEYS = {
    "enum": _COMMON | {"enum"},
    "oneOf": _COMMON | {"oneOf"},
    "enumNames": _COMMON | {"enum", "enumNames"},
}
_MULTI_KEYS = _COMMON | {"items", "minItems", "maxItems"}


class InvalidAnswer(ToolError):
    """The client accepted a form with content that does not fit it: the message says
    what (a `ToolError`, so that the model reads it as the call's result)."""


def schema_problems(schema: Any) -> list[str]:
    """Why ``schema`` is not a form MCP elicitation allows (empty: it is one)."""
    if not isinstance(schema, Mapping):
        return ["the schema must be an object schema (a mapping)"]
    problems = [f"key {k!r} is not allowed at the top (type, properties, required, "
                "$schema are)" for k in schema if k not in ("type", "properties",
                                                             "required", "$schema")]
    if schema.get("type") != "object":
        problems.append('"type" must be "object"')
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return [*problems, '"properties" must map each field to its schema']
    for name, prop in properties.items():
        problems += [f"properties.{name}: {p}" for p in _property_problems(prop)]
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        problems.append('"required" must be a list of property names')
    else:
        problems += [f"required: {r!r} is not a property" for r in required
                     if r not in properties]
    return problems


def check_schema(schema: Any) -> None:
    """Raise ``ValueError`` naming every problem of a form schema a handler gave."""
    problems = schema_problems(schema)
    if problems:
        raise ValueError("ctx.elicit: not a schema MCP elicitation allows (a flat object "
                         "of primitive properties):\n" + "\n".join(f"- {p}" for p in problems))


def check_answer(schema: Mapping[str, Any], content: Any) -> dict[str, Any]:
    """The accepted ``content``, if it fits ``schema``; else ``InvalidAnswer``."""
    problems = Validator(schema).problems(content)
    if problems:
        raise InvalidAnswer("The user's answer does not fit the form:\n" + "\n".join(problems))
    assert isinstance(content, dict)
    return content


def _property_problems(prop: Any) -> list[str]:
    if not isinstance(prop, Mapping):
        return ["must be a schema (a mapping)"]
    kind = prop.get("type")
    if kind == "string" and any(k in prop for k in ("enum", "oneOf")):
        return _choice_problems(prop)
    if kind == "string":
        problems = _keys(prop, _STRING_KEYS)
        if "format" in prop and prop["format"] not in _FORMATS:
            problems.append(f"format must be one of {', '.join(_FORMATS)}")
        return problems + _ints(prop, "minLength", "maxLength") + _default(prop, _string)
    if kind in ("number", "integer"):
        bounds = [f"{k} must be a number" for k in ("minimum", "maximum")
                  if k in prop and not _number(prop[k])]
        return _keys(prop, _NUMBER_KEYS) + bounds + _default(
            prop, _number if kind == "number" else _whole)
    if kind == "boolean":
        return _keys(prop, _COMMON) + _default(prop, _boolean)
    if kind == "array":
        return _multi_problems(prop)
    return ['"type" must be string, number, integer, boolean, or array (of choices)']


def _choice_problems(prop: Mapping[str, Any]) -> list[str]:
    """A single choice: ``enum``, ``enum`` + ``enumNames``, or ``oneOf`` {const, title}."""
    if "oneOf" in prop:
        values, problems = _titled(prop["oneOf"], "oneOf")
        return _keys(prop, _CHOICE_KEYS["oneOf"]) + problems + _choice_default(prop, values)
    values = prop.get("enum") or []
    if not _strings(values):
        return ["enum must be a non-empty list of strings"]
    if "enumNames" in prop:
        names = prop["enumNames"]
        problems = _keys(prop, _CHOICE_KEYS["enumNames"])
        if not _strings(names) or len(names) != len(values):
            problems.append("enumNames must be strings, one per enum value")
    else:
        problems = _keys(prop, _CHOICE_KEYS["enum"])
    return problems + _choice_default(prop, values)


def _multi_problems(prop: Mapping[str, Any]) -> list[str]:
    """A multiple choice: ``items`` an ``enum`` of strings or an ``anyOf`` {const, title}."""
    problems = _keys(prop, _MULTI_KEYS) + _ints(prop, "minItems", "maxItems")
    items = prop.get("items")
    if not isinstance(items, Mapping):
        return [*problems, "items must say the choices (enum, or anyOf of const and title)"]
    if "anyOf" in items:
        values, more = _titled(items["anyOf"], "items.anyOf")
        problems += more + [f"items: key {k!r} is not allowed" for k in items if k != "anyOf"]
    else:
        values = items.get("enum") or []
        if items.get("type") != "string" or not _strings(values):
            return [*problems, 'items must be {"type": "string", "enum": [...]}']
        problems += [f"items: key {k!r} is not allowed" for k in items
                     if k not in ("type", "enum")]
    default = prop.get("default")
    if "default" in prop and not (isinstance(default, list)
                                  and all(v in values for v in default)):
        problems.append("default must be a list of the choices")
    return problems


def _titled(options: Any, where: str) -> tuple[list[Any], list[str]]:
    if not isinstance(options, list) or not options or not all(
            isinstance(o, Mapping) and set(o) == {"const", "title"}
            and isinstance(o["const"], str) and isinstance(o["title"], str) for o in options):
        return [], [f"{where} must be a non-empty list of {{const, title}}, both strings"]
    return [o["const"] for o in options], []


def _keys(prop: Mapping[str, Any], allowed: frozenset[str] | set[str]) -> list[str]:
    return [f"key {k!r} is not allowed here" for k in prop if k not in allowed]


def _default(prop: Mapping[str, Any], fits: Callable[[Any], bool]) -> list[str]:
    if "default" in prop and not fits(prop["default"]):
        return ["default is not of the property's type"]
    return []


def _choice_default(prop: Mapping[str, Any], values: list[Any]) -> list[str]:
    if "default" in prop and prop["default"] not in values:
        return ["default must be one of the choices"]
    return []


def _ints(prop: Mapping[str, Any], *keys: str) -> list[str]:
    return [f"{k} must be a whole number >= 0" for k in keys if k in prop and not (
        isinstance(prop[k], int) and not isinstance(prop[k], bool) and prop[k] >= 0)]


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _strings(values: Any) -> bool:
    return isinstance(values, list) and bool(values) and all(isinstance(v, str) for v in values)
