"""A view's arguments mapped back to the canonical schema's, before the runtime validates.

A target's view can ask for more than the canonical schema: ``openai-strict`` makes
every property required, an optional one a union with null, so the model sends
``"limit": null`` where it means to leave ``limit`` out. :func:`canonical_arguments`
undoes exactly that: a null given for a property the canonical schema does not require
and does not take null for (:func:`~toolc.runtime.dialects.lowering.admits_null`, the
same answer the lowering used to write the union) is taken out, at every depth the
schema names (properties, items, references, the one object branch of a union that
fits). Everything else is passed as it came: the runtime then validates the result
against the canonical schema, as for any call, so the lowering loses nothing at the
handler. The adapter that asked for the view maps its calls through this.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .lowering import admits_null, follow

_MAX_DEPTH = 64  # the published schemas' own bound (checks/bounds.py)


def canonical_arguments(schema: Any, arguments: Any) -> Any:
    """``arguments`` as the canonical input ``schema`` takes them (see the module)."""
    return _restore(schema, arguments, schema, 0)


def _restore(schema: Any, value: Any, root: Any, depth: int) -> Any:
    if depth > _MAX_DEPTH or not isinstance(schema, Mapping):
        return value
    schema = _followed(schema, root)
    if isinstance(value, dict):
        value = _object(schema, value, root, depth)
        branch = _one_object_branch(schema, value, root)
        if branch is not None:
            value = _restore(branch, value, root, depth + 1)
    elif isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        value = [_restore(schema["items"], item, root, depth + 1) for item in value]
    return value


def _object(schema: Mapping[str, Any], value: dict[str, Any], root: Any, depth: int
            ) -> dict[str, Any]:
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return value
    listed = schema.get("required")
    required = set(listed) if isinstance(listed, list) else set()
    out = {}
    for name, item in value.items():
        sub = props.get(name)
        if sub is None:
            out[name] = item
        elif item is None and name not in required and not admits_null(sub, root):
            continue  # a view's null for an optional property: absent
        else:
            out[name] = _restore(sub, item, root, depth + 1)
    return out


def _one_object_branch(schema: Mapping[str, Any], value: dict[str, Any], root: Any
                       ) -> Any:
    """The one branch of a union whose properties name every key of ``value``."""
    for key in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(key)
        if not isinstance(branches, list):
            continue
        fitting = []
        for branch in branches:
            branch = _followed(branch, root)
            props = branch.get("properties") if isinstance(branch, Mapping) else None
            if isinstance(props, Mapping) and set(value) <= set(props):
                fitting.append(branch)
        if len(fitting) == 1:
            return fitting[0]
    return None


def _followed(schema: Any, root: Any) -> Any:
    """``schema``, or what its ``$ref`` chain names (a few steps at most)."""
    for _ in range(8):
        if not isinstance(schema, Mapping) or "$ref" not in schema:
            return schema
        found = follow(schema["$ref"], root)
        if not isinstance(found, Mapping):
            return schema
        schema = found
    return schema
