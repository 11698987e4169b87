"""What one HTTP client can hold of `toolc serve`: sessions are capped without a lockout,
half-sent requests are closed, bodies are bounded. The server runs as a real subprocess
with small limits; waits are generous bounds, never timing assertions."""

from __future__ import annotations

import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp import Client

sys.path.insert(0, str(Path(__file__).parents[1]))

from project_support import desk_project
from serve_support import (
    INITIALIZE,
    Served,
    closed_by_server,
    http_server,
    open_session,
    post,
    session_alive,
)

CAP = 3


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    project = desk_project(tmp_path_factory.mktemp("desk"))
    with http_server(project, "--max-sessions", str(CAP), "--header-timeout", "1",
                     "--body-timeout", "1", "--max-body-size", "2000") as server:
        yield server


async def echo(url: str) -> str:
    """A real client on the handshake era (the one with sessions: 2026-07-28 has none)."""
    async with Client(url, mode="legacy") as client:
        result = await client.call_tool("echo", {"text": "still in"})
    return str(result.content[0].text)


def test_initializes_beyond_the_cap_evict_the_oldest_and_never_lock_out(served: Served) -> None:
    opened = [open_session(served.port) for _ in range(4 * CAP)]  # no 503 on the way
    assert [session_alive(served.port, s) for s in opened[-CAP:]] == [True] * CAP
    assert not session_alive(served.port, opened[0])  # evicted: its id answers 404
    assert anyio.run(echo, served.url) == "still in"  # a new client still connects
    assert not session_alive(served.port, opened[-CAP])  # the one idle longest made room
    assert "session limit (3) reached" in served.stderr()


def connect(served: Served) -> socket.socket:
    return socket.create_connection(("127.0.0.1", served.port), timeout=30)


def test_half_sent_headers_are_answered_408_and_closed(served: Served) -> None:
    with connect(served) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl")
        answer = closed_by_server(sock)
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_headers_trickled_a_byte_at_a_time_are_closed(served: Served) -> None:
    request = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    with connect(served) as sock:
        for sent in range(len(request)):  # one byte every 0.2 s: the deadline still holds
            try:
                sock.sendall(request[sent:sent + 1])
            except (BrokenPipeError, ConnectionResetError):
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the server read 40 s of trickled headers")
        closed_by_server(sock)


def test_a_connection_that_sends_nothing_is_closed(served: Served) -> None:
    with connect(served) as sock:
        assert closed_by_server(sock) == b""


def test_a_half_sent_body_is_closed(served: Served) -> None:
    with connect(served) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\n"
                     b"Accept: application/json, text/event-stream\r\n"
                     b"Content-Length: 500\r\n\r\n{\"jsonrpc\": \"2.0\", ")
        closed_by_server(sock)
    assert "its request body took too long" in served.stderr()


def test_an_unfinished_header_block_over_16_kib_is_refused(served: Served) -> None:
    with connect(served) as sock:
        sock.sendall(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 20_000)
        assert closed_by_server(sock).startswith(b"HTTP/1.1 400 ")  # before the deadline


def test_a_body_over_the_limit_is_refused(served: Served) -> None:
    big = {**INITIALIZE, "params": {**INITIALIZE["params"], "pad": "x" * 3000}}  # type: ignore[dict-item]
    answer = post(served.port, big)
    assert answer.status == 413 and "mcp-session-id" not in answer.headers


def test_a_keep_alive_connection_serves_requests_after_the_header_deadline(
        served: Served) -> None:
    # The deadline covers one request's headers, not the connection's life.
    request = b"GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with connect(served) as sock:
        sock.sendall(request)
        assert _read_response(sock).startswith(b"HTTP/1.1 404 ")
        time.sleep(1.5)  # past the 1 s header deadline, within uvicorn's 5 s keep-alive
        sock.sendall(request)
        assert _read_response(sock).startswith(b"HTTP/1.1 404 ")


def _read_response(sock: socket.socket) -> bytes:
    """Bytes until a whole response has arrived (bounded by the socket's timeout)."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(4096)
        assert chunk, received
        received += chunk
    head, _, rest = received.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), None)
    while length is not None and len(rest) < length:
        chunk = sock.recv(4096)
        assert chunk, received
        rest += chunk
    return head + b"\r\n\r\n" + rest


def test_an_idle_session_expires(tmp_path: Path) -> None:
    with http_server(desk_project(tmp_path), "--session-idle-timeout", "1") as served:
        session = open_session(served.port)
        for _ in range(1200):  # 60 s at most; the log is watched (a request would be activity)
            if f"Session {session} idle timeout" in served.stderr():
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the idle session was kept for 60 s")
        assert not session_alive(served.port, session)
