"""`mcp_manager`: several MCP servers connected together, their tools merged."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from types import MappingProxyType
from typing import Any

import anyio

from toolc.runtime.context import RunContext
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.mcp.toolset import MCPServerError, MCPToolset
from toolc.runtime.results import ToolResult
from toolc.runtime.toolsets.abstract import ExitInfo, ToolsetError
from toolc.runtime.toolsets.combined import CombinedToolset, Conflicts

logger = logging.getLogger("toolc.runtime")

USED = ("the manager is fixed once used (connected, entered, listed or called); add every "
        "server before first use, or combine this manager with another in a CombinedToolset")


class MCPManager(CombinedToolset):
    """The tools of several MCP servers, by name, merged in server order.

    Connecting (`await manager.connect()`, or entering `async with manager:`) connects
    every server in parallel; if some fail, the ones that connected are closed again and an
    `ExceptionGroup` names each server that failed. Disconnecting (`disconnect()`, or
    leaving the block) disconnects every server in parallel and raises an `ExceptionGroup`
    naming each server whose disconnect failed (all are attempted). As for one
    `MCPToolset`, `connect()` and `disconnect()` are not counted (`disconnect()` closes
    whatever is open) while `async with` blocks are; and a server not connected yet
    connects at its first use. Listing lists the servers in parallel and merges their
    tools in server order; a name two servers give is a `ToolsetError` naming both, unless
    `conflicts="last_wins"`: then the later server's tool wins, as in `CombinedToolset`.
    Instructions are the servers' own, each under its name.

    Servers are given to the constructor or added with `add_server` before the manager's
    first use (connected, entered, listed or called): a server added later would not be
    connected, nor left, with the others. A generated module fixes its managers as it
    builds them: their servers are the spec's.
    """

    def __init__(self, servers: Mapping[str, MCPToolset] | None = None, *,
                 conflicts: Conflicts = "error", id: str | None = None) -> None:
        super().__init__([], conflicts, id=id)
        self._servers: dict[str, MCPToolset] = {}
        self._fixed: str | None = None  # why no server can be added any more
        for name, server in (servers or {}).items():
            self.add_server(name, server)

    @property
    def servers(self) -> Mapping[str, MCPToolset]:
        """The servers by name, in order (a read-only view: add with `add_server`)."""
        return MappingProxyType(self._servers)

    @property
    def server_count(self) -> int:
        """How many servers the manager holds."""
        return len(self._servers)

    def add_server(self, name: str, server: MCPToolset) -> None:
        """Add `server` under `name`, after the others; messages name it by `name` when
        it has no `id` of its own.

        Raises `ValueError` when the name is taken, and `RuntimeError` once the manager
        is fixed: after its first use, or when a generated module built it.
        """
        if self._fixed is not None:
            raise RuntimeError(f"{self.label}: cannot add server {name!r}: {self._fixed}")
        if name in self._servers:
            raise ValueError(f"two MCP servers named {name!r} in one manager")
        if server.id is None:
            server.id = name  # messages name the server as the spec does
        self._servers[name] = server
        self.toolsets.append(server)
        self._routes = self._static = None  # routing is decided again, with this server

    def fix(self, reason: str = USED) -> None:
        """Take no more servers: `add_server` raises from now on, its message ending in
        `reason` (why the manager is fixed, and what to do instead)."""
        if self._fixed is None:
            self._fixed = reason

    def invalidate_cache(self) -> None:
        """Drop every server's cached tool listing (`MCPToolset.invalidate_cache`)."""
        for server in self._servers.values():
            server.invalidate_cache()

    async def _each(
        self, action: Callable[[MCPToolset], Awaitable[Any]]
    ) -> tuple[dict[str, Any], dict[str, Exception]]:
        """Run `action` on every server in parallel; results and failures by name."""
        results: dict[str, Any] = {}
        failures: dict[str, Exception] = {}

        async def run(name: str, server: MCPToolset) -> None:
            try:
                results[name] = await action(server)
            except Exception as exc:  # noqa: BLE001  # collected: each server's own failure
                failures[name] = exc

        async with anyio.create_task_group() as tg:
            for name, server in self._servers.items():
                tg.start_soon(run, name, server)
        return results, failures

    @staticmethod
    def _group(what: str, failures: dict[str, Exception]) -> ExceptionGroup[Exception]:
        named = [
            exc if isinstance(exc, MCPServerError) else MCPServerError(name, str(exc))
            for name, exc in failures.items()
        ]
        return ExceptionGroup(f"{what} MCP servers failed: {', '.join(failures)}", named)

    async def connect(self) -> None:
        """Connect every server in parallel (one connected already stays as it is); if
        some fail, disconnect the others again and raise an `ExceptionGroup` of
        `MCPServerError`s, one per server that failed."""
        await self._connect_all(lambda server: server.connect(),
                                lambda server: server.disconnect())

    async def disconnect(self) -> None:
        """Disconnect every server in parallel, all of them even when some fail; then
        raise an `ExceptionGroup` of `MCPServerError`s, one per server that failed."""
        self.fix()
        _, failures = await self._each(lambda server: server.disconnect())
        if failures:
            raise self._group("disconnecting", failures)

    async def enter_resources(self) -> None:
        await self._connect_all(lambda server: server.__aenter__(),
                                lambda server: server.__aexit__(None, None, None))

    async def _connect_all(self, connect: Callable[[MCPToolset], Awaitable[Any]],
                           undo: Callable[[MCPToolset], Awaitable[Any]]) -> None:
        self.fix()
        _, failures = await self._each(connect)
        if failures:
            for name, server in self._servers.items():
                if name in failures:
                    continue
                try:
                    await undo(server)
                except Exception:  # the connect failure is what the caller must hear about
                    logger.info(
                        "closing %s after a failed connect failed", server.label, exc_info=True
                    )
            raise self._group("connecting", failures)

    async def exit_resources(self, exc_info: ExitInfo) -> None:
        _, failures = await self._each(lambda server: server.__aexit__(*exc_info))
        if failures:
            raise self._group("disconnecting", failures)

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        self.fix()
        return await super().list_tools(ctx)

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        self.fix()
        return await super().call_tool(ctx, name, args)

    async def list_members(self, ctx: RunContext[Any]) -> list[list[ToolDefinition]]:
        results, failures = await self._each(lambda server: server.list_tools(ctx))
        if failures:
            raise ToolsetError("; ".join(str(e) for e in failures.values()))
        return [results[name] for name in self._servers]

    async def get_instructions(self, ctx: RunContext[Any]) -> str | None:
        """Each server's instructions under its name, in server order; None when no
        server gives any. Raises `ToolsetError` when a server cannot be asked."""
        self.fix()
        results, failures = await self._each(lambda server: server.get_instructions(ctx))
        if failures:
            raise ToolsetError("; ".join(str(e) for e in failures.values()))
        parts = [f"{name}:\n{results[name]}" for name in self._servers if results.get(name)]
        return "\n\n".join(parts) if parts else None

    def describe(self) -> str:
        return f"MCPManager[{', '.join(self._servers)}]"
