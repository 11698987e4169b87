"""JSON Schemas -> pydantic models and type annotations: the handler's parameter types.

What a call may carry is decided by the validator of record, which checks the published
schema itself (``toolc.runtime.validation``); a model only converts what it accepted
into typed arguments (nested objects into models, defaults filled in). So a model must
accept every value its schema accepts: each schema gets the Python type
``toolc.schema_typing`` says, a superset of its values, and no constraint is repeated
here (bounds, patterns, ``not``, ``uniqueItems`` ... are the validator's alone).

Models are built from the PUBLISHED schemas (what the model is told and what the golden
files hold): ``required``, defaults, ``nullable`` written out as ``anyOf [.., null]``.
The spec's own schema is walked alongside only to recognise where a named type was
used, so the code says ``level: Severity`` instead of repeating the type inline.

The mapping: string/integer/number/boolean/null -> ``str``/``int``/``float``/``bool``/
``None``; ``enum``/``const`` -> ``Literal``; arrays -> ``list[...]``; objects with
properties -> nested models; other objects -> ``dict[str, ...]``; ``anyOf``/``oneOf`` ->
unions (a branch's model named by its ``title``, else ``Option<n>``); what no type says
-> ``Any``. Models read JSON as JSON Schema does: a whole float
is an integer, a number stays the int or float it came as (``int | float``), and
undeclared properties are kept where the schema allows them.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

from ..ir import JSON, ModuleIR
from ..schema_typing import (
    SCALARS,
    extra_schema,
    is_model_schema,
    items_schema,
    literal_values,
    widening,
)
from .layout import (
    ANY,
    INT,
    NONE,
    Call,
    Lit,
    Node,
    Raw,
    Sub,
    Union,
    annotated,
    field_call,
    literal,
    plain,
    union,
)
from .names import JSON_TYPES, ModuleNames, Scope, camel, field_name
from .schemas import KEEPS_NAMED_TYPE, child, holds_object, recursive_aliases, text_of

# What a Field carries to readers of the model (the schema's words, not its rules).
ANNOTATING = ("title", "description", "examples")
# The Python type of each JSON type a value of it arrives as.
# (No validator of our own: a Python call per value is most of a conversion's cost. A
# whole float arrives as an int through pydantic's own lax int; one beyond its range,
# 1e300, is converted before a second try, see `rt.Tool`. A number is the int or float
# it came as: 10**400 has no float.)
_SCALAR_NODES: dict[str, Node] = {
    "string": Raw("str"),
    "integer": INT,
    "number": Union((INT, Raw("float"))),
    "boolean": Raw("bool"),
}
# Which literal values belong to which JSON type (a bool is no integer in JSON).
_OF_KIND = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
}


@dataclass(slots=True)
class Typed:
    """A converted schema: its type and the words that describe it."""

    base: Node
    nullable: bool = False
    models: bool = False              # the type involves a pydantic model
    notes: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)     # title, description, examples
    own_model: bool = False           # base is the model made from this very schema

    def wrapped(self) -> Node:
        """The type with its description, for a place that has no ``Field`` of its own
        (list items, union branches, dict values)."""
        return annotated(self.base, {} if self.own_model else self.meta)


@dataclass(slots=True)
class FieldDef:
    raw: str                          # the property, as the spec names it
    name: str
    annotation: Node                  # what the model converts to
    plain: Node                       # what the handler receives
    call: Call                        # the Field(...) on the right
    notes: list[str]


@dataclass(slots=True)
class ModelDef:
    name: str
    doc: str | None
    config: dict[str, str | bool]
    fields: list[FieldDef]
    extra: Node | None = None         # type of additional properties, when a schema
    deps: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class AliasDef:
    name: str
    value: Node
    deps: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)


Definition = ModelDef | AliasDef


class ModelSet:
    """The models and aliases of one module, in the order they are defined."""

    def __init__(self, module: ModuleIR, names: ModuleNames,
                 project: dict[str, tuple[ModuleIR, ModuleNames]]):
        self.module = module
        self.names = names
        self.project = project
        self.scope: Scope = names.scope.copy()
        self.defs: list[Definition] = []
        self.recursive_aliases = recursive_aliases(module)
        self._current: set[str] = set()

    # -- the three kinds of top-level definitions ---------------------------------------

    def define_named_types(self) -> None:
        for raw, named in self.module.types.items():
            name = self.names.types[raw]
            if raw in self.recursive_aliases:
                meta: dict[str, Any] = {k: named.schema[k] for k in ANNOTATING
                                        if k in named.schema}
                self.defs.append(AliasDef(name, annotated(ANY, meta), notes=[
                    "a recursive type that is not an object: any value its schema accepts"]))
            elif is_model_schema(named.schema):
                self.define_model(name, named.schema, named.spec, exact=True)
            else:
                self._current = set()
                typed = self.convert(named.schema, named.spec, name)
                self.defs.append(AliasDef(name, typed.wrapped(), self._current,
                                          typed.notes))

    def define_model(self, name: str, schema: dict[str, JSON], spec: JSON, *,
                     exact: bool = False) -> str:
        """A model for an object schema; returns its (claimed) class name."""
        if not exact:
            name = self.scope.claim(name)
        saved, self._current = self._current, set()
        model = ModelDef(name, text_of(schema.get("description")), {}, [])
        # The validator has refused what the schema refuses: a model never refuses an
        # undeclared property, it keeps it where the schema allows it and drops it
        # where the schema says there is none (patternProperties may still allow some).
        closed = schema.get("additionalProperties") is False \
            and "patternProperties" not in schema
        model.config["extra"] = "ignore" if closed else "allow"
        extra = extra_schema(schema)
        if extra is not None:
            model.extra = self.convert(extra, child(spec, "additionalProperties"),
                                       name + "Extra").wrapped()
        required = set(schema.get("required") or ())
        spec_props = spec.get("properties") if isinstance(spec, dict) else None
        fields = self.names.field_scope()
        for raw, prop in (schema.get("properties") or {}).items():
            sub_spec = spec_props.get(raw) if isinstance(spec_props, dict) else None
            typed = self.convert(prop, sub_spec, name + camel(raw, lead="Field"))
            model.fields.append(self._field(raw, prop, typed, raw in required, fields))
        model.notes = _widened_note(schema)
        model.deps = self._current - {name}
        self.defs.append(model)
        self._current = saved | {name}
        return name

    # -- fields -------------------------------------------------------------------------

    def _field(self, raw: str, prop: JSON, typed: Typed, required: bool,
               scope: Scope) -> FieldDef:
        name = field_name(raw, scope)
        kwargs: dict[str, Any] = {"alias": raw} if name != raw else {}
        kwargs.update(typed.meta)
        annotation: Node = typed.base
        handler_type = plain(typed.base)
        default: Node | None = None
        if not required:
            if isinstance(prop, dict) and "default" in prop:
                value = prop["default"]
                if typed.models and holds_object(value):
                    default = Call("cast", ((None, Raw('"Any"')), (None, Lit(value))))
                    kwargs["validate_default"] = True
                else:
                    default = Lit(value)
            else:
                default = NONE
                handler_type = union(handler_type, NONE)
                annotation = union(annotation, NONE)
        return FieldDef(raw, name, annotation, handler_type, field_call(kwargs, positional=default),
                        typed.notes)

    # -- schemas ------------------------------------------------------------------------

    def convert(self, schema: JSON, spec: JSON, hint: str, depth: int = 0) -> Typed:
        """The type of one schema; ``spec`` is its unresolved form, when known."""
        if not isinstance(schema, dict):  # true or false: the validator decides
            return Typed(ANY, nullable=True)
        if isinstance(spec, dict) and isinstance(spec.get("type"), str) \
                and spec["type"] not in JSON_TYPES and depth < 20:
            typed = self._named(schema, spec, hint, depth)
        else:
            typed = self._structural(schema, spec, hint, depth)
            if not typed.own_model:
                typed.notes = typed.notes + _widened_note(schema)
        typed.meta = {k: schema[k] for k in ANNOTATING if k in schema}
        return typed

    def _named(self, schema: JSON, spec: dict[str, JSON], hint: str, depth: int) -> Typed:
        ref = str(spec["type"])
        if set(spec) - KEEPS_NAMED_TYPE:
            # The property changes the named type's shape: write the merged schema out.
            module_name, _, type_name = ref.rpartition(".")
            module = self.project[module_name][0] if module_name else self.module
            named = module.types.get(type_name)
            merged = {**(named.spec if named else {}),
                      **{k: v for k, v in spec.items() if k != "type"}}
            return self.convert(schema, merged, hint, depth + 1)
        node, is_model = self._ref_node(ref)
        nullable = spec.get("nullable") is True or node == ANY
        return Typed(union(node, NONE) if nullable else node, nullable=nullable,
                     models=is_model)

    def _ref_node(self, ref: str) -> tuple[Node, bool]:
        module_name, _, type_name = ref.rpartition(".")
        if module_name and module_name != self.module.name:
            other, other_names = self.project[module_name]
            named = other.types[type_name]
            text = f"{self.names.modules[module_name]}.{other_names.types[type_name]}"
            return Raw(text), is_model_schema(named.schema)
        name = self.names.types[type_name]
        self._current.add(name)
        return Raw(name), is_model_schema(self.module.types[type_name].schema)

    def _structural(self, schema: dict[str, JSON], spec: JSON, hint: str, depth: int) -> Typed:
        kind = schema.get("type")
        if isinstance(kind, list):
            parts = [self._typed_as(schema, k, spec, hint, depth) for k in kind
                     if isinstance(k, str)]
            return Typed(union(*(p.wrapped() for p in parts)) if parts else ANY,
                         nullable="null" in kind or not parts,
                         models=any(p.models for p in parts))
        if isinstance(kind, str):
            return self._typed_as(schema, kind, spec, hint, depth)
        values = literal_values(schema)
        if values is not None:
            return Typed(literal(*(Lit(v) for v in values)), nullable=None in values)
        for key in ("anyOf", "oneOf"):
            if isinstance(schema.get(key), list) and schema[key]:
                return self._union(schema, key, spec, hint, depth)
        branches = schema.get("allOf")
        if isinstance(branches, list) and len(branches) == 1:
            return self.convert(branches[0], child(spec, "allOf", 0), hint, depth)
        return Typed(ANY, nullable=True)

    def _typed_as(self, schema: dict[str, JSON], kind: str, spec: JSON, hint: str,
                  depth: int) -> Typed:
        """The type of the values of ``schema`` that are of JSON type ``kind``."""
        if kind == "null":
            return Typed(NONE, nullable=True)
        if kind in SCALARS:
            values = literal_values(schema)
            of_kind = [v for v in values or () if _OF_KIND[kind](v)]
            if of_kind:
                return Typed(literal(*(Lit(v) for v in of_kind)))
            return Typed(_SCALAR_NODES[kind])
        if kind == "array":
            items = items_schema(schema)
            if items is None:
                return Typed(Sub("list", (ANY,)))
            inner = self.convert(items, child(spec, "items"), hint + "Item", depth)
            return Typed(Sub("list", (inner.wrapped(),)), models=inner.models,
                         notes=inner.notes)
        if kind == "object":
            if is_model_schema(schema):
                name = self.define_model(hint, schema, spec)
                return Typed(Raw(name), models=True, own_model=True)
            extra = extra_schema(schema)
            if extra is None:
                return Typed(Sub("dict", (Raw("str"), ANY)))
            inner = self.convert(extra, child(spec, "additionalProperties"), hint + "Value",
                                 depth)
            return Typed(Sub("dict", (Raw("str"), inner.wrapped())), models=inner.models,
                         notes=inner.notes)
        return Typed(ANY, nullable=True)

    def _union(self, schema: dict[str, JSON], key: str, spec: JSON, hint: str,
               depth: int) -> Typed:
        branches = schema[key]
        spec_branches = spec.get(key) if isinstance(spec, dict) else None
        nullable_spec = isinstance(spec, dict) and spec.get("nullable") is True
        real = [b for b in branches if b != {"type": "null"}]
        parts: list[Typed] = []
        for i, branch in enumerate(branches):
            if isinstance(spec_branches, list) and len(spec_branches) == len(branches):
                sub_spec: JSON = spec_branches[i]
            elif nullable_spec and len(real) == 1 and isinstance(spec, dict):
                sub_spec = {k: v for k, v in spec.items()
                            if k not in ("nullable", "description", "default", "required")}
            else:
                sub_spec = None
            name = hint if len(real) == 1 else hint + _branch_name(branch, i)
            parts.append(self.convert(branch, sub_spec, name, depth))
        return Typed(union(*(p.wrapped() for p in parts)),
                     nullable=any(p.nullable for p in parts),
                     models=any(p.models for p in parts))


def _branch_name(branch: JSON, index: int) -> str:
    """A union branch's part of its class name: its ``title`` (``By date``: ``ByDate``),
    else ``Option<n>``."""
    title = branch.get("title") if isinstance(branch, dict) else None
    named = camel(title, lead="Option") if isinstance(title, str) else ""
    return named if named not in ("", "Option") else f"Option{index + 1}"


def _widened_note(schema: dict[str, JSON]) -> list[str]:
    """A comment for the reader where the type is wider than the schema (TC220)."""
    reason = widening(schema)
    return textwrap.wrap(f"typed widely (TC220): {reason}", 84) if reason else []
