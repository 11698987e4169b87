"""toolc.runtime: what user code and generated toolset modules write against.

`from toolc import runtime as rt`. These are the public names (toolset kinds,
`RunContext`, results and content blocks, errors, approvals and deferrals, serving, the
MCP kinds), re-exported from the parts:

- `toolsets/`: the toolset kinds, one module each; the contract in `toolsets/abstract.py`;
- `mcp/`: the MCP client side (`MCPToolset`, `MCPManager`, pinned definitions);
- `mcp_server/`: the MCP server side, any toolset served over MCP (`to_mcp_server`);
- `_generated/`: what only generated modules use (`ClassRecorder`, `LazyModule`),
  imported as `rtg`, not re-exported here;
- beside this file, what every part shares: `context.py` (and what a handler asks of
  its caller: `client.py`, `elicitation.py`), `definition.py`
  (`ToolDefinition`), `deferred.py` and `pausing.py` (calls that pause), `results.py`,
  `failures.py`, `validation.py` (the schema `Validator`), `tool.py`, `metakeys.py`,
  `json_pointers.py`.

`LazyWrapperToolset` (the type `lazy_wrapper` returns) stays in `toolsets/wrapper.py`.
Importing this package is cheap: the mcp SDK, anyio and jsonschema are imported only
when a toolset needs them; the MCP kinds and `to_mcp_server` load on first access.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from toolc.runtime.client import CallClient, ClientUnavailable, Elicited, Sampled
from toolc.runtime.context import RunContext
from toolc.runtime.deferred import (
    ApprovalRequiredError,
    Approved,
    DeferredCallError,
    DeferredToolRequest,
    Denied,
    ExternalCallRequired,
)
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.elicitation import InvalidAnswer
from toolc.runtime.failures import ToolError
from toolc.runtime.pausing import PausedResult
from toolc.runtime.results import (
    AudioContent,
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    ToolResult,
)
from toolc.runtime.tool import LazyRef, LazyRefError, Tool
from toolc.runtime.toolsets.abstract import AbstractToolset, DelegatingToolset, ToolsetError
from toolc.runtime.toolsets.approval import ApprovalRequiredToolset
from toolc.runtime.toolsets.combined import CombinedToolset
from toolc.runtime.toolsets.external import ExternalTool, ExternalToolset
from toolc.runtime.toolsets.filtered import FilteredToolset
from toolc.runtime.toolsets.function import FunctionToolset
from toolc.runtime.toolsets.prefixed import PrefixedToolset
from toolc.runtime.toolsets.prepared import PreparedToolset
from toolc.runtime.toolsets.renamed import RenamedToolset
from toolc.runtime.toolsets.wrapper import CallNext, WrapperToolset, lazy_wrapper

if TYPE_CHECKING:
    from toolc.runtime.mcp.manager import MCPManager
    from toolc.runtime.mcp.toolset import HttpServer, MCPServerError, MCPToolset, StdioServer
    from toolc.runtime.mcp_server.approval_state import ApprovalStates, MemoryNonces
    from toolc.runtime.mcp_server.toolset_server import to_mcp_server

# Loaded on first access: they pull in asyncio and anyio, which `import toolc.runtime`
# should not pay for.
_LAZY = {
    "ApprovalStates": "toolc.runtime.mcp_server.approval_state",
    "HttpServer": "toolc.runtime.mcp.toolset",
    "MCPManager": "toolc.runtime.mcp.manager",
    "MCPServerError": "toolc.runtime.mcp.toolset",
    "MCPToolset": "toolc.runtime.mcp.toolset",
    "MemoryNonces": "toolc.runtime.mcp_server.approval_state",
    "StdioServer": "toolc.runtime.mcp.toolset",
    "to_mcp_server": "toolc.runtime.mcp_server.toolset_server",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'toolc.runtime' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "AbstractToolset",
    "ApprovalRequiredError",
    "ApprovalRequiredToolset",
    "ApprovalStates",
    "Approved",
    "AudioContent",
    "CallClient",
    "CallNext",
    "ClientUnavailable",
    "CombinedToolset",
    "ContentBlock",
    "DeferredCallError",
    "DeferredToolRequest",
    "DelegatingToolset",
    "Denied",
    "Elicited",
    "EmbeddedResource",
    "ExternalCallRequired",
    "ExternalTool",
    "ExternalToolset",
    "FilteredToolset",
    "FunctionToolset",
    "HttpServer",
    "ImageContent",
    "InvalidAnswer",
    "LazyRef",
    "LazyRefError",
    "MCPManager",
    "MCPServerError",
    "MCPToolset",
    "MemoryNonces",
    "PausedResult",
    "PrefixedToolset",
    "PreparedToolset",
    "RenamedToolset",
    "ResourceLink",
    "RunContext",
    "Sampled",
    "StdioServer",
    "TextContent",
    "Tool",
    "ToolDefinition",
    "ToolError",
    "ToolResult",
    "ToolsetError",
    "WrapperToolset",
    "lazy_wrapper",
    "to_mcp_server",
]
