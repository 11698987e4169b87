"""toolc.runtime: the library generated toolset modules import.

`from toolc import runtime as rt`. The contract is in `toolc.runtime.abstract`.
`ClassRecorder` and `LazyModule` are used by generated modules: their support code,
written once here rather than in every module.
Importing this package is cheap: the mcp SDK, anyio and jsonschema are imported only
when a toolset needs them; the MCP kinds and `to_mcp_server` load on first access.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from toolc.runtime.abstract import AbstractToolset, DelegatingToolset, ToolDefinition, ToolsetError
from toolc.runtime.approval import ApprovalRequiredToolset
from toolc.runtime.combined import CombinedToolset
from toolc.runtime.context import RunContext
from toolc.runtime.deferred import (
    ApprovalRequiredError,
    Approved,
    DeferredCallError,
    DeferredToolRequest,
    Denied,
    ExternalCallRequired,
)
from toolc.runtime.external import ExternalTool, ExternalToolset
from toolc.runtime.failures import ToolError
from toolc.runtime.filtered import FilteredToolset
from toolc.runtime.function import FunctionToolset
from toolc.runtime.generated_support import LazyModule
from toolc.runtime.prefixed import PrefixedToolset
from toolc.runtime.prepared import PreparedToolset
from toolc.runtime.recorded import ClassRecorder
from toolc.runtime.renamed import RenamedToolset
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
from toolc.runtime.validation import Validator, ValidatorBroken
from toolc.runtime.wrapper import LazyWrapperToolset, WrapperToolset, lazy_wrapper
from toolc.runtime.wrapper import Next as CallNext

if TYPE_CHECKING:
    from toolc.runtime.manager import MCPManager
    from toolc.runtime.mcp import HttpServer, MCPServerError, MCPToolset, StdioServer
    from toolc.runtime.server import to_mcp_server

# Loaded on first access: they pull in asyncio and anyio, which `import toolc.runtime`
# should not pay for.
_LAZY = {
    "HttpServer": "toolc.runtime.mcp",
    "MCPManager": "toolc.runtime.manager",
    "MCPServerError": "toolc.runtime.mcp",
    "MCPToolset": "toolc.runtime.mcp",
    "StdioServer": "toolc.runtime.mcp",
    "to_mcp_server": "toolc.runtime.server",
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
    "ClassRecorder",
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
    "LazyModule",
    "LazyRef",
    "LazyRefError",
    "LazyWrapperToolset",
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
    "Validator",
    "ValidatorBroken",
    "WrapperToolset",
    "lazy_wrapper",
    "to_mcp_server",
]
