"""Resumable SSE streams: the per-session event store, and a real client that loses its
connection mid-call and still gets its answer from `toolc serve` (through a real TCP
proxy on 127.0.0.1 that cuts the connection after the stream's first event)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from anyio.abc import SocketAttribute, SocketStream
from mcp import Client
from toolc.serving.http_events import SessionEventStore

sys.path.insert(0, str(Path(__file__).parents[1]))

from project_support import desk_project
from serve_support import http_server

PATIENCE_S = 120.0  # a bound on waiting, never a verdict on speed
pytestmark = pytest.mark.anyio


def message(n: int) -> Any:
    return types.JSONRPCNotification(jsonrpc="2.0", method="notifications/message",
                                     params={"level": "info", "data": n})


async def replayed(store: SessionEventStore, after: str) -> tuple[str | None, list[Any]]:
    sent: list[Any] = []

    async def send(event: Any) -> None:
        sent.append((event.event_id, event.message.params["data"]))

    return await store.replay_events_after(after, send), sent


async def test_a_stream_replays_what_came_after_an_event_and_only_its_own() -> None:
    store = SessionEventStore()
    priming = await store.store_event("1", None)
    first = await store.store_event("1", message(1))
    await store.store_event("2", message(99))  # another request's stream
    second = await store.store_event("1", message(2))
    assert await replayed(store, priming) == ("1", [(first, 1), (second, 2)])
    assert await replayed(store, first) == ("1", [(second, 2)])
    assert await replayed(store, second) == ("1", [])


@pytest.mark.parametrize("event_id", ["", "7", "x-1", "1-", "-1", "1-2-3", "\uff11-\uff12",
                                      "99-1", "1-" + "9" * 60])
async def test_an_unknown_or_malformed_event_id_replays_nothing(event_id: str) -> None:
    store = SessionEventStore()
    await store.store_event("1", None)
    await store.store_event("1", message(1))
    assert await replayed(store, event_id) == (None, [])


async def test_memory_is_bounded_per_stream_and_per_session() -> None:
    store = SessionEventStore(max_events=3, max_streams=2)
    ids = [await store.store_event("a", message(n)) for n in range(5)]
    assert await replayed(store, ids[1]) == (None, [])  # what followed it was dropped
    assert await replayed(store, ids[2]) == ("a", [(ids[3], 3), (ids[4], 4)])
    b = await store.store_event("b", message(10))
    await store.store_event("c", message(20))  # a third stream: "a", written longest ago, goes
    assert await replayed(store, ids[3]) == (None, [])
    assert await replayed(store, b) == ("b", [])


# -- through toolc serve --------------------------------------------------------------------

async def cutting_proxy(upstream: int, cuts: list[str], *, task_status: Any) -> None:
    """Forward 127.0.0.1 connections to ``upstream``; the response to the first
    tools/call is cut just before its answer, as a network that drops would: its headers
    and any events without data (a priming event) pass, and the connection is closed on
    both sides at the first event with data (``cuts`` gets what passed)."""
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    task_status.started(listener.extra(SocketAttribute.local_port))

    async def relay(client: SocketStream) -> None:
        async with client, await anyio.connect_tcp("127.0.0.1", upstream) as server:
            calling = False

            async def up() -> None:
                nonlocal calling
                async for data in client:
                    calling = calling or (not cuts and b'"tools/call"' in data)
                    await server.send(data)

            async def down() -> None:
                seen = b""
                async for data in server:
                    if not calling:
                        await client.send(data)
                        continue
                    seen += data
                    answer = seen.find(b"data: {")
                    if answer >= 0:
                        passed = seen[:seen.rfind(b"\r\n\r\n", 0, answer) + 4]
                        await client.send(passed)
                        cuts.append(passed.decode(errors="replace"))
                        return  # both connections closed mid-response

            async def either(direction: Any) -> None:
                with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError,
                                         OSError):  # a peer that closed or reset its end
                    await direction()
                tg.cancel_scope.cancel()  # one direction ended: the connection ends

            async with anyio.create_task_group() as tg:
                tg.start_soon(either, up)
                tg.start_soon(either, down)

    async with listener:
        await listener.serve(relay)


def test_a_call_whose_connection_drops_is_answered_after_the_client_resumes(
        tmp_path: Path) -> None:
    project = desk_project(tmp_path)
    cuts: list[str] = []

    async def session(port: int) -> str:
        async with anyio.create_task_group() as tg:
            proxy_port = await tg.start(cutting_proxy, port, cuts)
            with anyio.fail_after(PATIENCE_S):
                async with Client(f"http://127.0.0.1:{proxy_port}/mcp", mode="legacy") as client:
                    result = await client.call_tool("echo", {"text": "after the drop"})
            tg.cancel_scope.cancel()
        assert not result.is_error
        return str(result.content[0].text)

    with http_server(project, "--allow-host", "127.0.0.1:*") as served:
        answer = anyio.run(session, served.port)
    assert len(cuts) == 1, cuts  # the call's stream was cut before its answer, once
    assert "retry: 1000" in cuts[0]  # after the priming event (an id, no data, a retry)
    assert answer == "after the drop"
