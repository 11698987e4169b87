"""Rules of particular toolset kinds: mcp transports, external schemas, pinned tools,
handlers."""

from __future__ import annotations

from ..diagnostics import Span
from ..loader import YMap
from ..model.keywords import non_json_problem
from ..model.toolsets import ExternalToolset, FunctionToolset, MCPManagerToolset, MCPToolset
from .facts import ProjectFacts
from .reporting import Reporter

# Where each field of a pinned tool is published: `extra` may hold any other field.
PUBLISHED_AS = {"description": "description", "title": "title", "input_schema": "inputSchema",
                "output_schema": "outputSchema", "annotations": "annotations",
                "meta": "_meta"}


def check_mcp_transport(facts: ProjectFacts, report: Reporter) -> None:
    """TC404: an ``mcp`` toolset has exactly one of ``stdio`` and ``http``."""
    for parsed in facts.modules:
        section = parsed.section("toolsets")
        for name, ts in parsed.toolsets.items():
            node = section.get(name)
            if not isinstance(ts, MCPToolset) or not isinstance(node, YMap):
                continue
            if ts.stdio is None and ts.http is None:
                report("TC404", f"`mcp` toolset '{name}' has neither `stdio` nor `http`",
                       section.key_spans[name],
                       notes=("give `stdio: {command: ...}` or `http: {url: ...}`",))
            elif ts.stdio is not None and ts.http is not None:
                second = max(("stdio", "http"), key=lambda k: list(node).index(k))
                report("TC404", f"`mcp` toolset '{name}' has both `stdio` and `http`; "
                       "it connects to one server, over one of them",
                       node.key_spans[second])


def check_external_schemas(facts: ProjectFacts, report: Reporter) -> None:
    """TC405: every tool of an ``external`` toolset has an object ``input_schema``."""
    for parsed in facts.modules:
        section = parsed.section("toolsets")
        for name, ts in parsed.toolsets.items():
            node = section.get(name)
            if not isinstance(ts, ExternalToolset) or not isinstance(node, YMap):
                continue
            tools = node["tools"]
            for tool, spec in ts.tools.items():
                schema = spec.input_schema
                if schema is None:
                    report("TC405", f"external tool '{tool}' has no `input_schema`",
                           tools.key_spans[tool],
                           notes=(("an external tool is described by its raw JSON "
                                  "Schema; `{type: object}` accepts anything"),))
                elif isinstance(schema, YMap) and schema.get("type") != "object":
                    report("TC405", f"the `input_schema` of external tool '{tool}' must "
                           "be an object schema (`type: object`)",
                           tools[tool].value_spans["input_schema"],
                           notes=(("MCP publishes it as the tool's inputSchema, which "
                                   "is always an object"),))


def check_manager_servers(facts: ProjectFacts, report: Reporter) -> None:
    """TC408: the servers of an ``mcp_manager`` are ``mcp`` toolsets."""
    for parsed in facts.modules:
        section = parsed.section("toolsets")
        for name, ts in parsed.toolsets.items():
            node = section.get(name)
            if not isinstance(ts, MCPManagerToolset) or not isinstance(node, YMap):
                continue
            servers = node["servers"]
            for server, ref in ts.servers.items():
                found = facts.find_toolset(parsed, ref)
                target = facts.toolset(*found) if found else None
                if target is not None and not isinstance(target, MCPToolset):
                    report("TC408", f"server '{server}' of toolset '{name}' is '{ref}', "
                           f"a `{target.kind}` toolset; an `mcp_manager` connects `mcp` "
                           "toolsets", servers.value_spans[server])


def check_handlers(facts: ProjectFacts, report: Reporter) -> None:
    """TC310: a tool that a ``function`` toolset lists (or the implicit export) has a handler."""
    for parsed in facts.modules:
        listed: dict[str, str] = {}
        for name, ts in parsed.toolsets.items():
            if isinstance(ts, FunctionToolset):
                for tool in ts.tools:
                    listed.setdefault(tool, f"toolset '{name}' lists it")
        if "export" not in parsed.raw:
            for tool in parsed.tools:
                listed.setdefault(tool, "with no `export`, the module exports all its tools")
        section = parsed.section("tools")
        for tool, why in listed.items():
            spec = parsed.tools.get(tool)
            if spec is not None and spec.handler is None:
                report("TC310", f"tool '{tool}' has no `handler`", section.key_spans[tool],
                       notes=(f"{why}; a `function` toolset runs each tool's handler",))


def check_values(facts: ProjectFacts, report: Reporter) -> None:
    """TC102/TC103, from one place: what the schema walk found (`required: true` on a
    schema that is no property), the pinned tools, and each tool's ``meta``."""
    report.relay(facts.found)
    _pinned_tools(facts, report)
    _meta_values(facts, report)


def _pinned_tools(facts: ProjectFacts, report: Reporter) -> None:
    """A pinned tool has an object ``input_schema``, an object ``output_schema`` if any,
    only JSON values (no NaN or infinity), and ``extra`` fields that are not given twice."""
    for parsed in facts.modules:
        section = parsed.section("toolsets")
        for name, ts in parsed.toolsets.items():
            node = section.get(name)
            if not isinstance(ts, MCPToolset) or ts.tools is None or not isinstance(node, YMap):
                continue
            tools = node["tools"]
            for tool in ts.tools:
                _check_pinned(report, tool, name, tools[tool], tools.key_spans[tool])


def _check_pinned(report: Reporter, tool: str, toolset: str, node: YMap, span: Span) -> None:
    what = f"pinned tool '{tool}' of toolset '{toolset}'"
    if "input_schema" not in node:
        report("TC102", f"{what} has no `input_schema`", span,
               notes=(("MCP tools always have an inputSchema; `{type: object}` "
                       "accepts anything"),))
    for key in ("input_schema", "output_schema"):
        if key in node and not isinstance(node[key], YMap):
            report("TC103", f"the `{key}` of {what} must be a mapping: MCP's "
                   f"{PUBLISHED_AS[key]} is a JSON object", node.value_spans[key])
    for key in ("input_schema", "output_schema", "annotations", "meta", "extra"):
        problem = non_json_problem(node.get(key))
        if problem:
            report("TC103", f"`{key}` of {what}: {problem}", node.value_spans[key])
    extra = node.get("extra")
    if not isinstance(extra, YMap):
        return
    for key in extra:
        given = next((k for k, v in PUBLISHED_AS.items() if v == key and k in node), None)
        if key == "name":
            report("TC103", f"`extra` of {what} gives `name`; the tool's name is its "
                   "key", extra.key_spans[key])
        elif given is not None:
            report("TC103", f"`extra` of {what} gives `{key}`, which `{given}` "
                   "gives already", extra.key_spans[key])


def _meta_values(facts: ProjectFacts, report: Reporter) -> None:
    """A tool's ``meta`` is published as JSON, which has no NaN or infinity."""
    for parsed in facts.modules:
        section = parsed.section("tools")
        for name in parsed.tools:
            node = section[name]
            problem = non_json_problem(node.get("meta"))
            if problem:
                report("TC103", f"`meta` of tool '{name}': {problem}", node.value_spans["meta"])
