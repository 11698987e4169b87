"""A target's table applied to published tools: every finding, with its pointer.

:func:`check_tool` walks one tool's published input schema (and its name) and says, for
each keyword, object and bound the target would not take as published, a
:class:`Finding`: where (a JSON pointer into the published tool), what (the rule and the
keyword), what the target does (:class:`~toolc.runtime.dialects.table.Fate`), why, the
fix and the lowering. :func:`check_request` says the same of the bounds a target puts on
one request (the tools of one export). Plain JSON in, no I/O; the walk is bounded by the
schema itself (the build has bounded every published schema before it gets here).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .table import Fate, Limit, Lowering, Row, Target

# Keywords whose value is a schema, a list of schemas, a map of schemas (JSON Schema
# 2020-12 and draft-07's `definitions`, `dependencies`, `additionalItems`).
_SCHEMA = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
           "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems",
           "contentSchema")
_SCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_MAP = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
_KINDS = {bool: "boolean", str: "string", int: "number", float: "number", type(None): "null"}


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a target would not take as published."""

    target: str
    rule: str          # keyword, open-object, optional-property, limit, request-limit,
                       # name, reference
    fate: Fate
    pointer: str       # into the published tool ("/inputSchema/properties/a/default")
    keyword: str       # the keyword (or "name") concerned
    why: str
    fix: str
    lowering: Lowering
    detail: str = ""   # what was found ("format 'uri'", "3 optional: a, b, c")

    @property
    def rejected(self) -> bool:
        return self.fate is Fate.REJECTED

    def says(self, where: str = "") -> str:
        """One line: what the target does with what (``where``, when given), and why."""
        what = self.detail or f"`{self.keyword}`"
        at = f" ({where})" if where else ""
        return f"{self.target} {_VERBS[self.fate].format(what)}{at}: {self.why}"


_VERBS = {Fate.REJECTED: "rejects {}", Fate.DROPPED: "drops {}",
          Fate.DESCRIBED: "moves {} into the description", Fate.CHANGED: "changes {}",
          Fate.KEPT: "keeps {}"}


def _finding(target: Target, rule: str, row: Row, pointer: str, keyword: str,
             detail: str = "") -> Finding:
    return Finding(target.name, rule, row.fate, pointer, keyword, row.why, row.fix,
                   row.lowering, detail)


def check_tool(target: Target, name: str | None, schema: Any, base: str = "/inputSchema"
               ) -> list[Finding]:
    """Everything ``target`` would not take as published of the tool ``name`` (None: its
    name is not checked) whose input schema is ``schema``; pointers start with ``base``."""
    found = list(_name(target, name)) if name is not None else []
    if not isinstance(schema, Mapping):
        return found
    found += _root(target, schema, base)
    walk = _Walk(target, schema, base)
    walk.node(schema, base, 0, top=True)
    found += walk.found
    found += walk.limits()
    found += _recursion(target, schema, base)
    return found


def _name(target: Target, name: str) -> Iterator[Finding]:
    if target.tool_name and target.tool_name_row and not re.match(target.tool_name, name):
        yield _finding(target, "name", target.tool_name_row, "/name", "name",
                       f"the name '{name}'")


def _root(target: Target, schema: Mapping[str, Any], base: str) -> Iterator[Finding]:
    if target.root_object and schema.get("type") != "object":
        yield _finding(target, "keyword", target.root_object, f"{base}/type", "type",
                       "an input schema that is not `type: object`")
    if target.root_any_of and "anyOf" in schema:
        yield _finding(target, "keyword", target.root_any_of, f"{base}/anyOf", "anyOf",
                       "`anyOf` at the root")


class _Walk:
    """One schema document, walked once; the counts its limits need kept on the way."""

    def __init__(self, target: Target, root: Mapping[str, Any], base: str):
        self.target, self.root, self.base = target, root, base
        self.found: list[Finding] = []
        self.properties = 0
        self.depth = 0
        self.deepest = base
        self.enum_values = 0
        self.string_chars = 0
        self.large_enum: list[tuple[str, int]] = []   # (pointer, characters)

    def node(self, node: Any, ptr: str, depth: int, *, top: bool = False) -> None:
        if not isinstance(node, Mapping):
            return
        for key, value in node.items():
            self._keyword(key, value, ptr)
        if node.get("type") == "object" or isinstance(node.get("properties"), Mapping):
            self._object(node, ptr, top)
            depth += 1
            if depth > self.depth:  # the deepest object, first found: where a bound is said
                self.depth, self.deepest = depth, ptr
        self._subschemas(node, ptr, depth)

    def _subschemas(self, node: Mapping[str, Any], ptr: str, depth: int) -> None:
        for key in _SCHEMA:
            sub = node.get(key)
            if isinstance(sub, list) and key == "items":  # draft-07's tuple form
                for i, item in enumerate(sub):
                    self.node(item, f"{ptr}/items/{i}", depth)
            elif isinstance(sub, Mapping):
                self.node(sub, f"{ptr}/{key}", depth)
        for key in _SCHEMA_LIST:
            subs = node.get(key)
            if isinstance(subs, list):
                for i, item in enumerate(subs):
                    self.node(item, f"{ptr}/{key}/{i}", depth)
        for key in _SCHEMA_MAP:
            subs = node.get(key)
            if isinstance(subs, Mapping):
                for name, item in subs.items():
                    self.string_chars += len(str(name))
                    self.node(item, f"{ptr}/{key}/{_token(str(name))}", depth)

    def _keyword(self, key: str, value: Any, ptr: str) -> None:
        target, at = self.target, f"{ptr}/{_token(key)}"
        row = target.row(key)
        if row.fate is not Fate.KEPT:
            self.found.append(_finding(target, "keyword", row, at, key))
            return
        if key == "format" and isinstance(value, str) and target.formats is not None \
                and value not in target.formats and target.other_format is not None:
            self.found.append(_finding(target, "keyword", target.other_format, at, key,
                                       f"format '{value}'"))
        elif key == "minItems" and target.min_items_most is not None \
                and isinstance(value, int) and value > target.min_items_most \
                and target.large_min_items is not None:
            self.found.append(_finding(target, "keyword", target.large_min_items, at, key,
                                       f"`minItems: {value}`"))
        elif key == "type" and isinstance(value, list) and target.type_list is not None:
            self.found.append(_finding(target, "keyword", target.type_list, at, key,
                                       "a `type` list"))
        elif key == "additionalProperties" and value is not False \
                and target.open_object is not None and (value or not isinstance(value, bool)):
            self.found.append(_finding(target, "open-object", target.open_object, at, key,
                                       f"`additionalProperties: {_shown(value)}`"))
        elif key in ("enum", "const"):
            self._values(key, value if key == "enum" else [value], at)
        elif key == "$ref" and isinstance(value, str) and not value.startswith("#") \
                and target.local_refs is not None:
            self.found.append(_finding(target, "reference", target.local_refs, at, key,
                                       f"the reference '{value}'"))

    def _values(self, key: str, values: Any, at: str) -> None:
        if not isinstance(values, list):
            return
        if key == "enum":
            self.enum_values += len(values)
        chars = sum(len(v) for v in values if isinstance(v, str))
        self.string_chars += chars
        if key == "enum" and len(values) > 250 and all(isinstance(v, str) for v in values):
            self.large_enum.append((at, chars))
        kinds, row = self.target.enum_kinds, self.target.other_enum_value
        if kinds is None or row is None:
            return
        odd = [v for v in values if _KINDS.get(type(v), "structure") not in kinds]
        if odd:
            self.found.append(_finding(self.target, "keyword", row, at, key,
                                       f"`{key}` value {_shown(odd[0])}"))

    def _object(self, node: Mapping[str, Any], ptr: str, top: bool) -> None:
        target = self.target
        props = node.get("properties")
        props = props if isinstance(props, Mapping) else {}
        self.properties += len(props)
        if target.objects_closed is not None and "additionalProperties" not in node:
            self.found.append(_finding(target, "open-object", target.objects_closed, ptr,
                                       "additionalProperties", "an object without "
                                       "`additionalProperties: false`"))
        required = _names(node.get("required"))
        if target.all_required is not None:
            for name in props:
                if name not in required:
                    self.found.append(_finding(
                        target, "optional-property", target.all_required,
                        f"{ptr}/properties/{_token(str(name))}", "required",
                        f"the optional property '{name}'"))
        if top and target.property_name and target.property_name_row is not None:
            for name in props:
                if not re.match(target.property_name, str(name)):
                    self.found.append(_finding(
                        target, "name", target.property_name_row,
                        f"{ptr}/properties/{_token(str(name))}", "properties",
                        f"the parameter name '{name}'"))

    def limits(self) -> Iterator[Finding]:
        measured = {"properties": self.properties, "depth": self.depth,
                    "enum_values": self.enum_values, "string_chars": self.string_chars}
        for key, limit in self.target.limits.items():
            if key == "large_enum_chars":
                for at, chars in self.large_enum:
                    if chars > limit.most:
                        yield _over(self.target, limit, at, chars)
            elif measured.get(key, 0) > limit.most:
                at = self.deepest if key == "depth" else self.base
                yield _over(self.target, limit, at, measured[key])


def _over(target: Target, limit: Limit, pointer: str, count: int) -> Finding:
    why = f"at most {limit.most:,} {limit.counts}"
    return Finding(target.name, "limit", limit.fate, pointer, "", why,
                   "split the tool, or make its schema smaller", limit.lowering,
                   f"{count:,} {limit.counts}")


def _recursion(target: Target, schema: Mapping[str, Any], base: str) -> Iterator[Finding]:
    """A reference that leads back to a schema it is part of, directly or through other
    references (one finding: the first reference that closes a cycle)."""
    if target.recursion is None:
        return
    refs = [(at, ref[1:]) for at, ref in _references(schema, "") if ref.startswith("#")]
    targets = {to for _, to in refs} | {""}
    edges: dict[str, list[tuple[str, str]]] = {}
    for at, to in refs:  # from the innermost referenced schema holding the reference
        holder = max((t for t in targets if at == t or at.startswith(t + "/")), key=len)
        edges.setdefault(holder, []).append((at, to))
    closing = _cycle(edges)
    if closing is not None:
        at, ref = closing
        yield _finding(target, "reference", target.recursion, base + at, "$ref",
                       f"the reference '#{ref}', which leads back to itself")


def _cycle(edges: Mapping[str, list[tuple[str, str]]]) -> tuple[str, str] | None:
    """The first edge (reference pointer, target) that closes a cycle, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    for start in sorted(edges):
        if start in state:
            continue
        stack: list[tuple[str, Iterator[tuple[str, str]]]] = [(start, iter(edges[start]))]
        state[start] = 1
        while stack:
            node, out = stack[-1]
            step = next(out, None)
            if step is None:
                state[node] = 2
                stack.pop()
                continue
            at, to = step
            if state.get(to) == 1:
                return at, to
            if to not in state:
                state[to] = 1
                stack.append((to, iter(edges.get(to, ()))))
    return None


def _references(node: Any, ptr: str) -> Iterable[tuple[str, str]]:
    """Every `$ref` of a document: (its pointer, its value), in document order."""
    stack: list[tuple[Any, str]] = [(node, ptr)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, Mapping):
            ref = item.get("$ref")
            if isinstance(ref, str):
                yield at + "/$ref", ref
            stack.extend((v, f"{at}/{_token(str(k))}") for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, f"{at}/{i}") for i, v in reversed(list(enumerate(item))))


def check_request(target: Target, tools: Iterable[tuple[str, Any]]) -> list[Finding]:
    """The bounds ``target`` puts on one request, over ``tools`` ((name, input schema)):
    a finding per bound passed, at the pointer of none (the export's)."""
    counts = {"strict_tools": 0, "optional_params": 0, "union_params": 0}
    for _name, schema in tools:
        counts["strict_tools"] += 1
        for node in _objects(schema):
            props = node.get("properties")
            if not isinstance(props, Mapping):
                continue
            listed = node.get("required")
            required = _names(listed)
            counts["optional_params"] += sum(1 for n in props if n not in required)
            counts["union_params"] += sum(1 for p in props.values() if _is_union(p))
    found = []
    for key, limit in target.request.items():
        if counts.get(key, 0) > limit.most:
            found.append(Finding(target.name, "request-limit", limit.fate, "", "",
                                 f"at most {limit.most:,} {limit.counts}",
                                 "export fewer tools to this provider, or make fewer "
                                 "parameters optional or unions", limit.lowering,
                                 f"{counts[key]:,} {limit.counts}"))
    return found


def _objects(schema: Any) -> Iterator[Mapping[str, Any]]:
    stack = [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if isinstance(item.get("properties"), Mapping):
                yield item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _is_union(schema: Any) -> bool:
    return isinstance(schema, Mapping) and (
        isinstance(schema.get("anyOf"), list) or isinstance(schema.get("type"), list))


def _names(listed: Any) -> set[str]:
    """The names a `required` list gives (anything else in it names nothing)."""
    return {n for n in listed if isinstance(n, str)} if isinstance(listed, list) else set()


def _token(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def _shown(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, Mapping):
        return "{...}" if value else "{}"
    if isinstance(value, list):
        return "[...]"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."
