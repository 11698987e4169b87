"""What the validator's errors say to the model: enough to correct its call.

jsonschema-rs names the rule a value broke. For most rules that is all a model needs;
for three it is not. An ``enum`` message names only the first two allowed values. A
failing ``anyOf``/``oneOf`` says "is not valid under any of the schemas listed" and no
more, although the validator knows why each branch failed: so the branches are named
(by their ``title``, else their number and type), the one that got deepest into the
value first, each with its own reason. A union of values only (``nullable: true`` on an
``enum`` publishes ``anyOf: [{enum: [...]}, {type: "null"}]``) says its values, as an
enum does.
"""

from __future__ import annotations

import json
from typing import Any

from .json_pointers import MISSING, step

# How far unions inside unions are told; below that, the validator's own words.
MAX_UNION_DEPTH = 3
# How many branches are told, and how many reasons each gives.
MAX_BRANCHES = 6
REASONS_PER_BRANCH = 2
UNIONS = frozenset({"AnyOf", "OneOfNotValid", "OneOfMultipleValid"})  # kinds of error


def message(error: Any, document: Any = None, depth: int = 0) -> str:
    """The message for one validation error; ``document``: the schema it was validated
    against (what names a union's branches), when at hand. A failing union's message has
    a line per branch after its first."""
    kind = type(error.kind).__name__
    if kind == "Enum" and isinstance(getattr(error.kind, "options", None), list):
        return f"{short(error.instance)} is not one of {_listed(error.kind.options)}"
    if kind in UNIONS and depth < MAX_UNION_DEPTH:
        return _union(error, kind, document, depth)
    return str(error.message)


def short(instance: Any) -> str:
    """An instance as JSON, cut to a readable length (its size said where it is cut)."""
    text = json.dumps(instance, ensure_ascii=False, separators=(",", ":"))
    if len(text) <= 60:
        return text
    size = f"{len(instance)} characters" if isinstance(instance, str) else \
        f"{len(text)} characters of JSON"
    return f"{text[:40]}… ({size})"


def allowed_values(error: Any) -> list[Any] | None:
    """The values an ``enum`` error allows, or those of a union of values only (a nullable
    enum); None for other errors."""
    kind = type(error.kind).__name__
    if kind == "Enum":
        options = getattr(error.kind, "options", None)
        return list(options) if isinstance(options, list) else None
    if kind == "Constant":
        return [error.kind.expected_value]
    if kind == "Type" and list(error.kind.types) == ["null"]:
        return [None]
    if kind not in ("AnyOf", "OneOfNotValid"):
        return None
    values: list[Any] = []
    for branch in error.kind.context:
        found = allowed_values(branch[0]) if len(branch) == 1 and \
            list(branch[0].instance_path) == list(error.instance_path) else None
        if found is None:
            return None
        values.extend(v for v in found if v not in values)
    return values


def _listed(values: list[Any]) -> str:
    return ", ".join(json.dumps(v, ensure_ascii=False) for v in values)


def _union(error: Any, kind: str, document: Any, depth: int) -> str:
    keyword = "anyOf" if kind == "AnyOf" else "oneOf"
    if kind == "OneOfMultipleValid":
        schemas = _branch_schemas(document, list(error.schema_path), len(error.kind.context))
        matched = [_name(schemas[i], str(i + 1)) for i, errors in enumerate(error.kind.context)
                   if not errors]
        return (f"{short(error.instance)} matches {len(matched)} branches of oneOf "
                f"({', '.join(matched)}); it must match exactly one")
    values = allowed_values(error)
    if values is not None:
        return f"{short(error.instance)} is not one of {_listed(values)}"
    branches = _branches(error, document, "")
    base = len(error.instance_path)
    # the branch that got deepest into the value is the one most likely meant
    order = sorted(branches, key=lambda b: -max((len(e.instance_path) for e in b[1]),
                                                default=0))
    told = []
    for name, errors in order[:MAX_BRANCHES]:
        errors = sorted(errors, key=lambda e: -len(e.instance_path))
        reasons = [_reason(e, base, document, depth) for e in errors[:REASONS_PER_BRANCH]]
        if len(errors) > len(reasons):
            reasons.append(f"{len(errors) - len(reasons)} more")
        told.append(f"{name}: {'; '.join(reasons)}")
    if len(order) > MAX_BRANCHES:
        told.append(f"... and {len(order) - MAX_BRANCHES} more branches")
    head = f"{short(error.instance)} matches none of the {len(branches)} branches of {keyword}"
    if depth:  # inside another union's reason: on one line
        return f"{head} ({' | '.join(told)})"
    return head + ":" + "".join(f"\n  - {line}" for line in told)


def _branches(error: Any, document: Any, label: str) -> list[tuple[str, list[Any]]]:
    """Each branch of a failing union, named, with its errors; a branch that fails only
    as a union of its own (a nullable named union) gives its branches instead."""
    context = list(error.kind.context)
    schemas = _branch_schemas(document, list(error.schema_path), len(context))
    found: list[tuple[str, list[Any]]] = []
    for i, errors in enumerate(context):
        here = f"{label}{i + 1}"
        only = errors[0] if len(errors) == 1 else None
        if only is not None and type(only.kind).__name__ in ("AnyOf", "OneOfNotValid") \
                and list(only.instance_path) == list(error.instance_path) \
                and len(label) < 2 * MAX_UNION_DEPTH:
            found.extend(_branches(only, document, here + "."))
        else:
            found.append((_name(schemas[i], here), errors))
    return found


def _reason(error: Any, base: int, document: Any, depth: int) -> str:
    """One branch's error, its place said from the union's value down."""
    below = list(error.instance_path)[base:]
    text = message(error, document, depth + 1)
    if not below:
        return text
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in below).lstrip(".")
    return f"{where}: {text}"


def _name(schema: Any, label: str) -> str:
    """``'By date' (branch 1)`` for a branch with a title, ``branch 2 (string)`` without."""
    title = schema.get("title") if isinstance(schema, dict) else None
    if isinstance(title, str) and title:
        return f"'{title[:40]}' (branch {label})"
    kind = schema.get("type") if isinstance(schema, dict) else None
    return f"branch {label} ({kind})" if isinstance(kind, str) else f"branch {label}"


def _branch_schemas(document: Any, path: list[Any], count: int) -> list[Any]:
    """The union's branches, found in ``document`` along the error's schema path (a
    ``$ref`` to the same document followed), each ``None`` where it cannot be found."""
    node = document
    for part in path:
        node = _step(document, node, part)
        if node is None:
            break
    found = node if isinstance(node, list) else []
    return [_resolved(document, found[i]) if i < len(found) else None for i in range(count)]


def _step(document: Any, node: Any, part: Any) -> Any:
    if isinstance(node, dict) and part == "$ref" and isinstance(node.get("$ref"), str):
        return _pointer(document, node["$ref"])
    if isinstance(node, dict) and isinstance(part, str):
        return node.get(part)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    return None


def _resolved(document: Any, schema: Any) -> Any:
    """A branch that is only a ``$ref`` to the same document: the schema it names."""
    if isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and "title" not in schema:
        return _pointer(document, schema["$ref"]) or schema
    return schema


def _pointer(document: Any, ref: str) -> Any:
    if not ref.startswith("#"):
        return None
    node = document
    for raw in ref[1:].split("/")[1:]:
        node = step(node, raw.replace("~1", "/").replace("~0", "~"))
        if node is MISSING:
            return None
    return node


__all__ = ["UNIONS", "allowed_values", "message", "short"]
