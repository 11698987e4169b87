"""``gemini``'s view: the schema as a Gemini ``FunctionDeclaration``'s ``parameters``, an
OpenAPI 3.0 ``Schema`` that the Google Gen AI SDK's model takes field for field.

- ``type`` in the SDK's own spelling (``STRING``, ``OBJECT``, ...); a ``type`` list
  with null as one type and ``nullable: true``, with several types as ``anyOf`` of one
  branch per type (each with its own keywords); a null among ``enum`` values as
  ``nullable: true``;
- ``$defs`` as ``defs`` and ``$ref`` as ``ref`` (``#/$defs/A`` -> ``#/defs/A``); a
  reference to anything else is written out in place;
- ``const`` as a one-value ``enum`` (a string), ``oneOf`` as ``anyOf``; an enum of
  strings given its ``type: STRING``;
- every other keyword the ``Schema`` has no field for (``exclusiveMinimum``,
  ``examples``, another format, ...) written into the description; ``$schema`` and
  ``$comment`` dropped, and so is ``default: null`` (the SDK leaves out every field
  that is None, so it would never be sent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .lowering import Lowerer, follow
from .lowering_anthropic import BY_TYPE
from .table import Lowering

DEFS_PREFIX = "#/$defs/"


class GeminiLowering(Lowerer):
    def __init__(self, target: Any, root: Any):
        super().__init__(target, root)
        self._inlining: list[str] = []

    def node(self, schema: Any, ptr: str) -> Any:
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if isinstance(ref, str) and not ref.startswith(DEFS_PREFIX):
            return self._inline(schema, ref, ptr)
        return super().node(schema, ptr)

    def before(self, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
        kinds = schema.get("type")
        if isinstance(kinds, list):
            schema = self._type_list(schema, kinds, ptr)
        enum = schema.get("enum")
        if isinstance(enum, list) and None in enum and all(
                isinstance(v, str) for v in enum if v is not None):
            self.move(f"{ptr}/enum", "enum", Lowering.NULLABLE)
            return {**schema, "enum": [v for v in enum if v is not None], "nullable": True}
        return schema

    def _inline(self, schema: dict[str, Any], ref: str, ptr: str) -> Any:
        """A reference into anything but ``$defs``, written out in place (Gemini's
        ``ref`` names only ``defs``); one that leads back to itself is left, and said."""
        found = follow(ref, self.canonical_root)
        if not isinstance(found, dict) or ref in self._inlining:
            if ref in self._inlining:
                self.problem(f"{ptr}/$ref", "$ref", f"the reference '{ref}'",
                             "Gemini's `ref` names only the root's `defs`, and this "
                             "reference leads back to itself, so it cannot be written out",
                             "publish the recursive schema as a named type ($defs)")
            return super().node(schema, ptr)
        self.move(f"{ptr}/$ref", "$ref", Lowering.INLINE)
        self._inlining.append(ref)
        try:
            written = self.node(found, ptr)
        finally:
            self._inlining.pop()
        rest = super().node({k: v for k, v in schema.items() if k != "$ref"}, ptr)
        if not isinstance(written, dict) or set(rest) & set(written):
            return {**rest, "anyOf": [written]}
        return {**written, **rest}

    def _type_list(self, schema: dict[str, Any], kinds: list[Any], ptr: str
                   ) -> dict[str, Any]:
        self.move(f"{ptr}/type", "type", Lowering.NULLABLE, kinds)
        nullable = "null" in kinds
        kinds = [k for k in kinds if k != "null"]
        if len(kinds) == 1:
            return {**schema, "type": kinds[0], **({"nullable": True} if nullable else {})}
        typed = set().union(*(BY_TYPE.get(str(k), frozenset()) for k in kinds))
        outer = {k: v for k, v in schema.items() if k != "type" and k not in typed}
        branches = [{"type": k, **{key: v for key, v in schema.items()
                                   if key in BY_TYPE.get(str(k), frozenset())}}
                    for k in kinds]
        return {**outer, "anyOf": self.branches(branches), **({"nullable": True} if nullable else {})}

    def how(self, schema: Mapping[str, Any], key: str, value: Any) -> Lowering:
        if key == "default" and value is None:
            return Lowering.DROP  # the SDK sends no field that is None: it would vanish
        return super().how(schema, key, value)

    def after(self, out: dict[str, Any], schema: Mapping[str, Any], ptr: str) -> dict[str, Any]:
        if isinstance(out.get("type"), str):
            out["type"] = out["type"].upper()
        elif "type" not in out and isinstance(out.get("enum"), list) and out["enum"] and all(
                isinstance(v, str) for v in out["enum"]):
            out["type"] = "STRING"  # what an enum of strings is; Gemini reads it by type
        if "$defs" in out:
            self.move(f"{ptr}/$defs", "$defs", Lowering.REF)
            out["defs"] = out.pop("$defs")
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith(DEFS_PREFIX):
            self.move(f"{ptr}/$ref", "$ref", Lowering.REF)
            del out["$ref"]
            out["ref"] = "#" + "/".join("defs" if part == "$defs" else part
                                        for part in ref[1:].split("/"))
        if "const" in out and isinstance(out["const"], str) and "enum" not in out:
            self.move(f"{ptr}/const", "const", Lowering.ENUM)
            out["enum"] = [out.pop("const")]
        if isinstance(out.get("oneOf"), list) and "anyOf" not in out:
            self.move(f"{ptr}/oneOf", "oneOf", Lowering.ANY_OF)
            out["anyOf"] = out.pop("oneOf")
        return out

