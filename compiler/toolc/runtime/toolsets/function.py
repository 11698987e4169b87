"""`function`: tools run by Python handlers in this process."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolc.runtime.context import RunContext
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.results import ToolResult, unknown_tool
from toolc.runtime.tool import Tool
from toolc.runtime.toolsets.abstract import AbstractToolset


class FunctionToolset(AbstractToolset[Any]):
    """The given tools, in the given order."""

    def __init__(self, tools: Sequence[Tool], *, id: str | None = None) -> None:
        self.id = id
        self.tools: dict[str, Tool] = {}
        for tool in tools:
            if tool.name in self.tools:
                raise ValueError(f"two tools named {tool.name!r} in one function toolset")
            self.tools[tool.name] = tool
        self._names = frozenset(self.tools)

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        return [tool.definition for tool in self.tools.values()]

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        tool = self.tools.get(name)
        if tool is None:
            return unknown_tool(name)
        return await tool.call(ctx, args)

    def listing_is_fixed(self) -> bool:
        return type(self) is FunctionToolset  # exact: a subclass may override list_tools

    def static_names(self) -> frozenset[str]:
        return self._names

    def describe(self) -> str:
        return f"FunctionToolset[{', '.join(self.tools)}]"
