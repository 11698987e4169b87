"""The ``$ref`` shape of a view: ``refs = "inline" | "defs" | "as-written"``.

Clients and adapters differ on references: several strip ``$defs`` or keep only
``properties``/``required``, leaving dangling references; others reject any reference
outside ``#/$defs``; inlining costs tokens, and hoisting repeated subschemas saves them.
A project (or one target) chooses the shape of its views (``[tool.toolc] refs``), before
the target's lowering:

- ``as-written`` (the default): as the published schema has them;
- ``inline``: every local reference written out in place and ``$defs`` gone; a recursive
  schema cannot be (its reference stays, and it is a problem of the view: TC608);
- ``defs``: every subschema written more than once (of :data:`HOIST_CHARS` characters or
  more) hoisted into the root's ``$defs`` and referred to, where that is shorter than
  its copies.

The canonical golden file keeps the shape it was written in: it is the contract. Plain
JSON in and out; every walk is bounded by the schema itself.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from .lowering import SCHEMA, SCHEMA_LIST, SCHEMA_MAP, follow, token

REFS_MODES = ("as-written", "inline", "defs")
# A subschema shorter than this costs fewer characters written out than its reference
# and its `$defs` entry would.
HOIST_CHARS = 60
_MAX_HOISTED = 200


def shape_refs(schema: Any, mode: str) -> tuple[Any, list[str]]:
    """``schema`` in the ``$ref`` shape ``mode``, and the pointers (into the input
    schema, ``/inputSchema/...``) of the references it could not write out."""
    if mode == "inline":
        recursive: list[str] = []
        out = _inline(schema, schema, "/inputSchema", (), recursive)
        if not recursive and isinstance(out, dict):
            out.pop("$defs", None)
            out.pop("definitions", None)
        return out, recursive
    if mode == "defs":
        return _hoist(schema), []
    return schema, []


def _inline(node: Any, root: Any, ptr: str, chain: tuple[str, ...],
            recursive: list[str]) -> Any:
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        target = follow(ref, root)
        if ref in chain or not isinstance(target, dict):
            if ref in chain:
                recursive.append(f"{ptr}/$ref")
            return dict(node)
        rest = {k: v for k, v in node.items() if k != "$ref"}
        written = _inline(target, root, ptr, (*chain, ref), recursive)
        if not rest:
            return written
        # beside other keywords: both must hold
        return {"allOf": [written, _inline(rest, root, ptr, chain, recursive)]}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("$defs", "definitions") and ptr == "/inputSchema":
            out[key] = value  # dropped at the end when nothing refers to it any more
        elif key in SCHEMA:
            out[key] = _inline(value, root, f"{ptr}/{key}", chain, recursive)
        elif key in SCHEMA_LIST and isinstance(value, list):
            out[key] = [_inline(v, root, f"{ptr}/{key}/{i}", chain, recursive)
                        for i, v in enumerate(value)]
        elif key in SCHEMA_MAP and isinstance(value, dict):
            out[key] = {n: _inline(v, root, f"{ptr}/{key}/{token(str(n))}", chain, recursive)
                        for n, v in value.items()}
        else:
            out[key] = value
    return out


def _subschemas(node: Any, found: list[Any], top: bool = True) -> None:
    """Every subschema below ``node`` (not ``node`` itself), in document order."""
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        children: list[Any] = []
        if key in SCHEMA and isinstance(value, dict):
            children = [value]
        elif key in SCHEMA_LIST and isinstance(value, list):
            children = [v for v in value if isinstance(v, dict)]
        elif key in SCHEMA_MAP and isinstance(value, dict) and not (
                top and key in ("$defs", "definitions")):
            children = [v for v in value.values() if isinstance(v, dict)]
        for child in children:
            found.append(child)
            _subschemas(child, found, top=False)


def _text(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _hoist(schema: Any) -> Any:
    """``schema`` with its repeated subschemas in ``$defs``, the largest first."""
    if not isinstance(schema, dict):
        return schema
    out = json.loads(json.dumps(schema))
    for _ in range(_MAX_HOISTED):
        found: list[Any] = []
        _subschemas(out, found)
        counts = Counter(_text(s) for s in found)
        defs = out.get("$defs") if isinstance(out.get("$defs"), dict) else {}
        repeated = [t for t, n in counts.items() if n > 1 and len(t) >= HOIST_CHARS
                    and not t.startswith('{"$ref"') and _saves(t, n, defs)]
        if not repeated:
            break
        text = max(repeated, key=lambda t: (len(t), t))
        name = _def_name(json.loads(text), defs)
        out = _replace(out, text, {"$ref": f"#/$defs/{token(name)}"})
        kept = out.get("$defs") if isinstance(out.get("$defs"), dict) else {}
        out["$defs"] = {**kept, name: json.loads(text)}
    return out


def _saves(text: str, count: int, defs: dict[str, Any]) -> bool:
    """Whether ``count`` references and one `$defs` entry are shorter than ``count``
    copies of ``text`` (compact JSON, a name of 8 characters)."""
    ref = len('{"$ref":"#/$defs/12345678"}')
    entry = len('"12345678":,') + len(text) + (0 if defs else len('"$defs":{},'))
    return count * len(text) > count * ref + entry


def _def_name(schema: Any, defs: dict[str, Any]) -> str:
    title = schema.get("title") if isinstance(schema, dict) else None
    base = "".join(c for c in title if c.isalnum() or c in "_-") if isinstance(title, str) \
        else ""
    base = base or "Shared"
    name, n = base, 1
    while name in defs:
        n += 1
        name = f"{base}{n}"
    return name


def _replace(node: Any, text: str, ref: dict[str, str]) -> Any:
    """``node`` with every subschema of text ``text`` below it made ``ref``."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in SCHEMA and isinstance(value, dict):
            out[key] = dict(ref) if _text(value) == text else _replace(value, text, ref)
        elif key in SCHEMA_LIST and isinstance(value, list):
            out[key] = [dict(ref) if isinstance(v, dict) and _text(v) == text
                        else _replace(v, text, ref) for v in value]
        elif key in SCHEMA_MAP and isinstance(value, dict):
            out[key] = {n: dict(ref) if isinstance(v, dict) and _text(v) == text
                        else _replace(v, text, ref) for n, v in value.items()}
        else:
            out[key] = value
    return out
