"""`prepared`: per turn, `prepare(ctx, tools) -> tools` may remove, reorder or edit tools."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from toolc.runtime.context import RunContext
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.failures import cannot_run
from toolc.runtime.results import ToolResult, unknown_tool
from toolc.runtime.tool import LazyRef, call_inline, is_async_callable, resolve_callable
from toolc.runtime.toolsets.abstract import AbstractToolset, DelegatingToolset, ToolsetError

Prepare = Callable[
    [RunContext[Any], list[ToolDefinition]],
    list[ToolDefinition] | Awaitable[list[ToolDefinition]],
]


class PreparedToolset(DelegatingToolset[Any]):
    """Per turn, `prepare(ctx, tools) -> tools` may remove, reorder or edit the tools
    (a spec's `prepared`).

    It may not invent tools: every name it returns must be one the inner set listed (a
    rename is an invention too), each at most once. An edit changes what the model reads,
    not how the call is validated: the inner tool's own validator still decides.

    The prepared listing is computed once per turn (memoised in the context) and also
    decides which calls reach the inner set: a tool prepare removed is an "Unknown tool".
    A prepare function that raises, invents a tool or returns something else than a list of
    `ToolDefinition`s makes `list_tools` raise `ToolsetError` naming it, and a call returns
    an error result saying the same (as for a failing predicate, see `FilteredToolset`).

    Attributes:
        prepare: The prepare function, or a `LazyRef` to it (imported at first use).
    """

    def __init__(
        self,
        inner: AbstractToolset[Any],
        prepare: Prepare | LazyRef,
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(inner, id=id)
        self.prepare = prepare
        self._fn: Any = None
        self._is_async = False

    async def prepared(self, ctx: RunContext[Any]) -> tuple[list[ToolDefinition], frozenset[str]]:
        """This turn's prepared tools and their names; raises ToolsetError on a bad prepare."""
        key = (self, ctx.step)
        found = ctx.turn_memo.get(key)
        if found is None:
            found = await self._prepare(ctx)
            ctx.turn_memo[key] = found
        return found

    async def _prepare(self, ctx: RunContext[Any]) -> tuple[list[ToolDefinition], frozenset[str]]:
        tools = await self.inner.list_tools(ctx)
        known = {tool.name for tool in tools}
        try:
            if self._fn is None:
                self._fn = resolve_callable(self.prepare)
                self._is_async = is_async_callable(self._fn)
            result = await call_inline(self._fn, self._is_async, ctx, tools)
        except Exception as exc:
            raise ToolsetError(
                f"the prepare function {self._name()} of {self.label} failed: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        return self._checked(result, known)

    def _checked(self, result: Any, known: set[str]) -> tuple[list[ToolDefinition], frozenset[str]]:
        if not isinstance(result, list) or not all(isinstance(t, ToolDefinition) for t in result):
            raise ToolsetError(
                f"the prepare function {self._name()} of {self.label} must return a list of "
                f"ToolDefinition, not {type(result).__name__}"
            )
        names: set[str] = set()
        for tool in result:
            if tool.name not in known:
                raise ToolsetError(
                    f"the prepare function {self._name()} of {self.label} returned a tool "
                    f"{tool.name!r} that its inner set does not have; prepare may remove, "
                    f"reorder or edit tools, not add or rename them"
                )
            if tool.name in names:
                raise ToolsetError(
                    f"the prepare function {self._name()} of {self.label} returned "
                    f"{tool.name!r} twice"
                )
            names.add(tool.name)
        return list(result), frozenset(names)

    def _name(self) -> str:
        p = self.prepare
        return str(p) if isinstance(p, LazyRef) else getattr(p, "__qualname__", repr(p))

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        tools, _ = await self.prepared(ctx)
        return list(tools)

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        try:
            _, names = await self.prepared(ctx)
        except ToolsetError as exc:
            return cannot_run(name, exc)
        if name not in names:
            return unknown_tool(name)
        return await self.inner.call_tool(ctx, name, args)
