"""A target's view of a published tool: the canonical schema lowered into its dialect.

:func:`lower_tool` takes a tool as published (the golden file's JSON, ``tools/list``'s
wire shape) and writes what one target is sent instead: its name, its description and
its input schema rewritten as the target's table says each keyword is carried
(:class:`~toolc.runtime.dialects.table.Lowering`): a constraint the target does not take
written into the schema's description ("(at most 500 characters)"), an optional
property made a required union with null, an object closed, ``oneOf`` written as
``anyOf``... Each thing moved is a :class:`Moved`, at its pointer into the canonical
tool; the view states them all (``x-toolc-lowered``), so the change is visible and
reviewed where the provider SDKs make it silently. What cannot be lowered (a finding of
the target's check that no move carries, or a shape the lowering itself cannot write)
is a problem of the view, said by the build's check at the spec line.

The view is derived from the canonical schema only, deterministically (the same input
gives the same view, whatever its key order): the build publishes it as a golden file
(``toolc.publish.views``) and an adapter lowers the listed tool with this same function,
so that what a framework is handed is the reviewed file. The runtime still validates the
canonical arguments (``toolc.runtime.dialects.arguments`` maps a view's back).

Plain JSON in and out, no compiler import; every walk is bounded by the schema itself,
and a schema nested past Python's recursion is a problem, never an exception.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from ..json_pointers import MISSING, resolve_pointer
from .rules import Finding
from .table import Fate, Lowering, Row, Target

# Keywords whose value is a schema, a list of schemas, a map of schemas.
SCHEMA = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
          "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems",
          "contentSchema")
SCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
SCHEMA_MAP = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
ANNOTATIONS = frozenset({"description", "title"})
LOWERED_KEY = "x-toolc-lowered"
UNLOWERED_KEY = "x-toolc-unlowered"
TARGET_KEY = "x-toolc-target"
_NO_VALUE = object()
_LOSSY = {(Lowering.ANY_OF, "oneOf"), (Lowering.CLOSE, "additionalProperties")}


@dataclass(frozen=True, slots=True)
class Moved:
    """One thing the lowering wrote otherwise: where it is in the canonical tool, the
    keyword, how it is carried now, and the value it had (when it was moved away)."""

    pointer: str
    keyword: str
    lowering: Lowering
    value: Any = _NO_VALUE

    def as_json(self) -> dict[str, Any]:
        found = {"pointer": self.pointer, "keyword": self.keyword,
                 "lowering": self.lowering.value}
        if self.value is not _NO_VALUE:
            found["value"] = self.value
        return found


def plain_copy(value: Any) -> Any:
    """A plain JSON copy (dicts, lists, scalars), key order kept."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError, RecursionError):
        return {}


def token(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


class Lowerer:
    """The walk every target shares: each keyword kept (its subschemas lowered), written
    into the description, or dropped, as the table says; a target adds what it
    restructures before (:meth:`before`) and after (:meth:`after`) the keywords."""

    def __init__(self, target: Target, root: Any):
        self.target = target
        self.canonical_root = root
        self.moved: list[Moved] = []
        self.problems: list[Finding] = []
        # Moves after which the view takes other arguments than the canonical schema
        # (pointer, keyword): what they carry is still said, as a warning.
        self.lossy: set[tuple[str, str]] = set()
        # Lists of branches the lowering wrote (a type list's, a split node's): each
        # branch holds keywords of the node itself, at the node's own pointer.
        self._written: set[int] = set()

    # -- records ---------------------------------------------------------------------

    def move(self, ptr: str, keyword: str, lowering: Lowering, value: Any = _NO_VALUE,
             *, lossy: bool = False) -> None:
        """Record a move; ``lossy``: the view then takes other arguments than the
        canonical schema (always so for `oneOf` written as `anyOf`, which takes a value
        of several branches, and for an object closed that the schema leaves open)."""
        self.moved.append(Moved(ptr, keyword, lowering, value))
        if lossy or (lowering, keyword) in _LOSSY:
            self.lossy.add((ptr, keyword))

    def problem(self, ptr: str, keyword: str, detail: str, why: str, fix: str = "") -> None:
        """Something the lowering cannot write for the target: the view keeps it as it
        was, and the build's check reports it (TC601)."""
        self.problems.append(Finding(self.target.name, "keyword", Fate.REJECTED, ptr,
                                     keyword, why, fix, Lowering.NO, detail))

    def branches(self, written: list[Any]) -> list[Any]:
        """``written`` as branches the lowering made of one node's keywords."""
        self._written.add(id(written))
        return written

    # -- the walk --------------------------------------------------------------------

    def root(self, schema: Any) -> Any:
        return self.node(schema, "/inputSchema")

    def node(self, schema: Any, ptr: str) -> Any:
        if not isinstance(schema, dict):
            return schema
        schema = self.before(schema, ptr)
        out: dict[str, Any] = {}
        phrases: list[str] = []
        for key, value in schema.items():
            how = self.how(schema, key, value)
            at = f"{ptr}/{token(key)}"
            if how is Lowering.DESCRIBE:
                phrases.append(phrase(key, value))
                self.move(at, key, Lowering.DESCRIBE, value)
            elif how is Lowering.DROP:
                self.move(at, key, Lowering.DROP, value)
            else:
                out[key] = self.children(key, value, ptr)
        if phrases:
            out["description"] = with_phrases(out.get("description"), phrases)
        return self.after(out, schema, ptr)

    def children(self, key: str, value: Any, ptr: str) -> Any:
        if key in SCHEMA and isinstance(value, dict):
            return self.node(value, f"{ptr}/{key}")
        if key in SCHEMA_LIST and isinstance(value, list):
            if id(value) in self._written:
                return [self.node(v, ptr) for v in value]
            return [self.node(v, f"{ptr}/{key}/{i}") for i, v in enumerate(value)]
        if key in SCHEMA_MAP and isinstance(value, dict):
            return {n: self.node(v, f"{ptr}/{key}/{token(str(n))}") for n, v in value.items()}
        if key == "items" and isinstance(value, list):  # draft-07's tuple form
            return [self.node(v, f"{ptr}/items/{i}") for i, v in enumerate(value)]
        return value

    def how(self, schema: Mapping[str, Any], key: str, value: Any) -> Lowering:
        """What becomes of one keyword: NONE (kept, its subschemas lowered), DESCRIBE,
        DROP; any other lowering is done by :meth:`after` on the kept keyword."""
        row = value_row(self.target, key, value)
        if row is None:
            return Lowering.NONE
        if row.lowering in (Lowering.DESCRIBE, Lowering.DROP):
            return row.lowering
        return Lowering.NONE

    def before(self, schema: dict[str, Any], ptr: str) -> dict[str, Any]:
        return schema

    def after(self, out: dict[str, Any], schema: Mapping[str, Any], ptr: str) -> dict[str, Any]:
        return out


def value_row(target: Target, key: str, value: Any) -> Row | None:
    """The row that decides ``key: value`` when the target does not keep it as it is
    (None: kept): the keyword's own row, else the rule its value breaks."""
    row = target.row(key)
    if row.fate is not Fate.KEPT:
        return row
    if key == "format" and isinstance(value, str) and target.formats is not None \
            and value not in target.formats and target.other_format is not None:
        return target.other_format
    if key == "items" and isinstance(value, (list, bool)):  # a tuple's items (draft-07)
        return target.row("prefixItems")
    if key == "minItems" and target.min_items_most is not None and isinstance(value, int) \
            and value > target.min_items_most and target.large_min_items is not None:
        return target.large_min_items
    return None


def with_phrases(description: Any, phrases: list[str]) -> str:
    """The description with what was moved into it, in brackets at its end."""
    said = "(" + "; ".join(phrases) + ")"
    if isinstance(description, str) and description.strip():
        return f"{description.rstrip()} {said}"
    return said


_COUNTED = {"minLength": ("at least", "character", "characters"),
            "maxLength": ("at most", "character", "characters"),
            "minItems": ("at least", "item", "items"), "maxItems": ("at most", "item", "items"),
            "minProperties": ("at least", "property", "properties"),
            "maxProperties": ("at most", "property", "properties")}
_BOUNDS = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
           "exclusiveMaximum": "less than", "multipleOf": "a multiple of"}
_FLAGS = {"deprecated": "deprecated", "readOnly": "read-only", "writeOnly": "write-only",
          "uniqueItems": "no item twice"}


def phrase(keyword: str, value: Any) -> str:
    """What a keyword says, in words a model reads: ``maxLength: 500`` -> ``at most 500
    characters``; a keyword without words of its own as ``keyword: <JSON>``."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if keyword in _COUNTED and number:
        most, one, many = _COUNTED[keyword]
        return f"{most} {compact(value)} {one if value == 1 else many}"
    if keyword in _BOUNDS and number:
        return f"{_BOUNDS[keyword]} {compact(value)}"
    if keyword in _FLAGS and value is True:
        return _FLAGS[keyword]
    if keyword == "pattern" and isinstance(value, str):
        return f"matching the pattern {compact(value)}"
    if keyword == "format" and isinstance(value, str):
        return f"format: {value}"
    if keyword == "default":
        return f"default: {compact(value)}"
    if keyword == "examples" and isinstance(value, list):
        return "for example " + ", ".join(compact(v) for v in value)
    return f"{keyword}: {compact(value)}"


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), sort_keys=True)


def admits_null(schema: Any, root: Any, depth: int = 0) -> bool:
    """Whether ``schema`` surely accepts JSON null (conservative: a keyword it does not
    read, or a reference it cannot follow, says no). The lowering writes a union with
    null for an optional property that does not; the arguments' mapping back reads a
    null there as absent (``toolc.runtime.dialects.arguments``): the same answer both
    ways."""
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict) or depth > 32:
        return False
    known = {"type", "enum", "const", "anyOf", "oneOf", "$ref", *ANNOTATIONS, "default",
             "examples", "deprecated", "readOnly", "writeOnly", "$comment", "$defs",
             "format", "pattern", "minLength", "maxLength", "minimum", "maximum",
             "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "items", "minItems",
             "maxItems", "uniqueItems", "properties", "required", "additionalProperties"}
    if set(schema) - known:
        return False
    kind = schema.get("type")
    if isinstance(kind, str) and kind != "null":
        return False
    if isinstance(kind, list) and "null" not in kind:
        return False
    if "enum" in schema and not (isinstance(schema["enum"], list) and None in schema["enum"]):
        return False
    if "const" in schema and schema["const"] is not None:
        return False
    for key in ("anyOf", "oneOf"):
        if key in schema and not (isinstance(schema[key], list) and any(
                admits_null(b, root, depth + 1) for b in schema[key])):
            return False
    if "$ref" in schema:
        target = follow(schema["$ref"], root)
        return target is not None and admits_null(target, root, depth + 1)
    return True


def follow(ref: Any, root: Any) -> Any:
    """The schema a local reference (``#/...``) names in ``root``, or None."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    found = resolve_pointer(root, unquote(ref[1:]))
    return None if found is MISSING else found
