"""Checked spec models -> the immutable :class:`toolc.ir.ProjectIR`.

Runs only once every check has passed, on what the analysis already computed
(:class:`toolc.checks.facts.ProjectFacts`: written-out schemas, static compositions), so
the published schemas, the generated code and the diagnostics all come from the same
data.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypedDict

from .checks.facts import Composition, Entry, ProjectFacts, SchemaRoot, ToolKey
from .diagnostics import Span
from .generate.names import allocate_names
from .ir import (
    ApprovalRequiredToolsetIR,
    CombinedToolsetIR,
    ExternalToolsetIR,
    FilteredToolsetIR,
    FunctionToolsetIR,
    MCPManagerToolsetIR,
    MCPToolsetIR,
    ModuleIR,
    PrefixedToolsetIR,
    PreparedToolsetIR,
    ProjectIR,
    Ref,
    RenamedToolsetIR,
    ToolIR,
    ToolsetIR,
    TypeIR,
    WrapperToolsetIR,
    WrappingToolsetIR,
)
from .loader import YMap
from .model.parse import ParsedModule
from .model.tools import ExternalToolSpec, PinnedToolSpec, ToolSpec, search_meta
from .model.toolsets import (
    ApprovalRequiredToolset,
    CombinedToolset,
    ExternalToolset,
    FilteredToolset,
    FunctionToolset,
    MCPManagerToolset,
    MCPToolset,
    PrefixedToolset,
    PreparedToolset,
    RenamedToolset,
    ToolsetSpec,
    WrapperToolset,
)
from .publish.json_documents import to_json
from .publish.written import raw_description_spans, raw_node_spans
from .runtime.metakeys import ALWAYS_LOAD

IMPLICIT_EXPORT = "toolset"


def resolve(facts: ProjectFacts, *, formats: str = "annotate") -> ProjectIR:
    """The IR of every module (the first of each name; duplicates are errors already).
    ``formats`` is the project's `format` mode (``[tool.toolc] format``)."""
    resolver = _Resolver(facts, formats)
    named = sorted(facts.by_name.items())
    tools = {name: resolver.tools(parsed) for name, parsed in named}
    resolver.all_tools = tools
    modules = {name: resolver.module(parsed, tools[name]) for name, parsed in named}
    return ProjectIR(modules, dict(facts.files.read))


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _ref(text: str | None) -> Ref | None:
    return None if text is None else _code_ref(text)


def _code_ref(text: str) -> Ref:
    module, _, attr = text.partition(":")
    return Ref(module, attr)


class _Resolver:
    def __init__(self, facts: ProjectFacts, formats: str = "annotate"):
        self.facts = facts
        self.formats = formats
        self.roots: dict[tuple[int, str, str], SchemaRoot] = {
            (id(r.module), r.kind, r.owner): r for r in facts.roots}
        self.all_tools: dict[str, dict[str, ToolIR]] = {}
        # (module, mcp toolset) -> its pinned tools; they are not among the module's own
        # tools: each server names its tools, and two servers may use the same name.
        self.pinned: dict[tuple[str, str], dict[str, ToolIR]] = {}

    # -- tools -----------------------------------------------------------------------------

    def tools(self, parsed: ParsedModule) -> dict[str, ToolIR]:
        out = {name: self._tool(parsed, name, spec) for name, spec in parsed.tools.items()}
        section = parsed.section("toolsets")
        for ts_name, ts in parsed.toolsets.items():
            if isinstance(ts, ExternalToolset):
                node = section[ts_name]["tools"]
                for name, spec in ts.tools.items():
                    out[name] = self._external(parsed, name, spec, node)
            elif isinstance(ts, MCPToolset) and ts.tools is not None:
                node = section[ts_name]["tools"]
                self.pinned[(str(parsed.name), ts_name)] = {
                    name: self._pinned(parsed, ts_name, name, spec, node)
                    for name, spec in ts.tools.items()}
        return out

    def _tool(self, parsed: ParsedModule, name: str, spec: ToolSpec) -> ToolIR:
        node: YMap = parsed.section("tools")[name]
        spans = _description_span(node)
        params = self.roots.get((id(parsed), "params", name))
        if params is not None:
            written_in = self.facts.write(params)
        else:
            written_in = self.facts.writer.input_schema(parsed, {}, spec.additional_params)
        spans.update(written_in.description_spans)
        places = {**written_in.node_spans, **_tool_key_spans(node)}
        output: dict[str, Any] | None = None
        returns = self.roots.get((id(parsed), "returns", name))
        if returns is not None:
            written_out = self.facts.write(returns)
            output = written_out.schema
            spans.update(written_out.description_spans)
            places.update(written_out.node_spans)
        input_schema = written_in.schema
        return ToolIR(
            name=name, module=str(parsed.name), description=spec.description or "",
            input_schema=input_schema, span=parsed.key_span("tools", name), title=spec.title,
            output_schema=output, annotations=_plain(node.get("annotations")),
            meta=_with_search(_plain(node.get("meta")), spec), handler=_ref(spec.handler),
            requires_approval=spec.requires_approval, additional_params=spec.additional_params,
            formats=(spec.format or _str(parsed.raw.get("format")) or self.formats) == "assert",
            params_spec=_params_spec(node.get("params"), input_schema),
            returns_spec=_plain(node.get("returns")), description_spans=spans,
            spec_spans=places, renamed_from=spec.renamed_from,
            renamed_from_span=node.value_spans.get("renamed_from"),
        )

    def _external(self, parsed: ParsedModule, name: str, spec: ExternalToolSpec,
                  tools_node: YMap) -> ToolIR:
        node: YMap = tools_node[name]
        spans = _description_span(node)
        raw_description_spans(spec.input_schema, "/inputSchema", spans)
        return ToolIR(
            name=name, module=str(parsed.name), description=spec.description or "",
            input_schema=to_json(spec.input_schema), span=tools_node.key_spans[name],
            title=spec.title, annotations=_plain(node.get("annotations")), external=True,
            description_spans=spans, spec_spans=_raw_places(node),
        )

    def _pinned(self, parsed: ParsedModule, toolset: str, name: str, spec: PinnedToolSpec,
                tools_node: YMap) -> ToolIR:
        """A tool pinned from an MCP server: every field published exactly as written."""
        node: YMap = tools_node[name]
        spans = _description_span(node)
        raw_description_spans(spec.input_schema, "/inputSchema", spans)
        raw_description_spans(spec.output_schema, "/outputSchema", spans)
        return ToolIR(
            name=name, module=str(parsed.name), description=spec.description or "",
            input_schema=to_json(spec.input_schema), span=tools_node.key_spans[name],
            title=spec.title, output_schema=_plain(node.get("output_schema")),
            annotations=_plain(node.get("annotations")), meta=_plain(node.get("meta")),
            pinned_by=toolset, extra=_plain(node.get("extra")),
            has_description=spec.description is not None, description_spans=spans,
            spec_spans=_raw_places(node),
        )

    # -- modules ---------------------------------------------------------------------------

    def module(self, parsed: ParsedModule, tools: dict[str, ToolIR]) -> ModuleIR:
        types = {}
        for name, td in self.facts.registry.local(parsed).items():
            written = self.facts.write(self.facts.type_roots[td])
            types[name] = TypeIR(name, str(parsed.name), to_json(td.node), written.schema,
                                 td.span, td in self.facts.recursive_types)
        toolsets = {name: self._toolset(parsed, name, ts) for name, ts in parsed.toolsets.items()}
        export = parsed.export
        if export is None:
            export = IMPLICIT_EXPORT
            n = 2
            while export in toolsets:
                export, n = f"{IMPLICIT_EXPORT}_{n}", n + 1
            entries = [Entry(t, ToolKey(parsed, t)) for t in parsed.tools]
            toolsets[export] = FunctionToolsetIR(name=export, module=str(parsed.name),
                                                 span=parsed.top_span(),
                                                 tools=tuple(parsed.tools),
                                                 published=tuple(parsed.tools))
        else:
            entries = self._composition(parsed, export).entries
        exported = tuple(self._exported(e) for e in entries)
        used = {td.module.name for root in self.facts.roots if root.module is parsed
                for td, _, _ in root.refs if td.module is not parsed}
        contexts = tuple((c.name, Ref(*c.deps.split(":", 1)))
                         for c in (parsed.certify.contexts if parsed.certify else ()))
        module = ModuleIR(str(parsed.name), parsed.path, parsed.description, types, tools,
                          toolsets, export, exported, tuple(sorted(str(m) for m in used)),
                          contexts, version=parsed.version)
        # The generated identifiers, once: generate, certify and serve all read these.
        return dataclasses.replace(module, python_names=allocate_names(module))

    def _exported(self, entry: Entry) -> ToolIR:
        """The tool under its published name; needing approval if a set on the way asks."""
        tool = self._tool_ir(entry.tool)
        tool = dataclasses.replace(tool, name=entry.name,
                                   requires_approval=tool.requires_approval or entry.approval)
        if entry.steps:  # the last prefix or rename on the way made the published name
            _name, span, maker = entry.steps[-1]
            tool = dataclasses.replace(tool, name_span=span, named_by=maker)
        server = entry.tool.pinned_toolset
        if server is not None:
            spec = entry.tool.module.toolsets.get(server)
            if isinstance(spec, MCPToolset) and spec.always_load:  # as the runtime lists it
                tool = dataclasses.replace(tool, meta={**(tool.meta or {}), ALWAYS_LOAD: True})
        return tool

    def _tool_ir(self, key: ToolKey) -> ToolIR:
        if key.pinned_toolset is not None:
            return self.pinned[(str(key.module.name), key.pinned_toolset)][key.name]
        return self.all_tools[str(key.module.name)][key.name]

    def _composition(self, parsed: ParsedModule, name: str) -> Composition:
        return self.facts.compositions.get((id(parsed), name), Composition([], False))

    def _qualified(self, parsed: ParsedModule, ref: str) -> str:
        found = self.facts.find_toolset(parsed, ref)
        assert found is not None, ref
        return f"{found[0].name}.{found[1]}"

    def _toolset(self, parsed: ParsedModule, name: str, ts: ToolsetSpec) -> ToolsetIR:
        comp = self._composition(parsed, name)
        common = _Common(name=name, module=str(parsed.name),
                         span=parsed.key_span("toolsets", name),
                         published=tuple(e.name for e in comp.entries) if comp.complete else None)
        if isinstance(ts, FunctionToolset):
            return FunctionToolsetIR(**common, tools=tuple(ts.tools))
        if isinstance(ts, ExternalToolset):
            return ExternalToolsetIR(**common, tools=tuple(ts.tools))
        if isinstance(ts, CombinedToolset):
            return CombinedToolsetIR(
                **common, members=tuple(self._qualified(parsed, m) for m in ts.toolsets),
                conflicts=ts.conflicts)
        if isinstance(ts, MCPToolset):
            return self._mcp(parsed, name, ts, common)
        if isinstance(ts, MCPManagerToolset):
            return MCPManagerToolsetIR(
                **common, servers=tuple((s, self._qualified(parsed, r))
                                        for s, r in ts.servers.items()),
                conflicts=ts.conflicts)
        return self._wrapping(ts, common, self._qualified(parsed, ts.inner))

    @staticmethod
    def _wrapping(ts: FilteredToolset | PreparedToolset | PrefixedToolset | RenamedToolset
                  | WrapperToolset | ApprovalRequiredToolset, common: _Common,
                  inner: str) -> WrappingToolsetIR:
        """A toolset of one of the kinds that wrap one other, ``inner`` (qualified)."""
        if isinstance(ts, PrefixedToolset):
            return PrefixedToolsetIR(**common, inner=inner, prefix=ts.prefix)
        if isinstance(ts, RenamedToolset):
            return RenamedToolsetIR(**common, inner=inner, names=tuple(ts.names.items()))
        if isinstance(ts, FilteredToolset):
            return FilteredToolsetIR(**common, inner=inner, predicate=_code_ref(ts.predicate))
        if isinstance(ts, PreparedToolset):
            return PreparedToolsetIR(**common, inner=inner, prepare=_code_ref(ts.prepare))
        if isinstance(ts, WrapperToolset):
            return WrapperToolsetIR(**common, inner=inner, wrapper=_code_ref(ts.wrapper))
        return ApprovalRequiredToolsetIR(**common, inner=inner)

    def _mcp(self, parsed: ParsedModule, name: str, ts: MCPToolset,
             common: _Common) -> MCPToolsetIR:
        stdio = http = None
        if ts.stdio is not None:
            stdio = {"command": ts.stdio.command, "args": list(ts.stdio.args),
                     "env": dict(ts.stdio.env), "cwd": ts.stdio.cwd}
        if ts.http is not None:
            http = {"url": ts.http.url, "headers": dict(ts.http.headers)}
        pinned = self.pinned.get((str(parsed.name), name))
        return MCPToolsetIR(**common, stdio=stdio, http=http,
                            tool_cache_ttl_ms=ts.tool_cache_ttl_ms,
                            instructions=ts.instructions, always_load=ts.always_load,
                            pinned=tuple(pinned.values()) if pinned is not None else None)


class _Common(TypedDict):
    """The keys every toolset kind's IR has (:class:`toolc.ir.ToolsetBase`)."""

    name: str
    module: str
    span: Span
    published: tuple[str, ...] | None


# A tool's spec keys -> where they land in the published tool.
_TOOL_KEYS = {"description": "/description", "title": "/title", "params": "/inputSchema",
              "returns": "/outputSchema", "annotations": "/annotations", "meta": "/_meta"}


def _raw_places(node: YMap) -> dict[str, Span]:
    """An external or pinned tool's spec places: its keys, and its schemas as written."""
    places = _tool_key_spans(node)
    for key, ptr in (("input_schema", "/inputSchema"), ("output_schema", "/outputSchema")):
        if key in node.key_spans:
            places[ptr] = node.key_spans[key]
            raw_node_spans(node[key], ptr, places)
    return places


def _tool_key_spans(node: YMap) -> dict[str, Span]:
    """The published tool's top-level fields at their spec keys (``params:`` for
    ``/inputSchema``), and each annotation at its own key."""
    places = {ptr: node.key_spans[key] for key, ptr in _TOOL_KEYS.items()
              if key in node.key_spans}
    annotations = node.get("annotations")
    if isinstance(annotations, YMap):
        places.update((f"/annotations/{k}", span) for k, span in annotations.key_spans.items())
    return places


def _description_span(node: YMap) -> dict[str, Span]:
    """Where the tool's description comes from (none if a configured severity let it be absent)."""
    if isinstance(node.get("description"), str):
        return {"/description": node.value_spans["description"]}
    return {}


def _with_search(meta: dict[str, Any] | None, spec: ToolSpec) -> dict[str, Any] | None:
    """The tool's `meta` with its `search` keys added (a disagreement is TC510 already)."""
    found = search_meta(spec)
    return meta if not found else {**(meta or {}), **found}


def _plain(value: Any) -> Any:
    return None if value is None else to_json(value)


def _params_spec(params: Any, input_schema: dict[str, Any]) -> dict[str, Any]:
    """The input object in toolc's own terms (named types by name), for the generator."""
    spec: dict[str, Any] = {"type": "object", "properties": to_json(params or {})}
    if "required" in input_schema:
        spec["required"] = list(input_schema["required"])
    spec["additionalProperties"] = "additionalProperties" not in input_schema
    return spec
