"""Bounds on what one HTTP client can hold of ``toolc serve``: connections and sessions.

- Read timeouts. uvicorn closes a keep-alive connection that stays silent, but one
  that sends half its headers, or its headers and half its body, is held forever: a few
  thousand of them use up the file descriptors. ``timed_protocol`` gives each request
  ``header_timeout`` seconds from its first byte (from the connection's opening for the
  first request) to finish its headers, and ``body_timeout`` seconds after them to finish
  its body; a deadline, not an idle timer, so one byte a second does not keep it alive.
- Sessions. The SDK caps sessions by refusing new ones (503) until old ones expire,
  so whoever opens enough sessions locks everyone else out. ``EvictingSessionManager``
  makes room instead: at the cap, the oldest idle session is closed (its id then answers
  404, and its client may initialize again); when every session is busy, the oldest.
  It also gives each session its own bounded event store, so that SSE streams resume
  (:mod:`toolc.serving.http_events`).
"""

from __future__ import annotations

import logging
import math
from typing import Any

import h11
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from uvicorn.protocols.http.h11_impl import H11Protocol

from .http_events import SessionEventStore

log = logging.getLogger("toolc.serve")

_TIMEOUT_408 = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"connection: close\r\ncontent-length: 16\r\n\r\nRequest Timeout\n")


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with deadlines for a request's headers and body."""

    header_timeout: float = 10.0
    body_timeout: float = 30.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._phase: str | None = None  # "headers" or "body" while a deadline runs
        self._deadline: Any = None  # the asyncio.TimerHandle of that deadline

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # may parse a pipelined request
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Arm or drop the deadline for the part of the request still being read."""
        state = self.conn.their_state
        # self.scope is None until the first request's headers: a new connection.
        if state is h11.IDLE and (self.scope is None or self.conn.trailing_data[0]):
            self._arm("headers", self.header_timeout)
        elif state is h11.SEND_BODY:
            self._arm("body", self.body_timeout)
        else:
            self._disarm()

    def _arm(self, phase: str, seconds: float) -> None:
        if self._phase == phase:
            return  # the deadline runs from the start of this phase
        self._disarm()
        self._phase = phase
        self._deadline = self.loop.call_later(seconds, self._timed_out, phase)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._phase, self._deadline = None, None

    def _timed_out(self, phase: str) -> None:
        self._phase, self._deadline = None, None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return  # closed already, or handed over (a WebSocket upgrade)
        client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
        log.warning("closed the connection of %s: its request %s took too long", client, phase)
        if phase == "headers" and self.conn.trailing_data[0]:
            self.transport.write(_TIMEOUT_408)
        self.transport.close()


def timed_protocol(header_timeout: float, body_timeout: float) -> type[TimedH11Protocol]:
    """A protocol class for uvicorn's ``http=`` with these deadlines."""
    return type("TimedH11Protocol", (TimedH11Protocol,),
                {"header_timeout": header_timeout, "body_timeout": body_timeout})


class EvictingSessionManager(StreamableHTTPSessionManager):
    """The SDK's session manager, making room at the cap instead of refusing (503)."""

    def _admit_session(self, requestor: Any) -> Any:
        # Called under the manager's creation lock: one eviction per admission.
        if self.max_sessions is not None and len(self._server_instances) >= self.max_sessions:
            self._evict(self._victim())
        # The SDK hands its one `event_store` to each new transport: a fresh one each
        # time (a store shared by sessions would mix their streams, see http_events).
        self.event_store = SessionEventStore()
        return super()._admit_session(requestor)

    def _victim(self) -> str:
        """The session idle the longest; when none is idle, the oldest one."""
        idle = {sid: t.idle_scope.deadline for sid, t in self._server_instances.items()
                if t.idle_scope is not None and t.idle_scope.deadline < math.inf}
        if idle:  # the same idle timeout for all: the earliest deadline went idle first
            return min(idle, key=idle.__getitem__)
        return next(iter(self._server_instances))  # dicts keep creation order

    def _evict(self, session_id: str) -> None:
        transport = self._server_instances.pop(session_id)
        self._session_owners.pop(session_id, None)  # forgotten now: its id answers 404
        log.info("session limit (%d) reached: closed session %s, the one idle longest",
                 self.max_sessions, session_id)
        if transport.idle_scope is not None:
            transport.idle_scope.cancel()  # ends its server task, which terminates it
        assert self._task_group is not None
        self._task_group.start_soon(self._discard_session, session_id, transport)
