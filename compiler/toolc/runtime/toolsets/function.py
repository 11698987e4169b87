"""`function`: tools run by Python handlers in this process."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from toolc.runtime.context import RunContext
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.results import ToolResult, unknown_tool
from toolc.runtime.tool import Tool
from toolc.runtime.toolsets.abstract import AbstractToolset

USED = ("the set is fixed once used (listed, called, entered, or asked for its names); add "
        "every tool before first use, or combine this set with a FunctionToolset of the new "
        "tools in a CombinedToolset")


class FunctionToolset(AbstractToolset[Any]):
    """The given tools, in the given order; more can be added before first use.

    Tools are given to the constructor or added with `add_tool` before the set's first use
    (listed, called, entered, or asked for its names). From then on the set is fixed: the
    contract lets a caller rely on `listing_is_fixed()` and `static_names()` (a server
    lists it once, a combined set routes by its names once), so a tool added later could go
    unseen. A generated module fixes its sets as it builds them: their tools are the spec's,
    as the golden files publish them.
    """

    def __init__(self, tools: Sequence[Tool] = (), *, id: str | None = None) -> None:
        self.id = id
        self._tools: dict[str, Tool] = {}
        self._fixed: str | None = None  # why no tool can be added any more
        self._names: frozenset[str] = frozenset()  # set when fixed
        for tool in tools:
            self.add_tool(tool)

    @property
    def tools(self) -> Mapping[str, Tool]:
        """The tools by name, in order (a read-only view: add tools with `add_tool`)."""
        return MappingProxyType(self._tools)

    def add_tool(self, tool: Tool) -> None:
        """Add `tool` after the others.

        Raises `ValueError` when the set has a tool of that name already, and
        `RuntimeError` once the set is fixed: after its first use, or when a generated
        module built it (add the tool to the spec, or combine the set with one of your
        own in a `CombinedToolset`).
        """
        if self._fixed is not None:
            raise RuntimeError(f"{self.label}: cannot add tool {tool.name!r}: {self._fixed}")
        if tool.name in self._tools:
            raise ValueError(f"two tools named {tool.name!r} in one function toolset")
        self._tools[tool.name] = tool

    def fix(self, reason: str = USED) -> None:
        """Take no more tools: `add_tool` raises from now on, its message ending in
        `reason` (why the set is fixed, and what to do instead)."""
        if self._fixed is None:
            self._fixed = reason
            self._names = frozenset(self._tools)

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        if self._fixed is None:
            self.fix()
        return [tool.definition for tool in self._tools.values()]

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        if self._fixed is None:
            self.fix()
        tool = self._tools.get(name)
        if tool is None:
            return unknown_tool(name)
        return await tool.call(ctx, args)

    async def enter_resources(self) -> None:
        self.fix()

    def listing_is_fixed(self) -> bool:
        self.fix()
        return type(self) is FunctionToolset  # exact: a subclass may override list_tools

    def static_names(self) -> frozenset[str]:
        if self._fixed is None:
            self.fix()
        return self._names

    def describe(self) -> str:
        return f"FunctionToolset[{', '.join(self._tools)}]"
