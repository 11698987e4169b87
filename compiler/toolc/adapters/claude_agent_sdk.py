"""A compiled toolset as a Claude Agent SDK in-process MCP server: `sdk_mcp_server(...)`.

```python
import generated.workbench as workbench
from claude_agent_sdk import ClaudeAgentOptions
from toolc.adapters.claude_agent_sdk import sdk_mcp_server, tool_names

server = sdk_mcp_server(workbench.toolset, name="workbench")
options = ClaudeAgentOptions(mcp_servers={"workbench": server},
                             allowed_tools=tool_names(server))
assert "mcp__workbench__wb_readLog" in options.allowed_tools
```

The config's `instance` is toolc's own MCP server (`toolc.runtime.to_mcp_server`), so
Claude Code sees exactly what `toolc serve` and certification publish. Claude Code names
each tool `mcp__<server>__<tool>`, `<server>` being the key in `mcp_servers`:
`mcp__workbench__wb_readLog`. Use those names in `allowed_tools`, `disallowed_tools`
and `can_use_tool`; `tool_names(config)` lists them.

- deps: `deps=` is every call's `ctx.deps` (one server instance per deps).
- errors come back as MCP error results (`is_error`), which Claude reads. As behind
  any toolc server, a handler's unexpected exception reads "internal error in tool X
  (ref N)" (its traceback logged under that ref) unless `expose_errors=True`; a
  `ToolError`'s message is sent as written.
- approval: toolc asks through MCP elicitation, which the SDK does not forward to your
  application yet: such calls answer with an error saying approval could not be asked.
  `approval="permissions"` leaves approval to Claude Code's own permission system
  instead (`permission_mode`, `can_use_tool`): toolc then runs the calls Claude Code has
  let through; `approval_tool_names(config)` lists the tools that need it, so that
  `allowed_tools` can leave them out and `can_use_tool` can ask the user.
- external tools cannot run in a server: a call answers with an error result.
"""

from __future__ import annotations

from typing import Any, Literal

from toolc.adapters._common import approval_names, require
from toolc.runtime.context import RunContext
from toolc.runtime.deferred import ApprovalRequiredError, Approved
from toolc.runtime.results import ToolResult
from toolc.runtime.toolsets.abstract import AbstractToolset, DelegatingToolset

require("claude-agent-sdk", "claude_agent_sdk")

from claude_agent_sdk import McpSdkServerConfig

Approval = Literal["elicit", "permissions"]
"""Who asks the user about an approval-required call: toolc, by MCP elicitation
(`"elicit"`), or Claude Code's permission system (`"permissions"`)."""


class PermissionApproved(DelegatingToolset[Any]):
    """Runs calls that ask for approval as approved: for hosts (Claude Code) whose own
    permission system has already asked the user before the call reached the server."""

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        try:
            return await self.inner.call_tool(ctx, name, args)
        except ApprovalRequiredError as paused:
            call_id = paused.requests[0].call_id
            approved = ctx.for_call(call_id).resume(approvals={call_id: Approved()})
            return await self.inner.call_tool(approved, name, args)


def sdk_mcp_server(
    toolset: AbstractToolset[Any],
    *,
    name: str = "toolc",
    deps: Any = None,
    approval: Approval = "elicit",
    instructions: str | None = None,
    expose_errors: bool = False,
) -> McpSdkServerConfig:
    """An `McpSdkServerConfig` for `ClaudeAgentOptions.mcp_servers`, served by toolc."""
    # lazy: loads mcp (about a second)
    from toolc.runtime.mcp_server.toolset_server import to_mcp_server

    if approval not in ("elicit", "permissions"):
        raise ValueError(f"approval must be 'elicit' or 'permissions', not {approval!r}")
    served = PermissionApproved(toolset) if approval == "permissions" else toolset
    server = to_mcp_server(served, name=name, deps=deps, instructions=instructions,
                           expose_errors=expose_errors)
    server.toolc_toolset = toolset  # type: ignore[attr-defined]  # for tool_names
    return McpSdkServerConfig(type="sdk", name=name, instance=server)


def claude_name(server: str, tool: str) -> str:
    """The name Claude Code gives the tool `tool` of the MCP server `server`."""
    return f"mcp__{server}__{tool}"


def tool_names(config: McpSdkServerConfig) -> list[str]:
    """Claude Code's names of every tool the server can show (`mcp__<server>__<tool>`)."""
    names = _toolset(config).static_names()
    if names is None:
        raise ValueError("this toolset's names are known only by listing it (MCP); "
                         "use claude_name(server, tool)")
    return sorted(claude_name(config["name"], n) for n in names)


def approval_tool_names(config: McpSdkServerConfig) -> list[str]:
    """Claude Code's names of the tools whose calls need approval."""
    return sorted(claude_name(config["name"], n) for n in approval_names(_toolset(config)))


def _toolset(config: McpSdkServerConfig) -> AbstractToolset[Any]:
    toolset = getattr(config["instance"], "toolc_toolset", None)
    if not isinstance(toolset, AbstractToolset):
        raise TypeError("not a server made by sdk_mcp_server")
    return toolset
