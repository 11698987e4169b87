"""`filtered`: the whole inner set, shown or hidden per turn by `predicate(ctx)`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from toolc.runtime.context import RunContext
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.failures import cannot_run
from toolc.runtime.results import ToolResult, unknown_tool
from toolc.runtime.tool import LazyRef, call_inline, is_async_callable, resolve_callable
from toolc.runtime.toolsets.abstract import AbstractToolset, DelegatingToolset, ToolsetError

Predicate = Callable[[RunContext[Any]], bool | Awaitable[bool]]


class FilteredToolset(DelegatingToolset[Any]):
    """The whole inner set, shown or hidden per turn by `predicate(ctx)` (a spec's
    `filtered`).

    The predicate runs once per turn (memoised in the context), on the event loop (keep it
    quick: it should only look at the context); it may be sync or async, a callable or a
    `LazyRef`. A call to a tool of a hidden set is an "Unknown tool" error
    result, as if the tool did not exist.

    A predicate that raises (or does not return a bool, or does not import) is the
    predicate's bug, not the model's: `list_tools` raises `ToolsetError` naming the
    predicate (a listing cannot half-succeed, and hiding the tools silently would hide the
    bug too), and `call_tool` returns an error result saying the same.

    Attributes:
        predicate: The predicate, or a `LazyRef` to it (imported at first use).
    """

    def __init__(
        self,
        inner: AbstractToolset[Any],
        predicate: Predicate | LazyRef,
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(inner, id=id)
        self.predicate = predicate
        self._fn: Any = None
        self._is_async = False

    async def visible(self, ctx: RunContext[Any]) -> bool:
        """The predicate's verdict for this turn; raises ToolsetError when it fails."""
        key = (self, ctx.step)
        verdict = ctx.turn_memo.get(key)
        if verdict is None:
            verdict = await self._evaluate(ctx)
            ctx.turn_memo[key] = verdict
        return verdict

    async def _evaluate(self, ctx: RunContext[Any]) -> bool:
        try:
            if self._fn is None:
                self._fn = resolve_callable(self.predicate)
                self._is_async = is_async_callable(self._fn)
            verdict = await call_inline(self._fn, self._is_async, ctx)
        except Exception as exc:
            raise ToolsetError(
                f"the predicate {self._name()} of {self.label} failed: {type(exc).__name__}: {exc}"
            ) from exc
        if not isinstance(verdict, bool):
            raise ToolsetError(
                f"the predicate {self._name()} of {self.label} returned "
                f"{type(verdict).__name__}, not bool"
            )
        return verdict

    def _name(self) -> str:
        p = self.predicate
        return str(p) if isinstance(p, LazyRef) else getattr(p, "__qualname__", repr(p))

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        return await self.inner.list_tools(ctx) if await self.visible(ctx) else []

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        try:
            shown = await self.visible(ctx)
        except ToolsetError as exc:
            return cannot_run(name, exc)
        if not shown:
            return unknown_tool(name)
        return await self.inner.call_tool(ctx, name, args)
