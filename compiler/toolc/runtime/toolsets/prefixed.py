"""`prefixed`: every name becomes `prefix + name`, the prefix taken literally."""

from __future__ import annotations

from typing import Any

from toolc.runtime.context import RunContext
from toolc.runtime.deferred import DeferredCallError
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.results import ToolResult, restate_unknown, unknown_tool
from toolc.runtime.toolsets.abstract import AbstractToolset, DelegatingToolset


class PrefixedToolset(DelegatingToolset[Any]):
    """Every name becomes `prefix + name`, the prefix taken literally (a spec's
    `prefixed`); a paused call reports its tool under the prefixed name.

    Attributes:
        prefix: The prefix.
    """

    def __init__(self, inner: AbstractToolset[Any], prefix: str, *, id: str | None = None) -> None:
        super().__init__(inner, id=id)
        self.prefix = prefix
        self._cut = len(prefix)
        self._names: frozenset[str] | None = None
        # The last inner listing and its prefixed copy: most listings repeat the last.
        self._last: tuple[list[ToolDefinition], list[ToolDefinition]] = ([], [])

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        inner = await self.inner.list_tools(ctx)
        seen, prefixed = self._last
        if len(seen) != len(inner) or any(a is not b for a, b in zip(seen, inner, strict=True)):
            prefixed = [tool.renamed(self.prefix + tool.name) for tool in inner]
            self._last = (inner, prefixed)
        return list(prefixed)

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        if not name.startswith(self.prefix):
            return unknown_tool(name)
        try:
            result = await self.inner.call_tool(ctx, name[self._cut :], args)
        except DeferredCallError as paused:
            raise paused.with_tool_names(self._outer) from None
        return restate_unknown(result, name)

    def _outer(self, inner_name: str) -> str:
        return self.prefix + inner_name

    def listing_is_fixed(self) -> bool:
        return type(self) is PrefixedToolset and self.inner.listing_is_fixed()  # exact kind

    def static_names(self) -> frozenset[str] | None:
        if self._names is None:  # static: computed once
            names = self.inner.static_names()
            if names is None:
                return None
            self._names = frozenset(self.prefix + n for n in names)
        return self._names

    def describe(self) -> str:
        return f"PrefixedToolset({self.prefix!r}, {self.inner.label})"
