"""The connection under an MCP toolset: server addresses, the client, its owner task.

Each connection is an `mcp.Client` owned by a task of its own: anyio requires a client
to be left by the task that entered it, and a dedicated owner lets any task connect (a
request handler, at first use) and any task disconnect (a server's lifespan, a manager
closing servers in parallel). `mcp` is imported only when a client is made.

The owner is stopped through an anyio cancel scope of its own, never `task.cancel()`:
the SDK's transports shield their shutdown (a stdio server's process is stopped, its
pipes closed) from anyio cancellation only, and a native cancel breaks into it. And the
owner is waited for, shielded, by whoever abandons it: left to itself while its caller is
cancelled (a server shutting down in the middle of a connect), it would be cancelled
again by the event loop's end, its transport's shutdown cut, the process behind it
left running and the loop spinning.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio

from toolc.runtime.toolsets.abstract import ToolsetError

CLOSE_TIMEOUT_S = 10.0  # a client that takes longer to close is cancelled

logger = logging.getLogger("toolc.runtime")


@dataclass(frozen=True, slots=True)
class StdioServer:
    """An MCP server run as a subprocess, spoken to over its stdin and stdout.

    Attributes:
        command: The program to run.
        args: Its arguments.
        env: Its environment (None: the mcp SDK's default, a few safe variables).
        cwd: Its working folder (None: this process's).
    """

    command: str
    args: Sequence[str] = ()
    env: Mapping[str, str] | None = None
    cwd: str | None = None


@dataclass(frozen=True, slots=True)
class HttpServer:
    """An MCP server at a streamable HTTP endpoint.

    Attributes:
        url: The endpoint (`http://127.0.0.1:8000/mcp`).
        headers: HTTP headers sent with every request (an `Authorization`, say).
    """

    url: str
    headers: Mapping[str, str] | None = None


class MCPServerError(ToolsetError):
    """Connecting to, listing, or disconnecting from an MCP server failed."""

    def __init__(self, server: str, message: str) -> None:
        super().__init__(f"MCP server {server}: {message}")
        self.server = server
        """The server's name (its id, or its key in the manager)."""


def describe_error(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        return describe_error(exc.exceptions[0])
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Connection:
    """One live `mcp.Client`, entered and left by its own owner task."""

    def __init__(self, make_client: Callable[[], Any]) -> None:
        self._make_client = make_client
        self._stop = asyncio.Event()
        self._task: asyncio.Task[BaseException | None] | None = None
        self._scope = anyio.CancelScope()  # the owner's: cancelled to stop it at once
        self.loop = asyncio.get_running_loop()
        self.client: Any = None
        self.lost = False  # a call found the connection closed

    def usable(self) -> bool:
        return (
            not self.lost
            and self._task is not None
            and not self._task.done()
            and (asyncio.get_running_loop() is self.loop)
        )

    async def open(self, timeout_s: float) -> None:
        ready: asyncio.Future[Any] = self.loop.create_future()
        self._task = self.loop.create_task(self._own(ready))
        try:
            with anyio.fail_after(timeout_s):
                self.client = await asyncio.shield(ready)
        except BaseException:
            await self._abandon(self._task)
            raise

    async def _own(self, ready: asyncio.Future[Any]) -> BaseException | None:
        """Enter the client, wait for `close()`, leave it; return what went wrong, if anything."""
        try:
            with self._scope:
                async with self._make_client() as client:
                    ready.set_result(client)
                    await self._stop.wait()
        except Exception as exc:  # noqa: BLE001  # reported by open() or close()
            if not ready.done():
                ready.set_exception(exc)
                return None
            return exc
        if not ready.done():  # stopped by _abandon() before the client was ready
            ready.cancel()
        return None

    async def _abandon(self, task: asyncio.Task[BaseException | None]) -> None:
        """Stop the owner now and wait until it has left the client, whatever cancels us
        meanwhile; the SDK bounds every wait of a transport's shutdown."""
        self._scope.cancel()
        with anyio.CancelScope(shield=True):
            # (unlike gather, a cancelled wait cancels nothing)
            _, pending = await asyncio.wait({task}, timeout=CLOSE_TIMEOUT_S)
        if pending:
            logger.warning("an MCP client did not close within %g s of being stopped",
                           CLOSE_TIMEOUT_S)

    async def close(self) -> None:
        """Stop the owner task; raise what made the client fail, if anything did."""
        self._stop.set()
        task = self._task
        if task is None:
            return
        try:
            done, _ = await asyncio.wait({task}, timeout=CLOSE_TIMEOUT_S)
        except BaseException:  # cancelled while waiting: the owner is still stopped
            await self._abandon(task)
            raise
        if not done:
            await self._abandon(task)
            raise TimeoutError(f"the client did not close within {CLOSE_TIMEOUT_S:g} s")
        failure = task.result() if not task.cancelled() else None
        if failure is not None:
            raise failure


def make_client(stdio: StdioServer | None, http: HttpServer | None) -> Any:
    """An `mcp.Client` for the server (not yet entered)."""
    # lazy: loads mcp (about a second)
    from mcp import Client, StdioServerParameters

    if stdio is not None:
        params = StdioServerParameters(
            command=stdio.command,
            args=list(stdio.args),
            env=dict(stdio.env) if stdio.env is not None else None,
            cwd=stdio.cwd,
        )
        return Client(params, cache=None)
    assert http is not None
    return Client(_http_transport(http), cache=None)


CONNECTION_CLOSED = -32000  # mcp_types.CONNECTION_CLOSED
REQUEST_TIMEOUT = -32001  # mcp_types.REQUEST_TIMEOUT


def error_code(exc: BaseException) -> int | None:
    """The JSON-RPC error code of an MCPError (mcp is imported by then: a call was made)."""
    # lazy: loads mcp (about a second)
    from mcp.shared.exceptions import MCPError

    return exc.code if isinstance(exc, MCPError) else None


def is_closed(exc: BaseException) -> bool:
    if error_code(exc) == CONNECTION_CLOSED:
        return True
    return isinstance(exc, anyio.ClosedResourceError | anyio.BrokenResourceError | ConnectionError)


def _http_transport(server: HttpServer) -> AbstractAsyncContextManager[Any]:
    @asynccontextmanager
    async def transport() -> AsyncIterator[Any]:
        # lazy: loads mcp (about a second)
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        headers = dict(server.headers) if server.headers is not None else None
        async with (
            create_mcp_http_client(headers=headers) as http_client,
            streamable_http_client(server.url, http_client=http_client) as streams,
        ):
            yield streams

    return transport()
