"""Per-turn policy for the showcase toolsets: who sees what, and an audit trail."""

from __future__ import annotations

from typing import Any, ClassVar

from toolc.runtime import CallNext, RunContext, ToolDefinition, ToolResult, WrapperToolset


def geometry_enabled(ctx: RunContext[Any]) -> bool:
    """Drawing tools are offered unless the caller's deps switch them off."""
    return not getattr(ctx.deps, "drawing_disabled", False)


def hide_destructive_when_read_only(
    ctx: RunContext[Any], tools: list[ToolDefinition]
) -> list[ToolDefinition]:
    if not getattr(ctx.deps, "read_only", False):
        return tools
    return [t for t in tools if not (t.annotations or {}).get("destructiveHint")]


class AuditLog(WrapperToolset):
    """Records every call (name and arguments) before passing it on."""

    calls: ClassVar[list[tuple[str, dict[str, Any]]]] = []

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any],
                        next: CallNext) -> ToolResult:
        AuditLog.calls.append((name, dict(args)))
        return await next(ctx, name, args)
