"""`renamed`: the named tools renamed (`{old: new}`); the others pass unchanged."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolc.runtime.context import RunContext
from toolc.runtime.deferred import DeferredCallError
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.results import ToolResult, restate_unknown, unknown_tool
from toolc.runtime.toolsets.abstract import AbstractToolset, DelegatingToolset, ToolsetError


class RenamedToolset(DelegatingToolset[Any]):
    """The named tools renamed (`{old: new}`); the others pass unchanged (a spec's
    `renamed`).

    A tool renamed away is no longer reachable under its old name. Renaming onto a name the
    inner set still shows is a collision: `list_tools` raises `ToolsetError`.

    Attributes:
        names: The renames, old name to new.
    """

    def __init__(
        self, inner: AbstractToolset[Any], names: Mapping[str, str], *, id: str | None = None
    ) -> None:
        super().__init__(inner, id=id)
        self.names = dict(names)
        self._old_for = {new: old for old, new in self.names.items()}
        self._static: frozenset[str] | None = None
        if len(self._old_for) != len(self.names):
            raise ValueError(f"{self.label}: two tools renamed to the same name")

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        tools = [
            tool.renamed(self.names[tool.name]) if tool.name in self.names else tool
            for tool in await self.inner.list_tools(ctx)
        ]
        seen: set[str] = set()
        for tool in tools:
            if tool.name in seen:
                raise ToolsetError(
                    f"{self.label} renames a tool to {tool.name!r}, a name its inner set "
                    f"already shows"
                )
            seen.add(tool.name)
        return tools

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        old = self._old_for.get(name)
        if old is None:
            if name in self.names:  # renamed away: the old name is gone
                return unknown_tool(name)
            old = name
        try:
            result = await self.inner.call_tool(ctx, old, args)
        except DeferredCallError as paused:
            raise paused.with_tool_names(self._outer) from None
        return restate_unknown(result, name)

    def _outer(self, inner_name: str) -> str:
        return self.names.get(inner_name, inner_name)

    def listing_is_fixed(self) -> bool:
        return type(self) is RenamedToolset and self.inner.listing_is_fixed()  # exact kind

    def static_names(self) -> frozenset[str] | None:
        if self._static is None:  # static: computed once
            names = self.inner.static_names()
            if names is None:
                return None
            self._static = frozenset(self.names.get(n, n) for n in names)
        return self._static

    def describe(self) -> str:
        return f"RenamedToolset({self.names!r}, {self.inner.label})"
