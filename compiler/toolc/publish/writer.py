"""Write toolc schemas out as the JSON Schema that MCP clients are shown.

The publication rules of spec-format.md, in one place:

- named types are written out in place, the property's own keywords laid over the
  type's; only a recursive type goes through ``$defs`` and ``$ref``;
- ``required: true|false`` and defaults become each object's ``required`` list (unless the
  object wrote its own list), in the order written, left out when empty;
- ``nullable: true`` becomes ``{"anyOf": [<schema>, {"type": "null"}]}`` with the
  annotations (description, default, ...) beside the ``anyOf``;
- every object of a tool's input declared with ``properties`` is closed
  (``additionalProperties: false``) unless it says otherwise or may take its properties
  from elsewhere (see :mod:`toolc.publish.closing`); outputs, and named types as documents
  of their own, stay open;
- references are rewritten to resolve where their schema lands, local schema files
  inlined under ``$defs`` (see :mod:`toolc.publish.schema_refs`);
- nothing else is invented: no titles, no ``null``.

Besides the schema, every write records where each part of it is written in the spec
(:class:`toolc.publish.written.Written`).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Span
from ..loader import YMap
from ..model.keywords import ANNOTATIONS as _ANNOTATION_ORDER
from ..model.keywords import JSON_TYPES, KEYWORDS
from ..model.named import TypeDef
from ..model.parse import ParsedModule
from .closing import ALTERNATIVES, CLOSABLE, alternatives_closable, closes
from .json_documents import ANCHORS, REFERENCES, pointer_token, resolve_uri, to_json
from .json_documents import SCALARS as _SCALARS
from .schema_files import LocalFiles
from .schema_refs import RefLog, RefProblem, Scope
from .written import DefaultSite, Written, defs_span, forget_spans, item_spans

JSON = Any
Lookup = Callable[[ParsedModule, str], "TypeDef | None"]
ANNOTATIONS = frozenset(_ANNOTATION_ORDER)
_MAX_DEPTH = 400  # far beyond any spec the loader accepts; guards against alias loops


@dataclass(slots=True)
class _Root:
    """What one published schema document collects while it is written."""

    module: ParsedModule
    spans: dict[str, Span]
    defaults: list[DefaultSite]
    base: str = ""  # the pointer of the document in the published tool ("/inputSchema")
    needed: dict[TypeDef, None] = field(default_factory=dict)  # recursive types, in order
    inlining: set[TypeDef] = field(default_factory=set)  # recursive types being written out
    closed: bool = False  # a tool's input: objects declared with `properties` are closed
    scope: Scope | None = None  # the schema document of the spec being written
    starts: bool = False  # the next node written is a schema document of the spec
    refs: RefLog = field(default_factory=RefLog)
    nodes: dict[str, Span] = field(default_factory=dict)

    def rel(self, ptr: str) -> str:
        return ptr[len(self.base):]

    def written(self, schema: JSON) -> Written:
        """What was written, its references checked against the finished document."""
        self.refs.check(schema)
        return Written(schema, self.spans, self.defaults, self.refs.problems,
                       self.refs.references, self.nodes)

    def def_name(self, td: TypeDef) -> str:
        return td.name if td.module is self.module else f"{td.module.name}.{td.name}"


class SchemaWriter:
    """Writes schemas of one project; ``recursive`` holds the types published via ``$defs``."""

    def __init__(self, lookup: Lookup, recursive: AbstractSet[TypeDef],
                 files: LocalFiles | None = None):
        self.lookup = lookup
        self.recursive = recursive
        self.files = files if files is not None else LocalFiles(None)

    # -- documents -------------------------------------------------------------------------

    def input_schema(self, module: ParsedModule, params: dict[str, Any], additional: bool,
                     base: str = "/inputSchema") -> Written:
        """A tool's ``inputSchema``: the object of its ``params``."""
        root = _Root(module, {}, [], base, closed=True)
        props = {}
        for name, sub in params.items():
            root.starts = True  # each parameter is a schema document of its own
            if isinstance(params, YMap) and name in params.key_spans:
                root.nodes[f"{base}/properties/{pointer_token(name)}"] = params.key_spans[name]
            props[name] = self._node(sub, f"{base}/properties/{pointer_token(name)}", module,
                                     root, False, 0, True, True)
        schema: dict[str, JSON] = {"type": "object", "properties": props}
        required = [n for n, sub in params.items() if _is_required(sub, props[n])]
        if required:
            schema["required"] = required
        if not additional:
            schema["additionalProperties"] = False
        self._add_defs(schema, root, base)
        return root.written(schema)

    def document(self, module: ParsedModule, node: Any, base: str) -> Written:
        """A schema that is a whole document (``returns``)."""
        root = _Root(module, {}, [], base, starts=True)
        schema = self._node(node, base, module, root, False, 0, True)
        if isinstance(schema, dict):
            self._add_defs(schema, root, base, defs_span(node))
        return root.written(schema)

    def type_schema(self, td: TypeDef) -> Written:
        """A named type as a document of its own (its own defaults are checked here)."""
        root = _Root(td.module, {}, [], starts=True)
        root.inlining.add(td)
        schema = self._node(td.node, "", td.module, root, False, 0, True)
        if isinstance(schema, dict):
            self._add_defs(schema, root, "", defs_span(td.node))
        return root.written(schema)

    def _add_defs(self, schema: dict[str, JSON], root: _Root, base: str,
                  span: Span | None = None) -> None:
        defs: dict[str, JSON] = {}
        done: set[TypeDef] = set()
        while len(done) < len(root.needed):
            td = next(t for t in root.needed if t not in done)
            done.add(td)
            name = root.def_name(td)
            ptr = f"{base}/$defs/{pointer_token(name)}"
            root.inlining = {td}
            root.starts = True
            defs[name] = self._node(td.node, ptr, td.module, root, True, 0, True, True)
        defs.update(root.refs.files)
        if defs:
            own = schema.get("$defs")
            if isinstance(own, dict):
                for name in [n for n in defs if n in own]:
                    what = "schema file" if name in root.refs.files else "recursive type"
                    root.refs.problems.append(RefProblem(
                        "TC214", f"`$defs` entry '{name}' takes the name under which toolc "
                        f"publishes {what} '{name}'; rename the entry", span or
                        root.module.top_span()))
            schema["$defs"] = {**defs, **own} if isinstance(own, dict) else defs

    # -- nodes -----------------------------------------------------------------------------

    def _named(self, node: dict[str, Any], module: ParsedModule) -> TypeDef | None:
        ref = node.get("type")
        if isinstance(ref, str) and ref not in JSON_TYPES:
            return self.lookup(module, ref)
        return None

    def _by_ref(self, named: TypeDef, inline: bool, root: _Root) -> bool:
        """Whether a use of ``named`` is published as ``$ref`` rather than written in place.

        Only a recursive type goes through ``$defs``; where the use is a property (or a
        whole document) its first level is still written in place, so that the property
        carries the type's description itself, unless that type is being written already.
        """
        return named in self.recursive and (not inline or named in root.inlining)

    def _nullable(self, node: dict[str, Any], module: ParsedModule, depth: int, inline: bool,
                  root: _Root) -> bool:
        own = node.get("nullable")
        if isinstance(own, bool):
            return own
        named = self._named(node, module)
        if (named is not None and not self._by_ref(named, inline, root)
                and isinstance(named.node, dict) and depth < _MAX_DEPTH):
            return self._nullable(named.node, named.module, depth + 1, False, root)
        return False

    def _node(self, node: Any, ptr: str, module: ParsedModule, root: _Root, in_type: bool,
              depth: int, inline: bool = False, closable: bool = False) -> JSON:
        """One schema node written out; ``inline`` for properties and whole documents;
        ``closable`` where an object of the input may be closed (:mod:`toolc.publish.closing`)."""
        if not isinstance(node, dict):
            return to_json(node)
        if depth > _MAX_DEPTH:
            return {}
        nullable = self._nullable(node, module, depth, inline, root)
        inner = f"{ptr}/anyOf/0" if nullable else ptr
        scope = root.scope
        if root.starts:
            root.starts = False
            root.scope = Scope(root.rel(ptr), root.rel(inner), module)
        core = self._core(node, ptr, inner, module, root, in_type, depth, inline, closable)
        root.scope = scope
        if closable and root.closed and closes(core):
            core["additionalProperties"] = False
        out = _wrap_nullable(core) if nullable else core
        if not in_type and "default" in node and isinstance(node, YMap):
            root.defaults.append(DefaultSite(to_json(node["default"]),
                                             node.value_spans["default"], out,
                                             root.rel(ptr)))
        return out

    def _core(self, node: dict[str, Any], ptr: str, inner: str, module: ParsedModule,
              root: _Root, in_type: bool, depth: int, inline: bool,
              closable: bool = False) -> dict[str, JSON]:
        """The node's keywords written out, named type laid under, without the null wrap;
        ``closable``: the node describes a value of its own, so its alternatives may too."""
        named = self._named(node, module)
        out: dict[str, JSON] = {}
        scope = root.scope
        if isinstance(node.get("$id"), str):  # a resource of its own: `#` is itself
            base_uri = resolve_uri(scope.base_uri if scope else "", node["$id"])
            root.scope = Scope(root.rel(ptr), root.rel(inner), module, True, base_uri)
        if named is not None:
            self._lay_type(named, node, ptr, inner, root, depth, inline, closable, out)
        self._keywords(node, ptr, inner, module, root, in_type, depth, named,
                       _closing(node, closable), out)
        root.scope = scope
        if isinstance(node, YMap) and isinstance(node.get("description"), str):
            root.spans[f"{ptr}/description"] = node.value_spans["description"]
        return _with_own_required(node, out)

    def _lay_type(self, named: TypeDef, node: dict[str, Any], ptr: str, inner: str,
                  root: _Root, depth: int, inline: bool, closable: bool,
                  out: dict[str, JSON]) -> None:
        """The named type ``node`` uses, laid under the node's own keywords: a ``$ref`` to
        the type's ``$defs`` entry (see :meth:`_by_ref`), or the type's keywords in place."""
        if self._by_ref(named, inline, root):
            out["$ref"] = f"#/$defs/{root.def_name(named)}"
            root.needed.setdefault(named)
            if inline and not isinstance(node.get("description"), str):
                self._type_description(named, ptr, out, root)
            return
        if not isinstance(named.node, dict) or depth >= _MAX_DEPTH:
            return
        here = root.scope
        entered = named in self.recursive and named not in root.inlining
        if entered:
            root.inlining.add(named)
        # the type is a schema document of its own: its `#` is where it lands
        own = ptr if named.node.get("nullable") is True else inner
        root.scope = Scope(root.rel(own), root.rel(inner), named.module)
        out.update(self._core(named.node, ptr, inner, named.module, root, True, depth + 1,
                              False, closable))
        root.scope = here
        if entered:
            root.inlining.discard(named)

    def _keywords(self, node: dict[str, Any], ptr: str, inner: str, module: ParsedModule,
                  root: _Root, in_type: bool, depth: int, named: TypeDef | None,
                  closing: frozenset[str], out: dict[str, JSON]) -> None:
        """The node's own keywords written into ``out``, over what its named type laid
        there, each key's span recorded where it is published: an annotation beside a
        null wrap, any other keyword inside it (``inner``); ``closing``: the keywords
        whose subschemas may be closed."""
        located = node if isinstance(node, YMap) else None  # where the spec writes each key
        spans: dict[str, Span] = located.key_spans if located is not None else {}
        for key, value in node.items():
            if key in _TOOLC_KEYS and _toolc_key(key, value, ptr, named, spans, root):
                continue
            at = ptr if key in ANNOTATIONS else inner
            if key in spans:
                root.nodes[f"{at}/{pointer_token(key)}"] = spans[key]
            if key in out and key not in ANNOTATIONS:  # the node's own replaces the type's
                forget_spans(root.spans, f"{at}/{pointer_token(key)}/")
            if key in _REFERRING and isinstance(value, str) and located is not None:
                out[key] = self._referring(key, value, located.value_spans[key], root)
                continue
            out[key] = self._keyword(key, value, at, module, root, in_type, depth,
                                     key in closing)

    def _referring(self, key: str, value: str, span: Span, root: _Root) -> str:
        """A ``$ref`` (or ``$dynamicRef``) of the spec, as it must be published to resolve
        where its schema lands (the rules are in :mod:`toolc.publish.schema_refs`); an
        anchor, published as written, declared in the resource it is part of."""
        if key in REFERENCES:
            return root.refs.rewrite(value, span, root.scope, self.files)
        root.refs.anchor(key, value, span, root.scope)
        return value

    def _type_description(self, td: TypeDef, ptr: str, out: dict[str, JSON],
                          root: _Root) -> None:
        """Put a type's description beside a ``$ref`` to it, on a property that has none."""
        seen: set[int] = set()
        current: TypeDef | None = td
        while current is not None and id(current) not in seen and isinstance(current.node, YMap):
            seen.add(id(current))
            text = current.node.get("description")
            if isinstance(text, str):
                out["description"] = text
                root.spans[f"{ptr}/description"] = current.node.value_spans["description"]
                return
            current = self._named(current.node, current.module)

    def _keyword(self, key: str, value: Any, at: str, module: ParsedModule, root: _Root,
                 in_type: bool, depth: int, closable: bool) -> JSON:
        kw = KEYWORDS.get(key)
        kind = kw.kind if kw is not None else "value"
        if kind == "value":
            return value if isinstance(value, _SCALARS) else to_json(value)
        p = f"{at}/{pointer_token(key)}"
        d = depth + 1
        if kind == "schema":
            return self._node(value, p, module, root, in_type, d, False, closable)
        item_spans(value, p, root.nodes)
        if kind == "schema_list" and isinstance(value, list):
            return [self._node(v, f"{p}/{i}", module, root, in_type, d, False, closable)
                    for i, v in enumerate(value)]
        if kind in ("schema_map", "dependencies") and isinstance(value, dict):
            props = key == "properties"
            return {k: (to_json(v) if isinstance(v, list) else
                        self._node(v, f"{p}/{pointer_token(k)}", module, root, in_type, d,
                                   props, closable))
                    for k, v in value.items()}
        return to_json(value)


def _is_required(sub: Any, written: JSON) -> bool:
    """Required unless it says ``required: false`` or has a default (its own or its type's)."""
    own = sub.get("required") if isinstance(sub, dict) else None
    if isinstance(own, bool):
        return own
    return not (isinstance(written, dict) and "default" in written)


# toolc's own keys, written out by other means than as keywords (a named `type`,
# `nullable`, a `required` flag); and the keywords that refer or are referred to.
_TOOLC_KEYS = frozenset({"type", "nullable", "required"})
_REFERRING = frozenset({*REFERENCES, *ANCHORS})


def _toolc_key(key: str, value: Any, ptr: str, named: TypeDef | None,
               spans: dict[str, Span], root: _Root) -> bool:
    """Whether ``key`` (one of :data:`_TOOLC_KEYS`) is toolc's own here, not a keyword to
    write: a ``type`` that names a type, ``nullable``, a ``required`` flag (whose key span
    is kept: where the property says it is (not) required, for REQUIRED_* changes)."""
    if key == "required":
        if not isinstance(value, bool):
            return False  # an object's own `required` list: a keyword
        if key in spans:
            root.nodes[f"{ptr}/required"] = spans[key]
        return True
    return key == "nullable" or named is not None


_CLOSABLE_AND_ALTERNATIVES = CLOSABLE | ALTERNATIVES


def _closing(node: dict[str, Any], closable: bool) -> frozenset[str]:
    """The node's keywords whose subschemas may be closed: its ``anyOf``/``oneOf``
    branches too where they are alternatives of a value of its own (a part of an object,
    under ``allOf``, ``then``, ..., has no alternatives of its own)."""
    if closable and ("anyOf" in node or "oneOf" in node) and alternatives_closable(node):
        return _CLOSABLE_AND_ALTERNATIVES
    return CLOSABLE


def _with_own_required(node: dict[str, Any], out: dict[str, JSON]) -> dict[str, JSON]:
    """``out`` with the ``required`` list its properties say (their flags and defaults),
    unless the node wrote a list of its own."""
    props = node.get("properties")
    if isinstance(props, dict) and not isinstance(node.get("required"), list):
        written = out.get("properties")
        if isinstance(written, dict):
            return _with_required(out, [n for n, sub in props.items()
                                        if _is_required(sub, written.get(n))])
    return out


def _with_required(out: dict[str, JSON], names: list[str]) -> dict[str, JSON]:
    """``out`` with ``required`` right after ``properties`` (or without it when empty)."""
    result: dict[str, JSON] = {}
    for key, value in out.items():
        if key == "required":
            continue
        result[key] = value
        if key == "properties" and names:
            result["required"] = names
    return result


def _wrap_nullable(core: dict[str, JSON]) -> dict[str, JSON]:
    inner = {k: v for k, v in core.items() if k not in ANNOTATIONS}
    out: dict[str, JSON] = {"anyOf": [inner, {"type": "null"}]}
    out.update((k, v) for k, v in core.items() if k in ANNOTATIONS)
    return out
