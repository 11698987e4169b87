"""``toolc serve`` over stdio: the SDK's transport, and an answer to every line it
could not read.

The SDK's stdio transport hands the server an exception for a line that is not a
JSON-RPC message, and the server drops it: the client hears nothing, and one waiting for
an answer waits forever. JSON-RPC 2.0 asks for an error response instead, which this
module sends for each such line (``answer``):

- not JSON: -32700 Parse error, id null;
- a JSON array, a batch: -32600 Invalid Request, id null. MCP removed batching in the
  2025-06-18 revision, and the SDK reads one message per line in every revision, so a
  batch is refused in every revision with an error, never silence;
- JSON that is no request or notification: -32600 Invalid Request, with the message's
  id where it has a usable one, else null. A malformed *response* (it has ``result`` or
  ``error``) is not answered: JSON-RPC never answers a response.
"""

from __future__ import annotations

import logging
from typing import Any, Self

from .http import until_signal

log = logging.getLogger("toolc.serve")

PARSE_ERROR = -32700  # mcp_types.PARSE_ERROR (mcp is imported only to serve)
INVALID_REQUEST = -32600  # mcp_types.INVALID_REQUEST
_UNKNOWN = object()  # what a line held, when the error does not say


def answer(exc: Exception) -> dict[str, Any] | None:
    """The JSON-RPC error response to a line the transport could not read (as a dict),
    or None when none is due."""
    errors = _errors(exc)
    if errors is None or any(e.get("type") == "json_invalid" for e in errors):
        return _error(None, PARSE_ERROR, "Parse error: the line is not JSON")
    message = _message(errors)
    if isinstance(message, list):
        return _error(None, INVALID_REQUEST,
                      "Invalid Request: a JSON array (a batch) is not accepted; send one "
                      "message per line (MCP removed JSON-RPC batching in 2025-06-18)")
    if isinstance(message, dict) and ("result" in message or "error" in message):
        log.warning("dropped a malformed JSON-RPC response from the client")
        return None
    request_id = message.get("id") if isinstance(message, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        request_id = None
    return _error(request_id, INVALID_REQUEST,
                  "Invalid Request: not a JSON-RPC 2.0 request or notification "
                  '(they have "jsonrpc": "2.0" and a string "method")')


def _errors(exc: Exception) -> list[dict[str, Any]] | None:
    errors = getattr(exc, "errors", None)  # a pydantic ValidationError: what the SDK sends
    if not callable(errors):
        return None
    try:
        found = errors()
    except Exception:  # noqa: BLE001  # not pydantic's after all: a parse error
        return None
    return found if isinstance(found, list) else None


def _message(errors: list[dict[str, Any]]) -> Any:
    """The parsed line, from pydantic's errors: the union's own errors carry it whole
    (the message is no JSON-RPC message at all), a missing field's carry its mapping."""
    for error in errors:
        value = error.get("input", _UNKNOWN)
        if len(error.get("loc", ())) <= 1 or (isinstance(value, dict) and (
                value.keys() & {"jsonrpc", "id", "method", "result", "error"})):
            return value
    return _UNKNOWN


def _error(request_id: int | str | None, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


class AnsweringReadStream:
    """The SDK's stdio read stream, less the lines it could not read: each one answered
    on the write stream (``answer``) and skipped."""

    def __init__(self, inner: Any, write: Any) -> None:
        self._inner = inner
        self._write = write

    @property
    def last_context(self) -> Any:  # the SDK reads the sender's context from here
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            reply = answer(item)
            if reply is not None:
                await self._write.send(_session_message(reply))

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> Any:
        # lazy: loads anyio
        import anyio

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


def _session_message(reply: dict[str, Any]) -> Any:
    # lazy: loads mcp (about a second)
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    return SessionMessage(types.jsonrpc_message_adapter.validate_python(reply))


async def run_stdio(server: Any, beside: Any = None) -> None:
    """Serve ``server`` on stdin and stdout until the client closes stdin or a signal
    comes; ``beside`` (``--reload``'s watch) runs alongside until then."""
    # lazy: loads anyio
    import anyio

    # lazy: loads mcp (about a second)
    from mcp.server.stdio import stdio_server

    async with anyio.create_task_group() as tg:
        await tg.start(until_signal, tg.cancel_scope.cancel)
        if beside is not None:  # --reload's watch
            tg.start_soon(beside)
        log.info("serving %s over stdio", server.name)
        async with stdio_server() as (read, write):
            await server.run(AnsweringReadStream(read, write), write,
                             server.create_initialization_options())
        tg.cancel_scope.cancel()  # the client closed stdin: done
