"""`approval_required`: every call pauses for approval (see `toolc.runtime.deferred`)."""

from __future__ import annotations

import dataclasses
from typing import Any

from toolc.runtime.context import RunContext
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.metakeys import with_approval
from toolc.runtime.pausing import approval_gate
from toolc.runtime.results import ToolResult
from toolc.runtime.toolsets.abstract import DelegatingToolset


class ApprovalRequiredToolset(DelegatingToolset[Any]):
    """Every call pauses for approval (a spec's `approval_required`).

    A call whose id has no answer in `ctx.approvals` raises `ApprovalRequiredError` with
    the tool name as this set shows it and the arguments as they reached it. `Approved`
    runs the inner tool (with `override_args` when given), `Denied` answers with an error
    result telling the model the call was not run and why. A name the inner set can never
    show is passed on without asking, so the model hears "Unknown tool" at once.

    Every tool it lists carries `_meta` `"toolc/requiresApproval": true` (merged into the
    tool's own `_meta`), as the golden files show it, so a client's permission flow can see
    that its calls pause.
    """

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        return [dataclasses.replace(tool, meta=with_approval(tool.meta))
                for tool in await self.inner.list_tools(ctx)]

    def listing_is_fixed(self) -> bool:
        return type(self) is ApprovalRequiredToolset and self.inner.listing_is_fixed()

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        names = self.inner.static_names()
        if names is not None and name not in names:
            return await self.inner.call_tool(ctx, name, args)
        gate = approval_gate(ctx, name, args)
        if isinstance(gate, ToolResult):
            return gate
        return await self.inner.call_tool(ctx, name, gate)
