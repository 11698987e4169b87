"""A suite schema, faithfully written in toolc's spec format, or why it cannot be.

The spec format is JSON Schema 2020-12 with three additions (spec-format.md), and the
translation undoes what they would change:

- a property is *required* by toolc unless it says `required: false` (or has a default),
  while JSON Schema's `properties` alone requires nothing: every property of an object
  without its own `required` list says `required: false`; where one cannot (a boolean
  schema, or a property whose own `required` is a list), the object says `required: []`,
  which means the same but is published too (recorded as an approximation);
- `type` naming a `types` entry and `nullable` are not used by the suite's schemas; a
  schema that uses `nullable`, or any keyword toolc does not know, cannot be written
  (toolc refuses unknown keywords), and is recorded with the reason.

Keyword values (`const`, `enum`, `default`, ...) are data and are copied untouched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from toolc.model.keywords import KEYWORDS, TOOLC_KEYWORDS


@dataclass
class Translation:
    schema: Any                                          # what the spec says for `x`
    unexpressible: list[str] = field(default_factory=list)  # reasons, with JSON pointers
    approximations: list[str] = field(default_factory=list)


def translate(schema: Any) -> Translation:
    out = Translation(None)
    out.schema = _node(schema, "", out)
    return out


def _token(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _node(node: Any, ptr: str, out: Translation) -> Any:
    if not isinstance(node, dict):
        return node  # boolean schemas are published as written
    result: dict[str, Any] = {}
    for key, value in node.items():
        where = f"{ptr}/{_token(key)}"
        kw = KEYWORDS.get(key)
        if key in TOOLC_KEYWORDS:
            out.unexpressible.append(f"'{key}' at {where or '/'} is toolc's own keyword")
            result[key] = value
        elif kw is None:
            out.unexpressible.append(f"unknown keyword '{key}' at {ptr or '/'}")
            result[key] = value
        else:
            result[key] = _keyword(kw.kind, value, where, out)
    props = result.get("properties")
    if isinstance(props, dict) and not isinstance(result.get("required"), list):
        _not_required(result, props, ptr, out)
    return result


def _keyword(kind: str, value: Any, where: str, out: Translation) -> Any:
    if kind == "schema":
        return _node(value, where, out)
    if kind == "schema_list" and isinstance(value, list):
        return [_node(v, f"{where}/{i}", out) for i, v in enumerate(value)]
    if kind in ("schema_map", "dependencies") and isinstance(value, dict):
        return {k: (v if isinstance(v, list) else _node(v, f"{where}/{_token(k)}", out))
                for k, v in value.items()}
    return value


def _not_required(node: dict[str, Any], props: dict[str, Any], ptr: str,
                  out: Translation) -> None:
    """JSON Schema's `properties` requires nothing: say so in toolc's words."""
    if all(isinstance(p, dict) and "required" not in p for p in props.values()):
        for name, sub in props.items():
            props[name] = {**sub, "required": False}
        return
    if "required" in node:  # a non-list `required`: leave it to toolc to refuse
        return
    node["required"] = []
    out.approximations.append(f"`required: []` added at {ptr or '/'}")


def same(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value (1 == 1.0), but never a boolean for a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def differences(a: Any, b: Any, ptr: str = "", limit: int = 5) -> list[str]:
    """JSON pointers where ``a`` (expected) and ``b`` (got) differ, at most ``limit``."""
    found: list[str] = []
    _diff(a, b, ptr, found, limit)
    return found


def _diff(a: Any, b: Any, ptr: str, found: list[str], limit: int) -> None:
    if len(found) >= limit or same(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            where = f"{ptr}/{_token(k)}"
            if k not in b:
                found.append(f"{where}: missing")
            elif k not in a:
                found.append(f"{where}: added {_short(b[k])}")
            else:
                _diff(a[k], b[k], where, found, limit)
            if len(found) >= limit:
                return
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _diff(x, y, f"{ptr}/{i}", found, limit)
        return
    found.append(f"{ptr or '/'}: {_short(a)} -> {_short(b)}")


def _short(value: Any, width: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."
