"""Which Python type a JSON Schema gets, and when that type is wider than the schema.

Arguments are validated against the published schema itself (the validator of record,
``toolc.runtime.validation``); the generated pydantic models only convert what it
accepted into the handler's parameter types. So a schema's Python type must never be
narrower than the schema: a model that refused a valid value would break a valid call.
The rules here make it a superset, always:

- an explicit ``type`` decides the type (``string`` -> ``str``, ``object`` with
  ``properties`` -> a model, ...), whatever else narrows the values: bounds, ``not``,
  ``if``/``then``/``else``, ``allOf`` ... only take values away (though some of them,
  ``if``/``then`` or ``dependentSchemas``, give properties a shape the type cannot say);
- ``properties``, ``additionalProperties`` and ``items`` type what they apply to, except
  where another keyword changes what they apply to (``patternProperties`` takes keys
  from ``additionalProperties``, ``prefixItems`` takes the first items from ``items``);
- without ``type``, only ``enum``/``const`` (a ``Literal``), ``anyOf``/``oneOf`` (a
  union of the branches) and a one-branch ``allOf`` say what a value is; anything else
  may be any JSON value (``Any``), a ``maxLength`` alone accepting ``3``.

Where a keyword shapes values in a way the Python type cannot say, the front end reports
an info diagnostic at the schema (``typed-widely``) so that the author knows the handler
sees a wider type than the schema's; the generator asks the same questions, here.
"""

from __future__ import annotations

from typing import Any

# Keywords that say nothing about which values are valid.
ANNOTATING = frozenset({
    "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
    "$comment", "$schema", "$id", "$anchor", "$dynamicAnchor", "$defs", "$vocabulary",
    "format", "contentMediaType", "contentEncoding", "contentSchema",
})
# Keywords that only take values away from a type the Python type already says.
NARROWING = frozenset({
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
    "contains", "minContains", "maxContains", "required", "minProperties",
    "maxProperties", "propertyNames", "dependentRequired", "not",
})
# Keywords that shape values (add properties, reorder items, refer elsewhere) in a way
# no Python type says: the type stays what ``type`` says, and the build tells the author.
SHAPING = ("if", "then", "else", "allOf", "anyOf", "oneOf", "dependentSchemas",
           "unevaluatedProperties", "unevaluatedItems", "patternProperties", "prefixItems",
           "$ref", "$dynamicRef")
SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
LITERAL_VALUES = (str, int, bool, type(None))


def literal_values(schema: dict[str, Any]) -> list[Any] | None:
    """The values of an ``enum``/``const`` that a ``Literal`` can hold, or None."""
    if "const" in schema:
        values = [schema["const"]]
    elif isinstance(schema.get("enum"), list):
        values = list(schema["enum"])
    else:
        return None
    if values and all(isinstance(v, LITERAL_VALUES) for v in values):
        return values
    return None


def items_schema(schema: dict[str, Any]) -> Any:
    """The schema every item of an array has, when there is one (None: any items)."""
    items = schema.get("items")
    return items if isinstance(items, dict) and "prefixItems" not in schema else None


def extra_schema(schema: dict[str, Any]) -> Any:
    """The schema every property not in ``properties`` has, when there is one."""
    extra = schema.get("additionalProperties")
    return extra if isinstance(extra, dict) and "patternProperties" not in schema else None


def is_model_schema(schema: Any) -> bool:
    """An object schema that becomes a class: ``type: object`` with ``properties``."""
    return isinstance(schema, dict) and schema.get("type") == "object" \
        and isinstance(schema.get("properties"), dict)


def widening(schema: dict[str, Any], own_keys: frozenset[str] = frozenset()) -> str | None:
    """Why the Python type of ``schema`` is wider than the schema, or None.

    ``own_keys`` are keys the caller handles itself (toolc's additions in a spec:
    ``nullable``, a ``required`` flag, ``type`` naming a type); they are not looked at.
    """
    keys = [k for k in schema if k not in own_keys]
    shaping = [k for k in SHAPING if k in keys and not _harmless(schema, k)]
    if "type" not in schema and "type" not in own_keys:
        constrained = [k for k in keys if k not in ANNOTATING and k not in SHAPING
                       and k not in ("enum", "const")]
        if constrained:
            verb = "applies" if len(constrained) == 1 else "apply"
            return (f"no `type`: {_names(constrained)} only {verb} to some kinds of value, "
                    "so the handler may receive any JSON value")
    if shaping:
        return f"{_names(shaping)} cannot be said by a Python type"
    return None


def _harmless(schema: dict[str, Any], key: str) -> bool:
    """A shaping keyword whose effect the Python type does say: a union alone, one
    ``allOf`` branch alone, ``unevaluated*: false`` (nothing more may come)."""
    value = schema[key]
    others = [k for k in schema if k not in ANNOTATING and k != key]
    if key in ("anyOf", "oneOf"):
        return not others
    if key == "allOf":
        return isinstance(value, list) and len(value) == 1 and not others
    if key in ("unevaluatedProperties", "unevaluatedItems"):
        return value is False
    return False


def _names(keys: list[str]) -> str:
    quoted = [f"`{k}`" for k in keys]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
