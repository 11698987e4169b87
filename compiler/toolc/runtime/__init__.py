"""toolc.runtime: what user code and generated toolset modules write against.

`from toolc import runtime as rt`. The contract is in `toolc.runtime.toolsets.abstract`.
These are the public names (toolset kinds, `RunContext`, results and content blocks,
errors, approvals and deferrals, serving, the MCP kinds). What only generated modules
use (`ClassRecorder`, `LazyModule`) is in `toolc.runtime._generated`; the schema
`Validator` and `LazyWrapperToolset` (the type `lazy_wrapper` returns) stay in their
modules, `toolc.runtime.validation` and `toolc.runtime.toolsets.wrapper`.
Importing this package is cheap: the mcp SDK, anyio and jsonschema are imported only
when a toolset needs them; the MCP kinds and `to_mcp_server` load on first access.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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
from toolc.runtime.failures import ToolError
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
    from toolc.runtime.server.toolset_server import to_mcp_server

# Loaded on first access: they pull in asyncio and anyio, which `import toolc.runtime`
# should not pay for.
_LAZY = {
    "HttpServer": "toolc.runtime.mcp.toolset",
    "MCPManager": "toolc.runtime.mcp.manager",
    "MCPServerError": "toolc.runtime.mcp.toolset",
    "MCPToolset": "toolc.runtime.mcp.toolset",
    "StdioServer": "toolc.runtime.mcp.toolset",
    "to_mcp_server": "toolc.runtime.server.toolset_server",
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
    "Approved",
    "AudioContent",
    "CallNext",
    "CombinedToolset",
    "ContentBlock",
    "DeferredCallError",
    "DeferredToolRequest",
    "DelegatingToolset",
    "Denied",
    "EmbeddedResource",
    "ExternalCallRequired",
    "ExternalTool",
    "ExternalToolset",
    "FilteredToolset",
    "FunctionToolset",
    "HttpServer",
    "ImageContent",
    "LazyRef",
    "LazyRefError",
    "MCPManager",
    "MCPServerError",
    "MCPToolset",
    "PrefixedToolset",
    "PreparedToolset",
    "RenamedToolset",
    "ResourceLink",
    "RunContext",
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
