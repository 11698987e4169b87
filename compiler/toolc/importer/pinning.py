"""MCP tools -> pinned tools -> the spec that holds them.

A tool's fields that have their MCP type go to their spec keys (``description`` and
``title`` strings, ``inputSchema`` -> ``input_schema``, ``outputSchema`` ->
``output_schema``, ``annotations``, ``_meta`` -> ``meta`` objects); every other field,
and a known field holding a value of another type (``"title": null``), goes to ``extra``
as given. Publishing a pinned tool puts each back where it was, so the published JSON is
the server's own. Nothing is added: no description, no title, no ``type``.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Sequence
from typing import Any

from .listing import ImportFailure, Server

# MCP field -> (spec key, the JSON type it must have there)
FIELDS: dict[str, tuple[str, type]] = {
    "title": ("title", str),
    "description": ("description", str),
    "annotations": ("annotations", dict),
    "inputSchema": ("input_schema", dict),
    "outputSchema": ("output_schema", dict),
    "_meta": ("meta", dict),
}
SPEC_ORDER = ("title", "description", "annotations", "input_schema", "output_schema", "meta")

HEADER = ("Pinned by `toolc import`: the tools of {what}, exactly as published.\n"
          "`toolc diff --live` shows what the server changed since; import again to take it.")


def pinned_tool(tool: dict[str, Any], where: str) -> dict[str, Any]:
    """One MCP tool (JSON) as the entry of an ``mcp`` toolset's ``tools``."""
    name = tool["name"]
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict):
        got = "no inputSchema" if schema is None else "an inputSchema that is not an object"
        raise ImportFailure(f"{where}: tool {name!r} has {got}; MCP tools always have an "
                            "object inputSchema")
    entry: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in tool.items():
        if key == "name":
            continue
        spec_key, kind = FIELDS.get(key, (None, object))
        if spec_key is not None and isinstance(value, kind) and not isinstance(value, bool):
            entry[spec_key] = value
        else:
            extra[key] = value
    ordered = {k: entry[k] for k in SPEC_ORDER if k in entry}
    if extra:
        ordered["extra"] = extra
    return ordered


def pinned_tools(tools: Sequence[dict[str, Any]], where: str) -> dict[str, dict[str, Any]]:
    """A listing as pinned tools by name, in its order; a name listed twice is refused."""
    out: dict[str, dict[str, Any]] = {}
    for tool in tools:
        name = tool["name"]
        if name in out:
            raise ImportFailure(f"{where} lists tool {name!r} twice")
        out[name] = pinned_tool(tool, where)
    return out


def mcp_toolset(server: Server, tools: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"kind": "mcp", **server.connection(), "tools": tools}


def server_spec(module: str, toolset: str, server: Server,
                tools: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A spec of one server: its ``mcp`` toolset, tools pinned, exported."""
    return {
        "toolc": 1,
        "module": module,
        "description": f"The tools of the MCP server {server.describe()}.",
        "toolsets": {toolset: mcp_toolset(server, tools)},
        "export": toolset,
    }


def manager_spec(module: str, servers: Sequence[tuple[Server, dict[str, dict[str, Any]]]],
                 source: str) -> dict[str, Any]:
    """A spec of every server of a client configuration: ``mcp`` toolsets under one
    ``mcp_manager`` (named ``servers``), which the module exports."""
    toolsets: dict[str, Any] = {}
    names: dict[str, str] = {}
    for server, tools in servers:
        ident = identifier(server.name, taken=set(toolsets) | {"servers"})
        toolsets[ident] = mcp_toolset(server, tools)
        names[server.name] = ident
    toolsets["servers"] = {"kind": "mcp_manager", "servers": names}
    return {
        "toolc": 1,
        "module": module,
        "description": f"The tools of the MCP servers of {source}.",
        "toolsets": toolsets,
        "export": "servers",
    }


def identifier(text: str, taken: set[str] | frozenset[str] = frozenset(),
               fallback: str = "server") -> str:
    """``text`` as an ASCII Python identifier (lower case, ``_`` for the rest), not a
    keyword and not in ``taken`` (a number is added then)."""
    base = re.sub(r"[^0-9a-z_]+", "_", text.lower()).strip("_") or fallback
    if base[0].isdigit():
        base = f"{fallback}_{base}"
    if keyword.iskeyword(base) or base in ("toolset",):
        base += "_"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name
