"""`mcp_manager`: several MCP servers connected together, their tools merged.

Entering the manager connects every server in parallel; if some fail, the ones that
connected are closed again and an `ExceptionGroup` names each server that failed.
Leaving it disconnects every server in parallel and raises an `ExceptionGroup` naming
each server whose disconnect failed (all are attempted). Listing lists the servers in
parallel and merges their tools in server order; a name two servers give is a
`ToolsetError` naming both, unless `conflicts="last_wins"`: then the later server's tool
wins, as in `CombinedToolset`. Instructions are the servers' own, each under its name.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio

from toolc.runtime.context import RunContext
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.mcp.toolset import MCPServerError, MCPToolset
from toolc.runtime.toolsets.abstract import ExitInfo, ToolsetError
from toolc.runtime.toolsets.combined import CombinedToolset, Conflicts

logger = logging.getLogger("toolc.runtime")


class MCPManager(CombinedToolset):
    def __init__(self, servers: Mapping[str, MCPToolset], *, conflicts: Conflicts = "error",
                 id: str | None = None) -> None:
        self.servers = dict(servers)
        for name, server in self.servers.items():
            if server.id is None:
                server.id = name  # messages name the server as the spec does
        super().__init__(list(self.servers.values()), conflicts, id=id)

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
            for name, server in self.servers.items():
                tg.start_soon(run, name, server)
        return results, failures

    @staticmethod
    def _group(what: str, failures: dict[str, Exception]) -> ExceptionGroup[Exception]:
        named = [
            exc if isinstance(exc, MCPServerError) else MCPServerError(name, str(exc))
            for name, exc in failures.items()
        ]
        return ExceptionGroup(f"{what} MCP servers failed: {', '.join(failures)}", named)

    async def enter_resources(self) -> None:
        _, failures = await self._each(lambda server: server.__aenter__())
        if failures:
            connected = {n: s for n, s in self.servers.items() if n not in failures}
            for server in connected.values():
                try:
                    await server.__aexit__(None, None, None)
                except Exception:  # the connect failure is what the caller must hear about
                    logger.info(
                        "closing %s after a failed connect failed", server.label, exc_info=True
                    )
            raise self._group("connecting", failures)

    async def exit_resources(self, exc_info: ExitInfo) -> None:
        _, failures = await self._each(lambda server: server.__aexit__(*exc_info))
        if failures:
            raise self._group("disconnecting", failures)

    async def list_members(self, ctx: RunContext[Any]) -> list[list[ToolDefinition]]:
        results, failures = await self._each(lambda server: server.list_tools(ctx))
        if failures:
            raise ToolsetError("; ".join(str(e) for e in failures.values()))
        return [results[name] for name in self.servers]

    async def get_instructions(self, ctx: RunContext[Any]) -> str | None:
        results, failures = await self._each(lambda server: server.get_instructions(ctx))
        if failures:
            raise ToolsetError("; ".join(str(e) for e in failures.values()))
        parts = [f"{name}:\n{results[name]}" for name in self.servers if results.get(name)]
        return "\n\n".join(parts) if parts else None

    def describe(self) -> str:
        return f"MCPManager[{', '.join(self.servers)}]"
