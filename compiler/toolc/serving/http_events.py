"""Resumable SSE streams for ``toolc serve --transport http``: an event store per session.

With an event store the SDK's streamable HTTP transport numbers every SSE event, opens
each stream with a priming event (an id, empty data, and ``retry``: how long a client
waits before reconnecting), and answers a GET with ``Last-Event-ID`` by replaying the
events of that stream that came after it, then the rest as they come: a client whose
connection dropped mid-call reconnects and still gets its answer (SEP-1699). The SDK
ships the interface only (``mcp.server.streamable_http.EventStore``); this is the store.

One store per session, never one for all: the SDK names a stream by its request id,
which every session starts from 1, so a shared store would mix the sessions' streams and
replay one client's events to another. Memory is bounded: at most ``MAX_EVENTS`` events
per stream (the oldest dropped first) and ``MAX_STREAMS`` streams per session (the one
written longest ago dropped whole), and the sessions themselves are capped by
``--max-sessions``. An event dropped so can no longer be resumed from: the client gets
an empty stream and lists again, as it would without a store.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Any

from mcp.server.streamable_http import EventCallback, EventMessage, EventStore

MAX_EVENTS = 256  # per stream: a call's progress, log and request messages, its answer
MAX_STREAMS = 64  # per session: its recent requests' streams and the GET stream
RETRY_MS = 1000  # the SSE `retry` a priming event suggests


class SessionEventStore(EventStore):
    """The events of one session's SSE streams, bounded; ids are ``<stream n>-<event n>``
    (unique within the session, and naming their stream without a lookup)."""

    def __init__(self, max_events: int = MAX_EVENTS, max_streams: int = MAX_STREAMS) -> None:
        self.max_events = max_events
        self.max_streams = max_streams
        # stream id -> (its number, its events (event number, message or None: priming))
        self._streams: OrderedDict[str, tuple[int, deque[tuple[int, Any]]]] = OrderedDict()
        self._by_number: dict[int, str] = {}
        self._count = 0  # events and streams numbered so far (one counter: ids never repeat)

    async def store_event(self, stream_id: str, message: Any) -> str:
        entry = self._streams.get(stream_id)
        if entry is None:
            self._count += 1
            entry = (self._count, deque(maxlen=self.max_events))
            self._streams[stream_id] = entry
            self._by_number[entry[0]] = stream_id
            while len(self._streams) > self.max_streams:
                _, (number, _events) = self._streams.popitem(last=False)
                del self._by_number[number]
        else:
            self._streams.move_to_end(stream_id)
        self._count += 1
        entry[1].append((self._count, message))
        return f"{entry[0]}-{self._count}"

    async def replay_events_after(self, last_event_id: str,
                                  send_callback: EventCallback) -> str | None:
        place = _parse(last_event_id)
        if place is None:
            return None
        stream_number, event_number = place
        stream_id = self._by_number.get(stream_number)
        if stream_id is None:
            return None
        events = self._streams[stream_id][1]
        if not events or events[0][0] > event_number:
            return None  # the events after it were dropped: nothing to resume from
        for number, message in list(events):
            if number > event_number and message is not None:
                await send_callback(EventMessage(message, f"{stream_number}-{number}"))
        return stream_id


def _parse(event_id: str) -> tuple[int, int] | None:
    stream, dash, event = event_id.partition("-")
    if not dash or len(event_id) > 40 or not all(
            part.isascii() and part.isdecimal() for part in (stream, event)):
        return None
    return int(stream), int(event)
