"""`combined`: the union of several toolsets, in member order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from toolc.runtime.context import RunContext
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.failures import cannot_run
from toolc.runtime.results import ToolResult, unknown_tool
from toolc.runtime.toolsets.abstract import AbstractToolset, ExitInfo, ToolsetError

Conflicts = Literal["error", "last_wins"]
Listing = tuple[list[ToolDefinition], dict[str, AbstractToolset[Any]]]


class CombinedToolset(AbstractToolset[Any]):
    """The union of several toolsets, in member order (a spec's `combined`).

    A name given by two members is an error (`ToolsetError` naming both members) unless
    `conflicts="last_wins"`: then the later member's tool wins and stands at its own place
    in the order; the earlier one is gone.

    A call is routed without listing when it can be: a name that only one member could
    ever show (by `static_names()`) goes straight to that member, which then decides
    whether the tool is shown in this turn. Other names (a dynamic member such as an MCP
    server, or a name several members could show) are routed by this turn's listing,
    memoised in the context.

    Attributes:
        toolsets: The members, in order.
        conflicts: `"error"` (a name two members give is a `ToolsetError`) or
            `"last_wins"`.
    """

    def __init__(
        self,
        toolsets: Sequence[AbstractToolset[Any]],
        conflicts: Conflicts = "error",
        *,
        id: str | None = None,
    ) -> None:
        if conflicts not in ("error", "last_wins"):
            raise ValueError(f"conflicts must be 'error' or 'last_wins', not {conflicts!r}")
        self.toolsets = list(toolsets)
        self.conflicts = conflicts
        self.id = id
        self._routes: dict[str, AbstractToolset[Any]] | None = None
        self._all_static = False
        self._static: frozenset[str] | None = None

    # -- routing --------------------------------------------------------------------

    def _static_routes(self) -> dict[str, AbstractToolset[Any]]:
        """Names only one member could ever show -> that member (built once)."""
        if self._routes is None:
            owners: dict[str, list[AbstractToolset[Any]]] = {}
            all_static = True
            for member in self.toolsets:
                names = member.static_names()
                if names is None:
                    all_static = False
                    continue
                for name in names:
                    owners.setdefault(name, []).append(member)
            self._all_static = all_static
            self._routes = {name: ms[0] for name, ms in owners.items() if len(ms) == 1}
        return self._routes

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        routes = self._static_routes()
        # With last_wins a dynamic member could take a name over: only a listing can tell.
        member = routes.get(name) if self._all_static or self.conflicts == "error" else None
        if member is None:
            member = await self._route_by_listing(ctx, name)
            if member is None:
                return unknown_tool(name)
        return await member.call_tool(ctx, name, args)

    async def _route_by_listing(
        self, ctx: RunContext[Any], name: str
    ) -> AbstractToolset[Any] | None:
        try:
            _, owners = await self.listing(ctx)
        except ToolsetError as exc:
            return _Failed(exc)
        return owners.get(name)

    # -- listing --------------------------------------------------------------------

    async def listing(self, ctx: RunContext[Any]) -> Listing:
        """This turn's tools and which member gives each (memoised in the context)."""
        key = (self, ctx.step)
        found = ctx.turn_memo.get(key)
        if found is None:
            found = self._merge(await self.list_members(ctx))
            ctx.turn_memo[key] = found
        return found

    async def list_members(self, ctx: RunContext[Any]) -> list[list[ToolDefinition]]:
        """Each member's tools, in member order (MCPManager lists in parallel)."""
        return [await member.list_tools(ctx) for member in self.toolsets]

    def _merge(self, listings: list[list[ToolDefinition]]) -> Listing:
        merged: dict[str, ToolDefinition] = {}
        owners: dict[str, AbstractToolset[Any]] = {}
        for member, tools in zip(self.toolsets, listings, strict=True):
            for tool in tools:
                earlier = owners.get(tool.name)
                if earlier is not None:
                    if self.conflicts == "error":
                        raise ToolsetError(self._collision(tool.name, earlier, member))
                    del merged[tool.name]  # the later one stands at its own place
                merged[tool.name] = tool
                owners[tool.name] = member
        return list(merged.values()), owners

    def _collision(
        self, name: str, first: AbstractToolset[Any], second: AbstractToolset[Any]
    ) -> str:
        i, j = self.toolsets.index(first), self.toolsets.index(second)
        return (
            f"{self.label}: tool {name!r} is given by member {i} ({first.label}) and "
            f"member {j} ({second.label}); rename one, or combine with conflicts='last_wins'"
        )

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        tools, _ = await self.listing(ctx)
        return list(tools)

    # -- the rest of the contract ---------------------------------------------------

    async def get_instructions(self, ctx: RunContext[Any]) -> str | None:
        parts = [text for m in self.toolsets if (text := await m.get_instructions(ctx))]
        return "\n\n".join(parts) if parts else None

    def listing_is_fixed(self) -> bool:
        return type(self) is CombinedToolset and all(m.listing_is_fixed() for m in self.toolsets)

    def static_names(self) -> frozenset[str] | None:
        if self._static is None:  # static: computed once
            names: set[str] = set()
            for member in self.toolsets:
                member_names = member.static_names()
                if member_names is None:
                    return None
                names |= member_names
            self._static = frozenset(names)
        return self._static

    async def enter_resources(self) -> None:
        entered: list[AbstractToolset[Any]] = []
        try:
            for member in self.toolsets:
                await member.__aenter__()
                entered.append(member)
        except BaseException as exc:
            for member in reversed(entered):
                await member.__aexit__(type(exc), exc, exc.__traceback__)
            raise

    async def exit_resources(self, exc_info: ExitInfo) -> None:
        for member in reversed(self.toolsets):
            await member.__aexit__(*exc_info)

    def describe(self) -> str:
        return f"CombinedToolset[{', '.join(m.label for m in self.toolsets)}]"


class _Failed(AbstractToolset[Any]):
    """Stands for a member when this turn's listing failed: the call says why."""

    def __init__(self, error: ToolsetError) -> None:
        self.error = error

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        raise self.error

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        return cannot_run(name, self.error)
