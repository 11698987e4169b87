"""``openai-strict``'s view: what the OpenAI Agents SDK's strict conversion would make of
the schema, done beforehand and said, so that the conversion changes nothing.

- every object is closed (``additionalProperties: false``; a ``type: object`` written
  where ``properties`` imply it) and lists every property in ``required``, in sorted
  order as the golden file writes them: an optional property is written as a union
  with null (``anyOf: [<schema>, {type: null}]``, its description beside the union),
  unless it already takes null; the adapter reads a null there as "absent"
  (``toolc.runtime.dialects.arguments``);
- ``oneOf`` becomes ``anyOf`` (the runtime still checks exactly one);
- a ``$ref`` beside any other keyword becomes a one-branch ``anyOf`` holding the reference
  (strict mode takes a reference only alone; the SDK would write the schema out);
- every keyword outside the subset (``default``, ``minLength``, another format, ...)
  is written into the description, ``$schema`` and ``$comment`` dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .lowering import ANNOTATIONS, Lowerer, admits_null, token
from .table import Lowering


class OpenAILowering(Lowerer):
    def before(self, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
        if "$ref" not in schema or len(schema) == 1:
            return schema
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        if "anyOf" in rest or "oneOf" in rest:
            self.problem(f"{ptr}/$ref", "$ref", "a `$ref` beside `anyOf`",
                         "strict mode takes a `$ref` only alone, and a one-branch `anyOf` "
                         "cannot hold it beside another union", "move the union into the "
                         "referenced schema")
            return schema
        self.move(f"{ptr}/$ref", "$ref", Lowering.REF)
        return {**rest, "anyOf": self.branches([{"$ref": schema["$ref"]}])}

    def after(self, out: dict[str, Any], schema: Mapping[str, Any], ptr: str) -> dict[str, Any]:
        if isinstance(out.get("oneOf"), list):
            if "anyOf" in out:
                self.problem(f"{ptr}/oneOf", "oneOf", "`oneOf` beside `anyOf`",
                             "strict mode has no `oneOf`, and it cannot be written as "
                             "`anyOf` beside another `anyOf`", "write one of the two")
            else:
                self.move(f"{ptr}/oneOf", "oneOf", Lowering.ANY_OF)
                out["anyOf"] = out.pop("oneOf")
        if out.get("type") == "object" or isinstance(out.get("properties"), dict):
            out = self._object(out, schema, ptr)
        return out

    def _object(self, out: dict[str, Any], schema: Mapping[str, Any], ptr: str
                ) -> dict[str, Any]:
        if "type" not in out:
            self.move(f"{ptr}/type", "type", Lowering.CLOSE)
            out["type"] = "object"
        if "additionalProperties" not in out:
            self.move(ptr, "additionalProperties", Lowering.CLOSE)
            out["additionalProperties"] = False
        props = out.get("properties")
        if not isinstance(props, dict):
            return out
        listed = schema.get("required")
        required = {n for n in listed if isinstance(n, str)} if isinstance(listed, list) else set()
        lowered = {}
        for name in sorted(props):
            prop = props[name]
            original = _props(schema).get(name)
            if name not in required and not admits_null(original, self.canonical_root):
                self.move(f"{ptr}/properties/{token(name)}", "required", Lowering.NULL_UNION)
                prop = null_union(prop)
            elif name not in required:  # it takes null already: absent and null are one
                self.move(f"{ptr}/properties/{token(name)}", "required", Lowering.NULL_UNION,
                          lossy=True)
            lowered[name] = prop
        out["properties"] = lowered
        out["required"] = sorted(props)
        return out


def null_union(schema: Any) -> dict[str, Any]:
    """``schema`` or null: its annotations beside a union of what it was and null."""
    if not isinstance(schema, dict):
        return {"anyOf": [schema, {"type": "null"}]}
    outer = {k: v for k, v in schema.items() if k in ANNOTATIONS}
    inner = {k: v for k, v in schema.items() if k not in ANNOTATIONS}
    if set(inner) == {"anyOf"} and isinstance(inner["anyOf"], list):
        return {**outer, "anyOf": [*inner["anyOf"], {"type": "null"}]}
    return {**outer, "anyOf": [inner, {"type": "null"}]}


def _props(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    props = schema.get("properties")
    return props if isinstance(props, Mapping) else {}
