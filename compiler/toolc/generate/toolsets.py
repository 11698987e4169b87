"""The runtime half of a generated module: ``rt.Tool`` factories and toolset builders.

Each toolset becomes a small function that builds it with the runtime's constructor for
its kind; the module builds a toolset at first use and keeps it, so a toolset named by
two others is one object (one MCP connection, one cache). References to user code
(handlers, predicates, prepare functions, wrapper classes) are ``rt.LazyRef``s: nothing
of the user's is imported until a call needs it. Schemas travel as the exact published
JSON text, which the runtime parses at first use (cheaper to import than dict literals,
and exact by construction).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ir import (
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
    Ref,
    RenamedToolsetIR,
    ToolIR,
    ToolsetBase,
    ToolsetIR,
    WrapperToolsetIR,
    WrappingToolsetBase,
    WrappingToolsetIR,
)
from .layout import Lit, render
from .literals import WIDTH, json_text, py_literal, py_str
from .names import ModuleNames

ARG_INDENT = 8  # arguments of ``rt.Tool(`` inside a factory function


@dataclass(slots=True)
class ToolsetCode:
    func: str
    type: str
    expr: str


def declared_type(kind: str) -> str:
    """The static type a toolset attribute is declared with."""
    return {"mcp": "rt.MCPToolset", "mcp_manager": "rt.MCPManager"}.get(
        kind, "rt.AbstractToolset[Any]")


def lazy_ref(ref: Ref) -> str:
    return f"rt.LazyRef({py_str(ref.module)}, {py_str(ref.attr)})"


def _kwarg(key: str, value: Any, indent: int = ARG_INDENT) -> str:
    return f"{key}={render(Lit(value), indent, WIDTH - indent - len(key) - 2)}"


def _positional(value: Any, indent: int = ARG_INDENT) -> str:
    return render(Lit(value), indent, WIDTH - indent - 1)


def tool_args(tool: ToolIR, params_model: str,
              arg_names: dict[str, str] | None = None) -> list[str]:
    """The arguments of ``rt.Tool(...)`` for one tool, each already written out. (The
    returns model only types the handler: results are validated by the output schema.)
    ``arg_names``: the handler's keyword for each model field named otherwise."""
    assert tool.handler is not None
    args = [_positional(tool.name), _positional(tool.description),
            f"params_model=lambda: _lazy.model({py_str(params_model)})",
            f"handler={lazy_ref(tool.handler)}",
            _kwarg("input_schema", json_text(tool.input_schema))]
    if arg_names:
        args.append(_kwarg("arg_names", arg_names))
    if tool.output_schema is not None:
        args.append(_kwarg("output_schema", json_text(tool.output_schema)))
    args += _descriptive(tool)
    if tool.requires_approval:
        args.append("requires_approval=True")
    if tool.formats:
        args.append("formats=True")
    return args


def _descriptive(tool: ToolIR, indent: int = ARG_INDENT) -> list[str]:
    out = []
    for key, value in (("title", tool.title), ("annotations", tool.annotations),
                       ("meta", tool.meta)):
        if value is not None:
            out.append(_kwarg(key, value, indent))
    return out


class ToolsetWriter:
    """Builds the expression that constructs each toolset of one module."""

    def __init__(self, module: ModuleIR, names: ModuleNames, tool_funcs: dict[str, str],
                 project: dict[str, tuple[ModuleIR, ModuleNames]]):
        self.module = module
        self.names = names
        self.tool_funcs = tool_funcs
        self.project = project
        self.uses_cast = False

    def code(self, ts: ToolsetIR) -> ToolsetCode:
        attr = self.names.toolsets[ts.name]
        return ToolsetCode(f"_toolset_{attr}", declared_type(ts.kind), self._expr(ts))

    def _expr(self, ts: ToolsetIR) -> str:
        """The expression that builds ``ts`` with its kind's runtime constructor."""
        match ts:
            case FunctionToolsetIR():
                return self._function(ts)
            case CombinedToolsetIR():
                return self._combined(ts)
            case ExternalToolsetIR():
                return self._external(ts)
            case MCPToolsetIR():
                return self._mcp(ts)
            case MCPManagerToolsetIR():
                return self._mcp_manager(ts)
            case _:
                return self._wrapping(ts)

    def _wrapping(self, ts: WrappingToolsetIR) -> str:
        match ts:
            case FilteredToolsetIR():
                return self._filtered(ts)
            case PreparedToolsetIR():
                return self._prepared(ts)
            case PrefixedToolsetIR():
                return self._prefixed(ts)
            case RenamedToolsetIR():
                return self._renamed(ts)
            case WrapperToolsetIR():
                return self._wrapper(ts)
            case ApprovalRequiredToolsetIR():
                return self._approval_required(ts)

    def _id(self, ts: ToolsetBase) -> str:
        """``id=``: error messages name the toolset as the spec does (``module.name``)."""
        return f"id={py_str(ts.qualname)}"

    def ref(self, qualname: str, *, mcp: bool = False) -> str:
        """An expression for the toolset ``module.name`` (built at first use)."""
        module_name, _, name = qualname.rpartition(".")
        if not module_name or module_name == self.module.name:
            text = f"_lazy.toolset({py_str(self.names.toolsets[name])})"
            if mcp:
                self.uses_cast = True
                return f'cast("rt.MCPToolset", {text})'
            return text
        _, other_names = self.project[module_name]
        return f"{self.names.modules[module_name]}.{other_names.toolsets[name]}"

    def _wrap(self, cls: str, ts: WrappingToolsetBase, *extra: str) -> str:
        return _call(cls, [self.ref(ts.inner), *extra, self._id(ts)])

    def _function(self, ts: FunctionToolsetIR) -> str:
        items = [f"{self.tool_funcs[name]}()" for name in ts.tools]
        return _call("rt.FunctionToolset", [_list(items, 8), self._id(ts)])

    def _filtered(self, ts: FilteredToolsetIR) -> str:
        return self._wrap("rt.FilteredToolset", ts, lazy_ref(ts.predicate))

    def _prepared(self, ts: PreparedToolsetIR) -> str:
        return self._wrap("rt.PreparedToolset", ts, lazy_ref(ts.prepare))

    def _prefixed(self, ts: PrefixedToolsetIR) -> str:
        return self._wrap("rt.PrefixedToolset", ts, py_str(ts.prefix))

    def _renamed(self, ts: RenamedToolsetIR) -> str:
        return self._wrap("rt.RenamedToolset", ts, py_literal(dict(ts.names), 8, WIDTH - 8))

    def _wrapper(self, ts: WrapperToolsetIR) -> str:
        return self._wrap("rt.lazy_wrapper", ts, lazy_ref(ts.wrapper))

    def _combined(self, ts: CombinedToolsetIR) -> str:
        members = _list([self.ref(m) for m in ts.members], 8)
        extra = [] if ts.conflicts == "error" else [f"conflicts={py_str(ts.conflicts)}"]
        return _call("rt.CombinedToolset", [members, *extra, self._id(ts)])

    def _approval_required(self, ts: ApprovalRequiredToolsetIR) -> str:
        return self._wrap("rt.ApprovalRequiredToolset", ts)

    def _external(self, ts: ExternalToolsetIR) -> str:
        tools = []
        for name in ts.tools:
            tool = self.module.tools[name]
            args = [_positional(tool.name, 16), _positional(tool.description, 16),
                    py_literal(tool.input_schema, 16, WIDTH - 17), *_descriptive(tool, 16)]
            tools.append(_call("rt.ExternalTool", args, 12))
        return _call("rt.ExternalToolset", [_list(tools, 8), self._id(ts)])

    def _mcp(self, ts: MCPToolsetIR) -> str:
        args = []
        if ts.stdio is not None:
            args.append("stdio=" + _server("rt.StdioServer", ts.stdio, "command"))
        if ts.http is not None:
            args.append("http=" + _server("rt.HttpServer", ts.http, "url"))
        if ts.tool_cache_ttl_ms != 60000:
            args.append(f"tool_cache_ttl_ms={int(ts.tool_cache_ttl_ms)}")
        if not ts.instructions:
            args.append("instructions=False")
        if ts.always_load:
            args.append("always_load=True")
        # No id: a manager names its servers by their keys, and alone the set names
        # its server (command or URL).
        return _call("rt.MCPToolset", args)

    def _mcp_manager(self, ts: MCPManagerToolsetIR) -> str:
        pairs = [f"{py_str(server)}: {self.ref(q, mcp=True)}" for server, q in ts.servers]
        body = "".join(f"            {p},\n" for p in pairs)
        extra = [] if ts.conflicts == "error" else [f"conflicts={py_str(ts.conflicts)}"]
        return _call("rt.MCPManager", ["{\n" + body + "        }" if pairs else "{}",
                                       *extra, self._id(ts)])


def _server(cls: str, spec: dict[str, Any], first: str) -> str:
    """``rt.StdioServer("cmd", args=(...), ...)`` / ``rt.HttpServer("url", headers=...)``."""
    args = [py_str(str(spec[first]))]
    for key, value in spec.items():
        if key == first or value is None or value == {} or value == []:
            continue  # unset: the runtime's default
        if key == "args":
            items = [py_str(str(v)) for v in value]
            args.append("args=(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")")
        else:
            args.append(f"{key}={py_literal(value, 12, WIDTH - 12 - len(key))}")
    return _call(cls, args, 8)


def _call(func: str, args: list[str], indent: int = 4) -> str:
    """``func(a, b)`` on one line when it fits, else one argument per line."""
    flat = f"{func}({', '.join(args)})"
    if len(flat) + indent + 7 <= WIDTH and "\n" not in flat:
        return flat
    pad = " " * (indent + 4)
    return f"{func}(\n" + "".join(f"{pad}{a},\n" for a in args) + " " * indent + ")"


def _list(items: list[str], indent: int) -> str:
    flat = "[" + ", ".join(items) + "]"
    if len(flat) + indent + 30 <= WIDTH and "\n" not in flat:
        return flat
    pad = " " * (indent + 4)
    return "[\n" + "".join(f"{pad}{i},\n" for i in items) + " " * indent + "]"
