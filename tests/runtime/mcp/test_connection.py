"""The connection's owner task, with plain async context managers standing in for the
client (the protocol itself is tested against real servers in test_mcp.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from toolc.runtime.mcp.connection import Connection, describe_error, error_code, is_closed

pytestmark = pytest.mark.anyio


def client(
    events: list[str], *, enter_delay: float = 0, exit_error: Exception | None = None
) -> Any:
    @asynccontextmanager
    async def cm() -> AsyncIterator[str]:
        events.append(f"enter in {id(asyncio.current_task())}")
        await anyio.sleep(enter_delay)
        yield "the client"
        events.append(f"exit in {id(asyncio.current_task())}")
        if exit_error is not None:
            raise exit_error

    return cm()


async def test_the_owner_task_enters_and_leaves_the_client() -> None:
    events: list[str] = []
    conn = Connection(lambda: client(events))
    await conn.open(timeout_s=60)
    assert conn.client == "the client" and conn.usable()

    async def close_elsewhere() -> None:
        await conn.close()

    async with anyio.create_task_group() as tg:  # closed from another task than opened
        tg.start_soon(close_elsewhere)
    assert not conn.usable()
    entered, left = events
    assert entered.split()[-1] == left.split()[-1]  # one task did both
    assert entered.split()[-1] != str(id(asyncio.current_task()))


async def test_a_failure_on_leaving_is_raised_by_close() -> None:
    conn = Connection(lambda: client([], exit_error=ConnectionError("gone")))
    await conn.open(timeout_s=60)
    with pytest.raises(ConnectionError, match="gone"):
        await conn.close()


async def test_a_slow_connect_times_out_and_stops_the_owner() -> None:
    events: list[str] = []
    conn = Connection(lambda: client(events, enter_delay=3600))
    with pytest.raises(TimeoutError):
        await conn.open(timeout_s=0.2)
    assert not conn.usable() and conn._task is not None and conn._task.done()


async def test_a_connect_cancelled_from_outside_waits_for_the_transport_to_shut_down() -> None:
    """A server shutting down while a connect is under way (its scope cancelled): open()
    returns only once the client has left, its shielded shutdown run to the end, as the
    SDK's stdio transport stops its server process."""
    events: list[str] = []

    @asynccontextmanager
    async def connecting() -> AsyncIterator[str]:
        try:
            await anyio.sleep_forever()  # the server never answers initialize
            yield "never"
        finally:
            with anyio.CancelScope(shield=True):
                await anyio.sleep(0.05)  # stopping the server process
                events.append("shut down")

    conn = Connection(connecting)
    with anyio.move_on_after(0.2) as scope:
        await conn.open(timeout_s=60)
    assert scope.cancelled_caught
    assert events == ["shut down"]
    assert conn._task is not None and conn._task.done()


async def test_a_failed_connect_is_raised_by_open() -> None:
    @asynccontextmanager
    async def refusing() -> AsyncIterator[str]:
        raise OSError("refused")
        yield "never"

    with pytest.raises(OSError, match="refused"):
        await Connection(refusing).open(timeout_s=60)


def test_errors_are_described_and_classified() -> None:
    assert describe_error(ExceptionGroup("g", [ValueError("inner")])) == "ValueError: inner"
    assert describe_error(TimeoutError()) == "TimeoutError"
    assert error_code(MCPError(-32000, "Connection closed")) == -32000
    assert error_code(ValueError("x")) is None
    assert is_closed(MCPError(-32000, "Connection closed"))
    assert is_closed(anyio.BrokenResourceError())
    assert not is_closed(MCPError(-32001, "timed out"))
