"""Where imported tools come from: a live MCP server, a saved listing, a client config.

A live server is listed through the mcp SDK's client (the same connection code as the
runtime's ``mcp`` toolsets), but its ``tools/list`` results are taken as the JSON the
server sent, not through the SDK's ``Tool`` model: that model drops every field it does
not know (a server's ``icons``, a vendor's own fields, unknown annotation hints), and
nothing may be lost on the way into a spec.

Every failure is an :class:`ImportFailure` whose message says what went wrong and where,
for the command to print as is: no traceback reaches the user.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from pydantic import ValidationError

from ..runtime.mcp.connection import HttpServer, StdioServer, describe_error, make_client
from ..runtime.mcp.listing import ListingError, json_shape, list_raw_tools, tools_of
from ..untrusted import RECORD_BYTES, FileRefused, read_untrusted


class ImportFailure(Exception):
    """An import that cannot go on; the message is complete and meant for the user."""


@dataclass(frozen=True, slots=True)
class Server:
    """How to reach one MCP server, as a spec's ``mcp`` toolset writes it."""

    name: str                                   # the config's key, or a label
    stdio: dict[str, Any] | None = None         # {command, args?, env?, cwd?}
    http: dict[str, Any] | None = None          # {url, headers?}
    always_load: bool = False                   # a client config's `alwaysLoad`, kept

    def describe(self) -> str:
        if self.stdio is not None:
            return " ".join([self.stdio["command"], *self.stdio.get("args", [])])
        assert self.http is not None
        return str(self.http["url"])

    def connection(self) -> dict[str, Any]:
        """The toolset keys that say how to connect: ``{"stdio": ...}`` or ``{"http": ...}``,
        and ``always_load`` when the client config gave ``alwaysLoad: true``."""
        found: dict[str, Any] = ({"stdio": self.stdio} if self.stdio is not None
                                 else {"http": self.http})
        if self.always_load:
            found["always_load"] = True
        return found


@dataclass(slots=True)
class Listing:
    """A server's tools, as JSON objects in the order it listed them."""

    tools: list[dict[str, Any]]
    server_name: str | None = None             # the serverInfo name it gave, if any
    warnings: list[str] = field(default_factory=list)


# -- a live server -----------------------------------------------------------------------

async def list_live(server: Server, timeout_s: float = 30.0) -> Listing:
    """Connect to ``server`` and list every page of its tools, raw."""

    try:
        with anyio.fail_after(timeout_s):
            return await _list(server)
    except TimeoutError:
        raise ImportFailure(f"MCP server {server.name} ({server.describe()}) did not answer "
                            f"within {timeout_s:g} s") from None
    except ImportFailure:
        raise
    except Exception as exc:  # noqa: BLE001 - connecting can fail in many ways; say which
        raise ImportFailure(f"cannot list the tools of MCP server {server.name} "
                            f"({server.describe()}): {_cause(exc)}") from None


async def _list(server: Server) -> Listing:
    async with make_client(*_runtime_server(server)) as client:
        tools = await list_raw(client, f"MCP server {server.name}")
        return Listing(tools, getattr(client.server_info, "name", None))


async def list_raw(client: Any, where: str = "the server") -> list[dict[str, Any]]:
    """Every page of ``tools/list`` through an entered ``mcp.Client``, as the JSON the
    server sent (the runtime's own raw listing, which ``mcp`` toolsets use too)."""
    try:
        return await list_raw_tools(client, where)
    except ListingError as exc:
        raise ImportFailure(str(exc)) from None


def _runtime_server(server: Server) -> tuple[StdioServer | None, HttpServer | None]:
    if server.stdio is not None:
        s = server.stdio
        return StdioServer(s["command"], tuple(s.get("args", ())), s.get("env") or None,
                           s.get("cwd")), None
    assert server.http is not None
    return None, HttpServer(server.http["url"], server.http.get("headers") or None)


def _cause(exc: BaseException) -> str:
    """The innermost error, in words (connection refused, no such command, ...)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]

    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = "/".join(str(p) for p in first.get("loc", ()))
        return f"its tools/list result is not valid MCP ({where}: {first.get('msg')})"
    if isinstance(exc, FileNotFoundError):
        return f"no such command: {exc.filename or exc}"
    return describe_error(exc)


# -- a saved listing ---------------------------------------------------------------------

def read_saved(path: str | Path) -> Listing:
    """A saved ``tools/list`` result: ``{"tools": [...]}``, a JSON-RPC response holding
    one, or the list of tools itself."""
    data = read_json(path, "saved tools/list result")
    where = str(path)
    if isinstance(data, dict) and isinstance(data.get("result"), dict) and "tools" not in data:
        data = data["result"]  # a whole JSON-RPC response
    if isinstance(data, list):
        data = {"tools": data}
    if not isinstance(data, dict) or "tools" not in data:
        raise ImportFailure(f"{where}: expected a tools/list result ({{\"tools\": [...]}}) or a "
                            f"list of tools, got {json_shape(data)}")
    if data.get("nextCursor"):
        raise ImportFailure(f"{where}: the listing has a nextCursor, so it is only one page; "
                            "save every page's tools in one list")
    return Listing(_tools_of(data, where))


def read_json(path: str | Path, what: str) -> Any:
    """Parse a JSON file exactly: big integers kept, ``NaN``/``Infinity`` refused."""
    file = Path(path)
    try:  # a file of the checkout, perhaps: regular (a link followed), bounded
        text = read_untrusted(file, RECORD_BYTES, follow=True).decode("utf-8")
    except FileNotFoundError:
        raise ImportFailure(f"{file}: no such file") from None
    except UnicodeDecodeError:
        raise ImportFailure(f"{file}: not UTF-8 text") from None
    except FileRefused as exc:
        raise ImportFailure(f"{file} {exc.why}") from None
    except OSError as exc:
        raise ImportFailure(f"{file}: cannot be read: {exc.strerror}") from None
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise ImportFailure(f"{file}:{exc.lineno}:{exc.colno}: the {what} is not valid JSON: "
                            f"{exc.msg}") from None
    except ValueError as exc:
        raise ImportFailure(f"{file}: the {what} is not valid JSON: {exc}") from None
    except RecursionError:
        raise ImportFailure(f"{file}: the {what} is nested too deeply to read") from None


def _no_constant(word: str) -> None:
    raise ValueError(f"{word} is not a JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} is too large for a double (64-bit float); "
                         "toolc cannot pin it exactly")
    return value


def _tools_of(result: Any, where: str) -> list[dict[str, Any]]:
    """The ``tools`` of one listing page, each checked to be an object with a name."""
    try:
        return tools_of(result, where)
    except ListingError as exc:
        raise ImportFailure(str(exc)) from None
