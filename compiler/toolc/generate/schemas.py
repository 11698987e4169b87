"""Reading JSON Schemas: the small questions the model builder asks of a schema.

Which keywords keep a named type's name, where a default holds an object, and which
named types refer back to themselves (the type rules themselves are in
``toolc.schema_typing``).
"""

from __future__ import annotations

from ..ir import JSON, ModuleIR
from ..schema_typing import ANNOTATING, NARROWING, is_model_schema
from .names import type_refs

# Keys a property may add to the named type it uses and keep the type's name: words,
# toolc's own flags, and keywords that only take values away (the validator's business).
KEEPS_NAMED_TYPE = frozenset({"type", "required", "nullable"}) | ANNOTATING | NARROWING


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
