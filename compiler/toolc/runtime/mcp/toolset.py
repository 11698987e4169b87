"""`mcp`: the tools of one MCP server, over stdio or streamable HTTP.

`mcp` is imported only when a connection is made.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Mapping
from typing import Any

import anyio

from toolc.runtime.context import RunContext
from toolc.runtime.definition import PUBLISHED_KEYS, ToolDefinition
from toolc.runtime.failures import cannot_run
from toolc.runtime.mcp.connection import (
    REQUEST_TIMEOUT,
    Connection,
    HttpServer,
    MCPServerError,
    StdioServer,
    describe_error,
    error_code,
    is_closed,
    make_client,
)
from toolc.runtime.mcp.listing import ListingError, list_raw_tools
from toolc.runtime.metakeys import ALWAYS_LOAD
from toolc.runtime.results import ToolResult
from toolc.runtime.toolsets.abstract import AbstractToolset, ExitInfo

__all__ = ["HttpServer", "MCPServerError", "MCPToolset", "StdioServer"]

logger = logging.getLogger("toolc.runtime")


class MCPToolset(AbstractToolset[Any]):
    """The tools of one MCP server, listed as it sent them and called on it.

    The connection opens on `async with toolset:`, on `connect()`, or lazily at first
    use, and closes when the last `async with` is left (or on `disconnect()`). A
    connection made on one event loop is not reused on another.

    Tools are listed as the JSON the server sent, so every field it gave is kept:
    unknown top-level fields become `ToolDefinition.extra`, annotations and `_meta` stay
    as sent, and serving the set again publishes them all.

    The tool listing is cached for `tool_cache_ttl_ms` (0: never cached);
    `invalidate_cache()` drops it.

    Failures: a call that gets no answer within `call_timeout_s` (default 60 s) is an error
    result saying so (the request is cancelled, the connection kept); a server that dies
    mid-call is an error result saying the connection was lost (the next use reconnects); an
    error answer from the server is an error result quoting it. Connecting, listing and
    disconnecting have no error result to give: they raise `MCPServerError`, a
    `ToolsetError` naming the server.

    Attributes:
        stdio: The server run as a subprocess (or None).
        http: The server at a streamable HTTP endpoint (or None): exactly one is given.
        tool_cache_ttl_ms: How long a listing is kept, in milliseconds (0: never).
        instructions: Whether `get_instructions` gives the server's instructions.
        always_load: Every tool listed carries `_meta` `anthropic/alwaysLoad: true`:
            what a client's `alwaysLoad` for this server would do, kept when the tools
            are served again.
        call_timeout_s: How long a call (or a listing) may take, in seconds, before it
            is an error result saying so.
        connect_timeout_s: How long connecting may take, in seconds.
    """

    def __init__(
        self,
        *,
        stdio: StdioServer | None = None,
        http: HttpServer | None = None,
        tool_cache_ttl_ms: int = 60000,
        instructions: bool = True,
        always_load: bool = False,
        id: str | None = None,
        call_timeout_s: float = 60.0,
        connect_timeout_s: float = 30.0,
    ) -> None:
        if (stdio is None) == (http is None):
            raise ValueError("an MCP toolset needs exactly one of stdio= or http=")
        self.stdio = stdio
        self.http = http
        self.tool_cache_ttl_ms = tool_cache_ttl_ms
        self.instructions = instructions
        self.always_load = always_load
        self.id = id
        self.call_timeout_s = call_timeout_s
        self.connect_timeout_s = connect_timeout_s
        self._conn: Connection | None = None
        self._lock: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None
        self._cache: tuple[float, list[ToolDefinition]] | None = None
        self._entered = 0

    # -- connection -----------------------------------------------------------------

    def describe(self) -> str:
        if self.stdio is not None:
            return " ".join(["stdio:", self.stdio.command, *self.stdio.args])
        assert self.http is not None
        return f"http: {self.http.url}"

    def _connect_lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._lock is None or self._lock[0] is not loop:
            self._lock = (loop, asyncio.Lock())
        return self._lock[1]

    async def connection(self) -> Connection:
        """The live connection, made now if there is none (or the last one was lost)."""
        conn = self._conn
        if conn is not None and conn.usable():
            return conn
        async with self._connect_lock():
            conn = self._conn
            if conn is not None and conn.usable():
                return conn
            if conn is not None:
                self._conn = None
                await self._close_quietly(conn)
            conn = Connection(self._make_client)
            try:
                await conn.open(self.connect_timeout_s)
            except Exception as exc:
                raise MCPServerError(self.label, f"cannot connect: {describe_error(exc)}") from exc
            self._conn = conn
            self._cache = None
            return conn

    async def _close_quietly(self, conn: Connection) -> None:
        if conn.loop is not asyncio.get_running_loop():
            return  # that loop is gone, and its client with it
        try:
            await conn.close()
        except Exception:
            logger.info("closing the lost connection to %s failed", self.label, exc_info=True)

    def _make_client(self) -> Any:
        return make_client(self.stdio, self.http)

    async def connect(self) -> None:
        """Connect now, if not connected yet (not counted, unlike `async with`); raises
        `MCPServerError` when the server cannot be reached."""
        await self.connection()

    async def disconnect(self) -> None:
        """Close the connection; raise MCPServerError when it did not end cleanly."""
        conn, self._conn = self._conn, None
        self._cache = None
        if conn is None or conn.loop is not asyncio.get_running_loop():
            return
        try:
            await conn.close()
        except Exception as exc:
            raise MCPServerError(self.label, f"disconnect failed: {describe_error(exc)}") from exc

    async def enter_resources(self) -> None:
        self._entered += 1
        try:
            await self.connection()
        except BaseException:
            self._entered -= 1
            raise

    async def exit_resources(self, exc_info: ExitInfo) -> None:
        self._entered -= 1
        if self._entered == 0:
            await self.disconnect()

    # -- tools ----------------------------------------------------------------------

    def invalidate_cache(self) -> None:
        """Drop the cached listing: the next `list_tools` asks the server."""
        self._cache = None

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        cache = self._cache
        if cache is not None and cache[0] > time.monotonic():
            return list(cache[1])
        conn = await self.connection()
        try:
            with anyio.fail_after(self.call_timeout_s):
                tools = await self._fetch_tools(conn)
        except Exception as exc:
            if is_closed(exc):
                conn.lost = True
            raise MCPServerError(
                self.label, f"listing tools failed: {describe_error(exc)}"
            ) from exc
        if self.tool_cache_ttl_ms > 0:
            self._cache = (time.monotonic() + self.tool_cache_ttl_ms / 1000, tools)
        return list(tools)

    async def _fetch_tools(self, conn: Connection) -> list[ToolDefinition]:
        tools = [_definition(tool) for tool in await list_raw_tools(conn.client)]
        if self.always_load:
            tools = [dataclasses.replace(t, meta={**(t.meta or {}), ALWAYS_LOAD: True})
                     for t in tools]
        return tools

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        try:
            conn = await self.connection()
        except MCPServerError as exc:
            return cannot_run(name, exc)
        try:
            with anyio.fail_after(self.call_timeout_s):
                result = await conn.client.call_tool(
                    name, args, read_timeout_seconds=self.call_timeout_s
                )
        except Exception as exc:  # noqa: BLE001  # every failure is an error result
            return self._call_failed(conn, name, exc)
        return ToolResult.from_wire(
            result.model_dump(by_alias=True, mode="json", exclude_none=True)
        )

    def _call_failed(self, conn: Connection, name: str, exc: Exception) -> ToolResult:
        if isinstance(exc, TimeoutError) or error_code(exc) == REQUEST_TIMEOUT:
            return ToolResult.error(
                f"MCP server {self.label} did not answer the call to {name!r} "
                f"within {self.call_timeout_s:g} s"
            )
        if is_closed(exc):
            conn.lost = True
            return ToolResult.error(
                f"MCP server {self.label} closed the connection during the call to {name!r} "
                f"(it may have crashed); the next call reconnects"
            )
        if error_code(exc) is not None:
            return ToolResult.error(f"MCP server {self.label} refused the call to {name!r}: {exc}")
        logger.warning("call to %s on %s failed", name, self.label, exc_info=exc)
        return ToolResult.error(
            f"the call to {name!r} on MCP server {self.label} failed: {describe_error(exc)}"
        )

    async def get_instructions(self, ctx: RunContext[Any]) -> str | None:
        """The server's instructions (connecting if need be), or None when it gives none
        or `instructions=False`."""
        if not self.instructions:
            return None
        conn = await self.connection()
        text = conn.client.instructions
        return text if isinstance(text, str) and text else None


def _definition(tool: Mapping[str, Any]) -> ToolDefinition:
    """A listed MCP tool as a ToolDefinition, every field exactly as sent: a known field
    whose value is not of its MCP type (a null title) stays in `extra`, as given."""
    input_schema = tool.get("inputSchema")
    if not isinstance(input_schema, dict):
        raise ListingError(f"tool {tool['name']!r} has no inputSchema object")
    fields = {key: tool[key] for key, kind in FIELD_KINDS.items()
              if isinstance(tool.get(key), kind)}
    extra = {key: value for key, value in tool.items()
             if key not in PUBLISHED_KEYS or (key not in fields and key in FIELD_KINDS)}
    return ToolDefinition(
        name=tool["name"],
        description=fields.get("description"),
        input_schema=input_schema,
        output_schema=fields.get("outputSchema"),
        title=fields.get("title"),
        annotations=fields.get("annotations"),
        meta=fields.get("_meta"),
        extra=extra or None,
    )


# The optional fields a ToolDefinition holds, and the JSON type each must have there.
FIELD_KINDS: dict[str, type[Any]] = {
    "description": str, "outputSchema": dict, "title": str, "annotations": dict, "_meta": dict,
}
