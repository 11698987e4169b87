"""``anthropic-strict``'s view: what the Anthropic SDK's strict transform
(``transform_schema``) would make of the schema, done beforehand and said, so that the
transform changes nothing.

The transform reads one kind of schema per node: a ``$ref`` (alone), literals (``enum``,
``const``: ``type`` is dropped beside them), a union (``anyOf``; ``oneOf`` is written as
``anyOf``) or an intersection (``allOf``), or one ``type`` with that type's own keywords
(an object's ``properties``, ``required`` and ``additionalProperties: false``; a
string's supported ``format``; an array's ``items`` and ``minItems`` 0 or 1); it writes
every other keyword into the description. So the view:

- writes a node that mixes kinds as ``allOf`` of one branch per kind (a ``$ref`` with a
  description, a ``type`` beside an ``anyOf``), which means exactly the same;
- writes a ``type`` list as ``anyOf`` of one branch per type, each with its own keywords;
- closes every object and gives it ``properties``; renames draft-07's ``definitions``
  at the root to ``$defs`` (and the references into them);
- writes every keyword outside the subset into the description as words, where the SDK
  would write ``{minimum: 1}``; drops ``$schema`` and ``$comment``.

A schema of no kind at all (``{}``, any value; a boolean schema; a type the transform
does not know) cannot be written strict: the table's ``untyped`` row says why, and the
view keeps it as it was (a problem of the view, which the build reports).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .lowering import Lowerer, token, value_row
from .table import Lowering

# Kept outside the branches when a node is split: what describes it, and what the
# transform would write into its description anyway.
OUTER = frozenset({"description", "title", "$defs", "default", "examples", "deprecated",
                   "readOnly", "writeOnly", "$comment", "$schema", "$id", "$anchor"})
COMBINATORS = ("anyOf", "oneOf", "allOf")
# A type's own keywords (what a type list distributes to each branch).
BY_TYPE = {
    "object": frozenset({"properties", "required", "additionalProperties", "minProperties",
                         "maxProperties", "patternProperties", "propertyNames",
                         "dependentRequired", "dependentSchemas", "unevaluatedProperties"}),
    "array": frozenset({"items", "prefixItems", "minItems", "maxItems", "uniqueItems",
                        "contains", "minContains", "maxContains", "unevaluatedItems"}),
    "string": frozenset({"minLength", "maxLength", "pattern", "format", "contentEncoding",
                         "contentMediaType"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                         "multipleOf"}),
}
BY_TYPE["integer"] = BY_TYPE["number"]
# What the transform keeps for each kind of node (besides description, title, $defs).
KEEPS = {"object": frozenset({"type", "properties", "required", "additionalProperties"}),
         "string": frozenset({"type", "format"}),
         "array": frozenset({"type", "items", "minItems"}),
         "literal": frozenset({"enum", "const"}),
         "ref": frozenset({"$ref"})}
TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})


def _primitive(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def literal(schema: Mapping[str, Any]) -> bool:
    enum = schema.get("enum")
    return (isinstance(enum, list) and bool(enum) and all(_primitive(v) for v in enum)) or (
        "const" in schema and _primitive(schema["const"]))


class AnthropicLowering(Lowerer):
    def root(self, schema: Any) -> Any:
        lowered = self.node(schema, "/inputSchema")
        if isinstance(lowered, dict) and isinstance(lowered.get("definitions"), dict) \
                and "$defs" not in lowered:
            self.move("/inputSchema/definitions", "definitions", Lowering.REF)
            lowered = _renamed_definitions(lowered)
        return lowered

    def node(self, schema: Any, ptr: str) -> Any:
        if isinstance(schema, bool):
            self._untyped(ptr, f"the schema `{str(schema).lower()}`")
        return super().node(schema, ptr)

    def before(self, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
        if _needs_split(schema):
            return self._split(schema, ptr)
        kind = schema.get("type")
        if isinstance(kind, list) and not literal(schema):
            return self._type_list(schema, kind, ptr)
        if _kind(schema) == "" and "type" not in schema:
            if isinstance(schema.get("properties"), dict):
                self.move(f"{ptr}/type", "type", Lowering.CLOSE)
                return {**schema, "type": "object"}
            self._untyped(ptr, "a schema without `type`")
        elif isinstance(kind, str) and kind not in TYPES and _kind(schema) == kind:
            self._untyped(ptr, f"the type '{kind}'")
        return schema

    def _untyped(self, ptr: str, detail: str) -> None:
        row = self.target.untyped
        if row is not None:
            self.problem(ptr, "type", detail, row.why, row.fix)

    def _split(self, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
        """One ``allOf`` branch per kind of the node; its annotations outside."""
        outer = {k: v for k, v in schema.items() if k in OUTER}
        branches: list[Any] = []
        rest = {k: v for k, v in schema.items() if k not in OUTER and k not in COMBINATORS
                and k != "$ref"}
        if "type" not in rest and not literal(rest):  # no branch of their own: the
            outer.update(rest)                         # description says them
            rest = {}
        if "$ref" in schema:
            branches.append({"$ref": schema["$ref"]})
        if rest:
            branches.append(rest)
        for key in COMBINATORS:  # each its own branch, its own branches at their places
            if isinstance(schema.get(key), list):
                branches.append({key: schema[key]})
        first = "$ref" if "$ref" in schema else next(
            (k for k in schema if k not in OUTER and k not in COMBINATORS), "anyOf")
        self.move(f"{ptr}/{token(first)}", first, Lowering.ALL_OF)
        return {**outer, "allOf": self.branches(branches)}

    def _type_list(self, schema: dict[str, Any], kinds: list[Any], ptr: str
                   ) -> dict[str, Any]:
        """``type: [a, b]`` as ``anyOf`` of ``{type: a, <a's keywords>}``, ..."""
        self.move(f"{ptr}/type", "type", Lowering.ANY_OF, kinds)
        typed = set().union(*(BY_TYPE.get(str(k), frozenset()) for k in kinds))
        outer = {k: v for k, v in schema.items() if k != "type" and k not in typed}
        branches = [{"type": k, **{key: v for key, v in schema.items()
                                   if key in BY_TYPE.get(str(k), frozenset())}}
                    for k in kinds]
        return {**outer, "anyOf": self.branches(branches)}

    def how(self, schema: Mapping[str, Any], key: str, value: Any) -> Lowering:
        if key in ("description", "title", "$defs"):
            return Lowering.NONE
        if key == "definitions":  # the root's are renamed $defs; the transform would
            return Lowering.NONE if schema is self.canonical_root else Lowering.DESCRIBE
        if value_row(self.target, key, value) is not None:
            return super().how(schema, key, value)  # the table's row decides
        kind = _kind(schema)
        if key in KEEPS.get(kind, frozenset()) or (key == "type" and kind in TYPES):
            return Lowering.NONE
        if key in COMBINATORS and kind in ("literal", "combinator"):
            return Lowering.NONE
        if key == "type" and kind in ("literal", "combinator"):
            return Lowering.DROP  # beside literals the transform drops it
        return Lowering.DESCRIBE  # where the transform would write it

    def after(self, out: dict[str, Any], schema: Mapping[str, Any], ptr: str) -> dict[str, Any]:
        if isinstance(out.get("oneOf"), list):
            self.move(f"{ptr}/oneOf", "oneOf", Lowering.ANY_OF)
            out["anyOf"] = out.pop("oneOf")
        if out.get("type") == "object":
            out.setdefault("properties", {})
            if "additionalProperties" not in out:
                self.move(ptr, "additionalProperties", Lowering.CLOSE)
                out["additionalProperties"] = False
        return out


def _kind(schema: Mapping[str, Any]) -> str:
    if "$ref" in schema:
        return "ref"
    if literal(schema):
        return "literal"
    if any(isinstance(schema.get(k), list) for k in COMBINATORS):
        return "combinator"
    kind = schema.get("type")
    return kind if isinstance(kind, str) else ""


def _needs_split(schema: Mapping[str, Any]) -> bool:
    """Whether the transform would lose part of the node: a ``$ref`` beside anything
    but ``$defs``; two of ``anyOf``, ``oneOf``, ``allOf``; one beside a ``type`` it
    would drop while still reading that type's keywords."""
    if "$ref" in schema:
        return bool(set(schema) - {"$ref", "$defs"})
    combinators = [k for k in COMBINATORS if isinstance(schema.get(k), list)]
    if len(combinators) > 1:
        return True
    return bool(combinators) and "type" in schema and not literal(schema)


def _renamed_definitions(schema: dict[str, Any]) -> dict[str, Any]:
    """draft-07's root ``definitions`` as ``$defs``, with the references into them."""

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            found = {k: walk(v) for k, v in node.items()}
            ref = found.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/definitions/"):
                found["$ref"] = "#/$defs/" + ref[len("#/definitions/"):]
            return found
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    renamed = walk(schema)
    renamed["$defs"] = renamed.pop("definitions")
    return dict(renamed)
