"""JSON Schemas -> pydantic models and type annotations.

Models are built from the PUBLISHED schemas (what the model is told and what the
golden files hold), so that the validator accepts exactly what the schema says:
``required``, defaults, ``nullable`` written out as ``anyOf [.., null]``. The spec's own
schema is walked alongside only to recognise where a named type was used, so the code
says ``level: Severity`` instead of repeating the type inline.

The mapping: string/integer/number/boolean/null -> ``str``/``int``/``float``/``bool``/
``None`` with their bounds as ``Field`` constraints; ``enum``/``const`` -> ``Literal``;
arrays -> ``list[...]``; objects with properties -> nested models (``extra="forbid"``
when ``additionalProperties: false``, else ``"allow"``, as JSON Schema allows extra
keys); other objects -> ``dict[str, ...]``; ``anyOf``/``oneOf`` -> unions. What pydantic
cannot express (``not``, ``uniqueItems``, ``oneOf``'s "exactly one", a recursive type that
is not an object, ...) is typed loosely and checked against that piece of the published
schema (``rt.schema_check``), so that a model accepts exactly what its schema accepts. A
property that may be left out but may not be ``null`` is ``X | None = None`` with a
validator refusing an explicit ``null``.

Arguments arrive as JSON, and JSON's types are not converted into one another: models
are strict (``"5"`` is not an integer, ``true`` is not ``1``), except that a whole float
is an integer as JSON Schema says (``rt.integral``), and a ``Literal`` of numbers tells
``true`` from ``1`` (``rt.json_equal``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..ir import JSON, ModuleIR, TypeIR
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
    validated,
)
from .names import JSON_TYPES, ModuleNames, Scope, camel, field_name
from .schemas import (
    ANNOTATION_KEYS,
    SCALARS,
    child,
    constraints,
    holds_object,
    is_model_schema,
    recursive_aliases,
    referenced_defs,
    text_of,
    unchecked_part,
)

# What a Field carries to readers of the model (the schema's words, not its rules).
ANNOTATING = ("title", "description", "examples")


# Keywords that describe a property without changing what it accepts: a property that
# uses a named type and adds only these keeps the type's name.
@dataclass(slots=True)
class Typed:
    """A converted schema: the type, and the ``Field`` arguments that belong to it."""

    base: Node
    kwargs: dict[str, Any] = field(default_factory=dict)   # constraints
    nullable: bool = False
    models: bool = False              # the type involves a pydantic model
    notes: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)     # title, description, examples
    own_model: bool = False           # base is the model made from this very schema

    def wrapped(self) -> Node:
        """The type with its constraints and description, for a place that has no
        ``Field`` of its own (list items, union branches, dict values)."""
        meta = {} if self.own_model else self.meta
        return annotated(self.base, {**meta, **self.kwargs})


@dataclass(slots=True)
class FieldDef:
    name: str
    annotation: Node                  # what the model validates
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
    check: Node | None = None         # the schema part checked on the whole input object


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
        self._pattern = False            # the model being made validates a regex
        self._alias_patterns: dict[tuple[str, str], bool] = {}
        self._defs: dict[str, JSON] = {}  # the $defs of the schema being converted

    # -- the three kinds of top-level definitions ---------------------------------------

    def define_named_types(self) -> None:
        for raw, named in self.module.types.items():
            name = self.names.types[raw]
            self._defs = _defs_of(named.schema)
            if raw in self.recursive_aliases:
                meta: dict[str, Any] = {k: named.schema[k] for k in ANNOTATING
                                        if k in named.schema}
                value = annotated(self._checked(ANY, named.schema), meta)
                self.defs.append(AliasDef(name, value, notes=[
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
        else:  # a schema of its own (a tool's input or output, a named type)
            self._defs = _defs_of(schema)
        saved, self._current = self._current, set()
        saved_pattern, self._pattern = self._pattern, False
        model = ModelDef(name, text_of(schema.get("description")), {}, [])
        extra = schema.get("additionalProperties", True)
        # (patternProperties may allow what additionalProperties refuses: the check says)
        closed = extra is False and "patternProperties" not in schema
        model.config["extra"] = "forbid" if closed else "allow"
        # JSON's types are not converted into one another: "5" is not an integer, true
        # is not 1 (pydantic's lax mode would accept both). Strict floats take ints.
        model.config["strict"] = True
        if isinstance(extra, dict) and "patternProperties" not in schema:
            model.extra = self.convert(extra, child(spec, "additionalProperties"),
                                       name + "Extra").wrapped()
        required = set(schema.get("required") or ())
        spec_props = spec.get("properties") if isinstance(spec, dict) else None
        fields = self.names.field_scope()
        for raw, prop in (schema.get("properties") or {}).items():
            sub_spec = spec_props.get(raw) if isinstance(spec_props, dict) else None
            typed = self.convert(prop, sub_spec, name + camel(raw, lead="Field"))
            model.fields.append(self._field(raw, prop, typed, raw in required, fields, model))
        part = unchecked_part(schema, model=True)
        if part:
            model.check = Call("rt.object_check", ((None, self._schema_text(part)),))
        model.deps = self._current - {name}
        if self._pattern:
            # JSON Schema regexes need Python's engine (lookarounds, backreferences),
            # not pydantic's default Rust one.
            model.config["regex_engine"] = "python-re"
        self.defs.append(model)
        self._current, self._pattern = saved | {name}, saved_pattern
        return name

    # -- what the types cannot say ------------------------------------------------------

    def _schema_text(self, part: JSON) -> Node:
        """A piece of the published schema as compact JSON text, with the ``$defs`` it
        refers to, to be checked as it is (``rt.schema_check``)."""
        if isinstance(part, dict):
            defs = referenced_defs(part, self._defs)
            part = _unannotated(part)
            if defs:
                part["$defs"] = {name: _unannotated(d) for name, d in defs.items()}
        return Lit(json.dumps(part, ensure_ascii=False, separators=(",", ":")))

    def _checked(self, node: Node, part: JSON) -> Node:
        """``node`` whose values are also checked against ``part`` of the schema."""
        return Sub("Annotated", (node, Call("rt.schema_check", ((None, self._schema_text(part)),))),
                   constraint=True)

    # -- fields -------------------------------------------------------------------------

    def _field(self, raw: str, prop: JSON, typed: Typed, required: bool, scope: Scope,
               model: ModelDef) -> FieldDef:
        name = field_name(raw, scope)
        kwargs: dict[str, Any] = {"alias": raw} if name != raw else {}
        kwargs.update(typed.meta)
        kwargs.update(typed.kwargs)
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
                if not typed.nullable:
                    annotation = Sub("Annotated", (union(annotation, NONE),
                                                   Call("rt.not_null", ())))
        return FieldDef(name, annotation, handler_type, field_call(kwargs, positional=default),
                        typed.notes)

    # -- schemas ------------------------------------------------------------------------

    def convert(self, schema: JSON, spec: JSON, hint: str, depth: int = 0) -> Typed:
        """The type of one schema; ``spec`` is its unresolved form, when known."""
        if not isinstance(schema, dict):
            return Typed(ANY if schema is not False else self._checked(ANY, False),
                         nullable=True)
        if isinstance(spec, dict) and isinstance(spec.get("type"), str) \
                and spec["type"] not in JSON_TYPES and depth < 20:
            typed = self._named(schema, spec, hint, depth)
        else:
            typed = self._structural(schema, spec, hint, depth)
            part = {} if typed.own_model else unchecked_part(schema)
            if part:
                typed.base = self._checked(typed.base, part)
        typed.meta = {k: schema[k] for k in ANNOTATING if k in schema}
        return typed

    def _named(self, schema: JSON, spec: dict[str, JSON], hint: str, depth: int) -> Typed:
        ref = str(spec["type"])
        if set(spec) - ANNOTATION_KEYS:
            # The property narrows the named type: write the merged schema out in place.
            named = self._type_ir(ref)
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
            self._note_alias_pattern(other, named)
            return Raw(text), is_model_schema(named.schema)
        name = self.names.types[type_name]
        self._current.add(name)
        self._note_alias_pattern(self.module, self.module.types[type_name])
        return Raw(name), is_model_schema(self.module.types[type_name].schema)

    def _note_alias_pattern(self, module: ModuleIR, named: TypeIR) -> None:
        """An alias with a regex validates inside the model using it (a named model
        validates with its own configuration)."""
        key = (module.name, named.name)
        if key not in self._alias_patterns:
            self._alias_patterns[key] = not is_model_schema(named.schema) \
                and '"pattern"' in json.dumps(named.schema)
        self._pattern = self._pattern or self._alias_patterns[key]

    def _type_ir(self, ref: str) -> TypeIR | None:
        module_name, _, type_name = ref.rpartition(".")
        module = self.project[module_name][0] if module_name else self.module
        return module.types.get(type_name)

    def _structural(self, schema: dict[str, JSON], spec: JSON, hint: str, depth: int) -> Typed:
        for key in ("anyOf", "oneOf"):
            if isinstance(schema.get(key), list):
                return self._union(schema, key, spec, hint, depth)
        if "$ref" in schema:
            return Typed(self._checked(ANY, schema), nullable=True)
        if "allOf" in schema:
            branches = schema["allOf"]
            if isinstance(branches, list) and len(branches) == 1:
                return self.convert(branches[0], child(spec, "allOf", 0), hint, depth)
            return Typed(self._checked(ANY, schema), nullable=True)
        for key in ("const", "enum"):
            if key in schema:
                values = [schema[key]] if key == "const" else list(schema[key])
                if all(v is None or isinstance(v, (str, int, bool)) for v in values):
                    node = literal(*(Lit(v) for v in values))
                    if any(isinstance(v, int) for v in values):  # bools are ints too
                        node = _json_equal(node)
                    return Typed(node, nullable=None in values)
                return Typed(self._checked(ANY, {key: schema[key]}), nullable=True)
        kind = schema.get("type", "object" if "properties" in schema else None)
        if isinstance(kind, list):
            parts = [self.convert({**schema, "type": k}, spec, hint, depth) for k in kind]
            return Typed(union(*(p.wrapped() for p in parts)), nullable="null" in kind,
                         models=any(p.models for p in parts))
        if kind == "null":
            return Typed(NONE, nullable=True)
        if kind in SCALARS:
            bounds = constraints(schema, kind)
            self._pattern = self._pattern or "pattern" in bounds
            if kind == "integer":  # 5.0 is an integer too
                return Typed(validated(INT, "rt.integral"), bounds)
            return Typed(Raw(SCALARS[kind]), bounds)
        if kind == "array":
            return self._array(schema, spec, hint, depth)
        if kind == "object":
            return self._object(schema, spec, hint, depth)
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
            name = hint if len(real) == 1 else f"{hint}Option{i + 1}"
            parts.append(self.convert(branch, sub_spec, name, depth))
        return Typed(union(*(p.wrapped() for p in parts)),  # (oneOf: see unchecked_part)
                     nullable=any(p.nullable for p in parts),
                     models=any(p.models for p in parts))

    def _array(self, schema: dict[str, JSON], spec: JSON, hint: str, depth: int) -> Typed:
        kwargs = {}
        if "minItems" in schema:
            kwargs["min_length"] = schema["minItems"]
        if "maxItems" in schema:
            kwargs["max_length"] = schema["maxItems"]
        items = schema.get("items")
        if isinstance(items, dict) and "prefixItems" not in schema:
            inner = self.convert(items, child(spec, "items"), hint + "Item", depth)
            return Typed(Sub("list", (inner.wrapped(),)), kwargs, models=inner.models,
                         notes=inner.notes)
        if items is False and "prefixItems" not in schema:  # no items at all
            return Typed(self._checked(Sub("list", (ANY,)), {"items": False}), kwargs)
        return Typed(Sub("list", (ANY,)), kwargs)

    def _object(self, schema: dict[str, JSON], spec: JSON, hint: str, depth: int) -> Typed:
        if is_model_schema(schema):
            name = self.define_model(hint, schema, spec)
            return Typed(Raw(name), models=True, own_model=True)
        kwargs = {}
        if "minProperties" in schema:
            kwargs["min_length"] = schema["minProperties"]
        if "maxProperties" in schema:
            kwargs["max_length"] = schema["maxProperties"]
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            inner = self.convert(extra, child(spec, "additionalProperties"), hint + "Value",
                                 depth)
            return Typed(Sub("dict", (Raw("str"), inner.wrapped())), kwargs,
                         models=inner.models, notes=inner.notes)
        return Typed(Sub("dict", (Raw("str"), ANY)), kwargs)


def _json_equal(node: Node) -> Node:
    """A ``Literal`` of numbers or booleans, compared as JSON compares them: Python (and so
    pydantic's ``Literal``) takes ``True`` for ``1`` and ``0`` for ``False``, JSON does not."""
    if isinstance(node, Sub) and node.head == "Literal":
        return validated(node, "rt.json_equal")
    if isinstance(node, Union):
        return Union(tuple(_json_equal(item) for item in node.items))
    return node


def _defs_of(schema: JSON) -> dict[str, JSON]:
    defs = schema.get("$defs") if isinstance(schema, dict) else None
    return defs if isinstance(defs, dict) else {}


_WORDS_ONLY = frozenset({"title", "description", "examples", "$comment", "deprecated"})


def _unannotated(schema: JSON) -> JSON:
    """A schema without its top-level words for readers, which a check does not need."""
    if not isinstance(schema, dict):
        return schema
    return {k: v for k, v in schema.items() if k not in _WORDS_ONLY}
