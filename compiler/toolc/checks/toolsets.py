"""Rules of particular toolset kinds: mcp transports, external schemas, handlers."""

from __future__ import annotations

from ..loader import YMap
from ..model.toolsets import ExternalToolset, FunctionToolset, MCPManagerToolset, MCPToolset
from .project import Project


def check_mcp_transport(project: Project) -> None:
    """TC404: an ``mcp`` toolset has exactly one of ``stdio`` and ``http``."""
    for parsed in project.modules:
        section = parsed.section("toolsets")
        for name, ts in parsed.toolsets.items():
            node = section.get(name)
            if not isinstance(ts, MCPToolset) or not isinstance(node, YMap):
                continue
            if ts.stdio is None and ts.http is None:
                project.report("TC404", f"`mcp` toolset '{name}' has neither `stdio` nor `http`",
                               section.key_spans[name],
                               notes=("give `stdio: {command: ...}` or `http: {url: ...}`",))
            elif ts.stdio is not None and ts.http is not None:
                second = max(("stdio", "http"), key=lambda k: list(node).index(k))
                project.report("TC404", f"`mcp` toolset '{name}' has both `stdio` and `http`; "
                               "it connects to one server, over one of them",
                               node.key_spans[second])


def check_external_schemas(project: Project) -> None:
    """TC405: every tool of an ``external`` toolset has an object ``input_schema``."""
    for parsed in project.modules:
        section = parsed.section("toolsets")
        for name, ts in parsed.toolsets.items():
            node = section.get(name)
            if not isinstance(ts, ExternalToolset) or not isinstance(node, YMap):
                continue
            tools = node["tools"]
            for tool, spec in ts.tools.items():
                schema = spec.input_schema
                if schema is None:
                    project.report("TC405", f"external tool '{tool}' has no `input_schema`",
                                   tools.key_spans[tool],
                                   notes=(("an external tool is described by its raw JSON "
                                          "Schema; `{type: object}` accepts anything"),))
                elif isinstance(schema, YMap) and schema.get("type") != "object":
                    project.report("TC405", f"the `input_schema` of external tool '{tool}' must "
                                   "be an object schema (`type: object`)",
                                   tools[tool].value_spans["input_schema"],
                                   notes=(("MCP publishes it as the tool's inputSchema, which "
                                           "is always an object"),))


def check_manager_servers(project: Project) -> None:
    """TC408: the servers of an ``mcp_manager`` are ``mcp`` toolsets."""
    for parsed in project.modules:
        section = parsed.section("toolsets")
        for name, ts in parsed.toolsets.items():
            node = section.get(name)
            if not isinstance(ts, MCPManagerToolset) or not isinstance(node, YMap):
                continue
            servers = node["servers"]
            for server, ref in ts.servers.items():
                found = project.find_toolset(parsed, ref)
                target = project.toolset(*found) if found else None
                if target is not None and not isinstance(target, MCPToolset):
                    project.report("TC408", f"server '{server}' of toolset '{name}' is '{ref}', "
                                   f"a `{target.kind}` toolset; an `mcp_manager` connects `mcp` "
                                   "toolsets", servers.value_spans[server])


def check_handlers(project: Project) -> None:
    """TC310: a tool that a ``function`` toolset lists (or the implicit export) has a handler."""
    for parsed in project.modules:
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
                project.report("TC310", f"tool '{tool}' has no `handler`", section.key_spans[tool],
                               notes=(f"{why}; a `function` toolset runs each tool's handler",))
