"""Reading JSON Schemas: the small questions the model builder asks of a schema.

What makes a class rather than a dict or a union, which keywords only annotate, which
ones pydantic cannot check, how bounds map to ``Field`` arguments, and which named types
refer back to themselves.
"""

from __future__ import annotations

from typing import Any

from ..ir import JSON, ModuleIR
from .names import type_refs

ANNOTATION_KEYS = frozenset({
    "type", "description", "default", "required", "nullable", "title", "examples",
    "deprecated", "$comment", "readOnly", "writeOnly",
})
UNENFORCED = ("not", "if", "then", "else", "dependentRequired", "dependentSchemas",
              "patternProperties", "propertyNames", "unevaluatedProperties",
              "unevaluatedItems", "uniqueItems", "contains", "minContains", "maxContains",
              "prefixItems")
BOUNDS = {"minimum": "ge", "maximum": "le", "exclusiveMinimum": "gt",
          "exclusiveMaximum": "lt", "multipleOf": "multiple_of"}
SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}


def is_model_schema(schema: JSON) -> bool:
    """An object schema that becomes a class (rather than a ``dict`` or a union)."""
    if not isinstance(schema, dict) or any(k in schema for k in ("anyOf", "oneOf", "enum",
                                                                   "const", "$ref")):
        return False
    kind = schema.get("type", "object" if "properties" in schema else None)
    return kind == "object" and ("properties" in schema
                                 or schema.get("additionalProperties") is False)


def constraints(schema: dict[str, JSON], kind: str) -> dict[str, Any]:
    """Field arguments for a scalar's bounds, in the order pydantic documents them."""
    out: dict[str, Any] = {}
    if kind == "string":
        for key, arg in (("minLength", "min_length"), ("maxLength", "max_length"),
                         ("pattern", "pattern")):
            if key in schema:
                out[arg] = schema[key]
    elif kind in ("integer", "number"):
        for key, arg in BOUNDS.items():
            if key in schema and not isinstance(schema[key], bool):
                out[arg] = schema[key]
    return out


_UNENFORCED_SET = frozenset(UNENFORCED)


def unenforced(schema: dict[str, JSON]) -> list[str]:
    """A comment naming the keywords the model does not check (the schema still says them)."""
    if not _UNENFORCED_SET.intersection(schema):
        return []
    found = [key for key in UNENFORCED if key in schema]
    return [f"not checked by the model: {', '.join(found)}"] if found else []


def holds_object(value: JSON) -> bool:
    """A default with a JSON object in it: for a model-typed field it is validated into
    the model (pydantic does not validate defaults otherwise), and mypy is told so."""
    if isinstance(value, dict):
        return True
    return isinstance(value, list) and any(holds_object(v) for v in value)


def child(spec: JSON, key: str, index: int | None = None) -> JSON:
    if not isinstance(spec, dict):
        return None
    value = spec.get(key)
    if index is not None:
        return value[index] if isinstance(value, list) and index < len(value) else None
    return value


def text_of(value: JSON) -> str | None:
    return value if isinstance(value, str) and value else None


def recursive_aliases(module: ModuleIR) -> set[str]:
    """Named types that refer back to themselves and are not objects: no alias can say
    them (a recursive object type is a model, which can)."""
    graph = {name: {r for r in type_refs(t.spec) if "." not in r}
             for name, t in module.types.items()}
    found = set()
    for name, named in module.types.items():
        if is_model_schema(named.schema):
            continue
        seen: set[str] = set()
        todo = list(graph[name])
        while todo:
            current = todo.pop()
            if current == name:
                found.add(name)
                break
            if current in seen or current not in graph:
                continue
            seen.add(current)
            todo += graph[current]
    return found
