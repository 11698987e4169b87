"""Every schema of the spec, walked once, keyword by keyword.

The walk finds unknown keywords (with the known one a typo was meant to be), checks each
keyword's value as the JSON Schema 2020-12 meta-schema does (see
:mod:`toolc.model.keywords`), resolves named types, and applies the node rules of the
other families (descriptions, ``required``) where it stands, so that 10,000 tools cost
one pass. It also records, per schema document, the named types it uses: the type
cycles and the checks of written-out schemas build on that. The walk is an analysis step
(:func:`walk_schemas`): what it finds is kept as findings, reported by the check of each
code (:func:`check_schemas` the schema rules', the descriptions check TC201's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Span
from ..loader import YList, YMap
from ..model.errors import describe_value, suggest
from ..model.hints import SCHEMA, comma_split, entry_note, unknown_key_note
from ..model.keywords import (
    JSON_TYPES,
    KEYWORDS,
    TOOLC_KEYWORDS,
    non_json_problem,
    plain_type_problem,
    regex_problem,
)
from ..model.named import TypeDef
from ..model.toolsets import ExternalToolset, MCPToolset
from .descriptions import check_property_description
from .facts import ProjectFacts, SchemaRoot, StepFinding, Walk
from .metaschema import check_metaschema
from .parsed import ParsedProject
from .reporting import Reporter
from .required import check_required_agreement, check_required_known
from .typed_widely import check_python_type

_TOOLC_NAMES = tuple(KEYWORDS) + TOOLC_KEYWORDS + ("required",)
_RAW_NAMES = tuple(KEYWORDS)


# Rules applied to every mapping node once its keywords are walked: (walk, node, key span of
# the node, property trail or None when the node is not a property).
NodeRule = Callable[[Walk, YMap, Span, "tuple[str, ...] | None"], None]


@dataclass(frozen=True, slots=True)
class SchemaWalk:
    """What the walk of every schema document learnt and found."""

    roots: tuple[SchemaRoot, ...]
    type_roots: dict[TypeDef, SchemaRoot]
    found: tuple[StepFinding, ...]
    undescribed: dict[TypeDef, list[tuple[str, Span]]]
    held: tuple[tuple[str, Span], ...]   # (module, at): held back for an unread spec


def walk_schemas(project: ParsedProject) -> SchemaWalk:
    """Walk every schema document of every module (see the module docstring)."""

    rules: tuple[NodeRule, ...] = (check_required_agreement, check_required_known,
                                   check_property_description, check_python_type,
                                   check_metaschema)
    roots = collect_roots(project)
    type_roots: dict[TypeDef, SchemaRoot] = {}
    found: list[StepFinding] = []
    undescribed: dict[TypeDef, list[tuple[str, Span]]] = {}
    held: list[tuple[str, Span]] = []
    for root in roots:
        if root.type_def is not None:
            type_roots[root.type_def] = root
        walk = Walk(project, root, found, undescribed, held)
        if root.kind == "params":
            params = root.node
            for name, sub in params.items():
                _schema(walk, rules, sub, params.key_spans[name], params.value_spans[name],
                        (name,), True, True)
        else:
            _schema(walk, rules, root.node, root.span, root.span, (), False, True)
    return SchemaWalk(tuple(roots), type_roots, tuple(found), undescribed, tuple(held))


def check_schemas(facts: ProjectFacts, report: Reporter) -> None:
    """What the walk found in the schemas themselves (keywords, values, types, required)."""
    report.relay(facts.found)


def collect_roots(project: ParsedProject) -> list[SchemaRoot]:
    roots: list[SchemaRoot] = []
    for parsed in project.modules:
        types = parsed.section("types")
        local = project.registry.local(parsed)
        for name, td in local.items():
            roots.append(SchemaRoot(parsed, "type", name, td.node, types.value_spans[name], td))
        tools = parsed.section("tools")
        for name, node in tools.items():
            if not isinstance(node, YMap):
                continue
            if isinstance(node.get("params"), YMap):
                roots.append(SchemaRoot(parsed, "params", name, node["params"],
                                        node.value_spans["params"]))
            if node.get("returns") is not None:
                roots.append(SchemaRoot(parsed, "returns", name, node["returns"],
                                        node.value_spans["returns"]))
        roots.extend(_external_roots(parsed, parsed.section("toolsets")))
        roots.extend(_pinned_roots(parsed, parsed.section("toolsets")))
    return roots


def _pinned_roots(parsed: Any, toolsets: YMap) -> list[SchemaRoot]:
    """The input and output schemas of the tools pinned in ``mcp`` toolsets."""
    roots = []
    for ts_name, ts in parsed.toolsets.items():
        node = toolsets.get(ts_name)
        if not isinstance(ts, MCPToolset) or ts.tools is None or not isinstance(node, YMap):
            continue
        tools = node.get("tools")
        for tool_name, tool in ts.tools.items():
            tool_node = tools.get(tool_name) if isinstance(tools, YMap) else None
            if not isinstance(tool_node, YMap):
                continue
            for key, kind in (("input_schema", "pinned"), ("output_schema", "pinned_output")):
                schema = getattr(tool, key)
                if isinstance(schema, YMap):  # other shapes: check_pinned_tools says why
                    roots.append(SchemaRoot(parsed, kind, tool_name, schema,
                                            tool_node.value_spans[key], toolset=ts_name))
    return roots


def _external_roots(parsed: Any, toolsets: YMap) -> list[SchemaRoot]:
    roots = []
    for ts_name, ts in parsed.toolsets.items():
        node = toolsets.get(ts_name)
        if not isinstance(ts, ExternalToolset) or not isinstance(node, YMap):
            continue
        tools = node.get("tools")
        for tool_name, tool in ts.tools.items():
            tool_node = tools.get(tool_name) if isinstance(tools, YMap) else None
            if tool.input_schema is not None and isinstance(tool_node, YMap):
                roots.append(SchemaRoot(parsed, "external", tool_name, tool.input_schema,
                                        tool_node.value_spans["input_schema"]))
    return roots


def _schema(walk: Walk, rules: tuple[NodeRule, ...], node: Any, key_span: Span, span: Span,
            trail: tuple[str, ...], prop: bool, top: bool) -> None:
    """Check one schema node and everything below it.

    ``trail`` names the properties from the document down to here; ``prop`` says whether
    this node is itself a property (an entry of ``properties``, or a parameter).
    """
    if isinstance(node, bool):
        if prop:
            for rule in rules:
                rule(walk, YMap(span), key_span, trail)
        return
    if not isinstance(node, YMap):
        section = "params" if top and walk.root.kind == "params" else "properties"
        note = entry_note(section, trail[-1]) if prop and trail and walk.toolc else None
        walk.error("TC202", f"a schema must be a mapping (or true/false), got "
                   f"{describe_value(node)}", span, (note,) if note else ())
        return
    toolc = walk.toolc  # once per node, not a property call per keyword
    for key, value in node.items():
        kspan, vspan = node.key_spans[key], node.value_spans[key]
        if toolc and key == "type":
            _type_keyword(walk, value, vspan, top)
        elif toolc and key == "nullable":
            if not isinstance(value, bool):
                walk.error("TC202", f"`nullable` must be true or false, got "
                           f"{describe_value(value)}", vspan)
        elif toolc and key == "required" and isinstance(value, bool):
            if not prop:
                walk.error("TC103", f"`required: {'true' if value else 'false'}` marks a "
                           "property, and this schema is not one", kspan,
                           ("an object lists its required properties as `required: [names]`",))
        elif key in KEYWORDS:
            _keyword(walk, rules, key, value, vspan, trail)
        else:
            _unknown_keyword(walk, node, key, kspan, trail)
    for rule in rules:
        rule(walk, node, key_span, trail if prop else None)


def _unknown_keyword(walk: Walk, node: YMap, key: str, span: Span,
                     trail: tuple[str, ...]) -> None:
    split = comma_split(node, key, walk.root.module.file.text)
    if split is not None:
        if split.first:  # the pieces after it are said with it
            walk.error("TC101", split.message(), split.comma, split.notes(), split.fixes())
        return
    names = _TOOLC_NAMES if walk.toolc else _RAW_NAMES
    where = f"'{'.'.join(trail)}' of " if trail else ""
    kind = walk.root.kind
    note = unknown_key_note(SCHEMA, key, node[key], kind if kind in ("params", "returns")
                            else None) if walk.toolc else None
    hint, fixes = suggest(key, names, span)
    walk.error("TC101", f"unknown keyword '{key}' in {where}{walk.root.describe()}{hint}",
               span, (note,) if note else (), fixes)


def _keyword(walk: Walk, rules: tuple[NodeRule, ...], key: str, value: Any, span: Span,
             trail: tuple[str, ...]) -> None:
    kw = KEYWORDS[key]
    if kw.kind == "value":
        assert kw.check is not None
        problem = kw.check(key, value)
        if problem is None and isinstance(value, (float, list, dict)):
            problem = non_json_problem(value)
            problem = f"`{key}`: {problem}" if problem else None
        if problem:
            walk.error("TC202", problem, span)
        elif key == "enum" and not value:
            walk.error("TC203", "`enum` has no values, so nothing is accepted", span)
    elif kw.kind == "schema":
        _schema(walk, rules, value, span, span, trail, False, False)
    elif kw.kind == "schema_list":
        if not isinstance(value, YList) or not value:
            got = "an empty list" if isinstance(value, list) else describe_value(value)
            walk.error("TC202", f"`{key}` must be a non-empty list of schemas, got {got}", span)
            return
        for item, item_span in zip(value, value.item_spans, strict=True):
            _schema(walk, rules, item, item_span, item_span, trail, False, False)
    elif not isinstance(value, YMap):
        walk.error("TC202", f"`{key}` must be a mapping, got {describe_value(value)}", span)
    else:
        _schema_map(walk, rules, key, value, trail)


def _schema_map(walk: Walk, rules: tuple[NodeRule, ...], key: str, value: YMap,
                trail: tuple[str, ...]) -> None:
    for name, sub in value.items():
        kspan, vspan = value.key_spans[name], value.value_spans[name]
        if key == "patternProperties":
            problem = regex_problem(name)
            if problem:
                walk.error("TC202", f"'{name}' in `patternProperties` is not a valid regular "
                           f"expression: {problem}", kspan)
        if key == "dependencies" and isinstance(sub, list):
            problem = _string_list_problem(sub)
            if problem:
                walk.error("TC202", f"`dependencies` of '{name}': {problem}", vspan)
            continue
        if key == "properties":
            _schema(walk, rules, sub, kspan, vspan, (*trail, name), True, False)
        else:
            _schema(walk, rules, sub, kspan, vspan, trail, False, False)


def _string_list_problem(items: list[Any]) -> str | None:
    if not all(isinstance(i, str) for i in items):
        return "must be a schema or a list of strings"
    return "must not name a property twice" if len(set(items)) != len(items) else None


def _type_keyword(walk: Walk, value: Any, span: Span, top: bool) -> None:
    """``type``: a JSON type, a list of them, or the name of a type (toolc's addition)."""
    if not isinstance(value, str) or value in JSON_TYPES:
        problem = plain_type_problem("type", value)
        if problem:
            named = isinstance(value, list) and any(
                isinstance(v, str) and v not in JSON_TYPES for v in value)
            walk.error("TC202", problem, span,
                       ("a named type may be null with `nullable: true`",) if named else ())
        return
    project, module = walk.project, walk.root.module
    td = project.registry.lookup(module, value)
    if td is not None:
        walk.root.refs.append((td, span, top and walk.root.kind == "type"))
        return
    _unknown_type(walk, value, span)


def _unknown_type(walk: Walk, value: str, span: Span) -> None:
    project, module = walk.project, walk.root.module
    prefix, dot, name = value.partition(".")
    if not dot:
        if "types" in module.unreadable:
            return
        local = list(project.registry.local(module))
        hint, fixes = suggest(value, [*JSON_TYPES, *local], span)
        walk.error("TC305", f"unknown type '{value}'{hint}", span,
                   () if local else (f"JSON types: {', '.join(JSON_TYPES)}",), fixes)
        return
    other = module if prefix == module.name else project.module_named(prefix)
    if other is None:
        if not project.unknown_module(prefix):
            walk.held.append((prefix, span))
            walk.root.errors += 1  # held back: it follows from an unread spec's error
            return
        hint, fixes = suggest(prefix, project.by_name, span, value)
        walk.error("TC307", f"type '{value}' names module '{prefix}', which no spec declares"
                   f"{hint}", span, fixes=fixes)
    elif "types" not in other.unreadable:
        known = project.registry.local(other)
        hint, fixes = suggest(name, known, span, value, len(prefix) + 1)
        walk.error("TC305", f"unknown type '{value}': module '{prefix}' has no type '{name}'"
                   f"{hint}", span, fixes=fixes)
