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
# Keywords no pydantic type or Field argument says: a model checks them against that part
# of the published schema (see ``unchecked_part``).
UNENFORCED = ("not", "if", "then", "else", "dependentRequired", "dependentSchemas",
              "patternProperties", "propertyNames", "unevaluatedProperties",
              "unevaluatedItems", "uniqueItems", "contains", "minContains", "maxContains",
              "prefixItems", "oneOf")
# ... and those that only mean something beside their siblings (what "unevaluated" is
# depends on every other keyword; ``items`` after ``prefixItems`` skips the prefix;
# ``additionalProperties`` skips what ``patternProperties`` matches): with one of these
# the whole schema is checked.
SIBLING_BOUND = frozenset({"unevaluatedProperties", "unevaluatedItems", "prefixItems",
                           "patternProperties"})
# Object keywords a model (rather than a dict) leaves to the check.
MODEL_UNENFORCED = ("minProperties", "maxProperties")
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


def unchecked_part(schema: dict[str, JSON], *, model: bool = False) -> dict[str, JSON]:
    """The keywords of ``schema`` its Python type does not check, as a schema of their
    own (empty: the type says it all). ``model``: the schema became a model class, which
    also leaves ``minProperties``/``maxProperties`` and undeclared ``required`` names."""
    keys = [k for k in UNENFORCED if k in schema]
    if model:
        keys += [k for k in MODEL_UNENFORCED if k in schema]
        declared = schema.get("properties") or {}
        if any(name not in declared for name in schema.get("required") or ()):
            keys.append("required")
    if keys and SIBLING_BOUND.intersection(keys):
        return {k: v for k, v in schema.items() if k != "$defs"}
    if "oneOf" in keys and len(schema["oneOf"]) < 2:
        keys.remove("oneOf")  # one branch: the union is exact
    return {k: schema[k] for k in keys}


def referenced_defs(part: JSON, defs: dict[str, JSON]) -> dict[str, JSON]:
    """The entries of ``defs`` that ``part`` refers to (``#/$defs/<name>``), transitively:
    what a piece of a published schema needs to be checked on its own."""
    found: dict[str, JSON] = {}
    todo = [part]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref[len("#/$defs/"):].replace("~1", "/").replace("~0", "~")
                if name in defs and name not in found:
                    found[name] = defs[name]
                    todo.append(defs[name])
            todo += [v for k, v in node.items() if k != "$defs"]
        elif isinstance(node, list):
            todo += node
    return dict(sorted(found.items()))


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
