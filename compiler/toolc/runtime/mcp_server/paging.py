"""tools/list in pages: `page_size` tools at a time, the next page named by a cursor.

MCP cursors are opaque to the client, and a client follows them as given, so the server
decides what one means; here a cursor names the position after the last tool of its
page and that tool's name (base64url JSON `[position, name]`). The next page starts at
the position when the listing still has that tool there, else right after the tool
wherever it now is (a tool added or removed in front of it meanwhile, as a reload or a
filtered set may do: `notifications/tools/list_changed` tells the client to list again).
A cursor that does not decode, or names a tool the listing no longer has, is invalid
params (-32602), as the specification asks of a server given an invalid cursor: never
ignored, never the first page again.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

DEFAULT_PAGE_SIZE = 100  # tools per tools/list page (`toolc serve --page-size`)
MAX_CURSOR_CHARS = 1024  # a tool name is at most 128 characters: a real cursor is short


def page(tools: Sequence[dict[str, Any]], cursor: str | None,
         page_size: int) -> tuple[list[dict[str, Any]], str | None]:
    """The page of `tools` that `cursor` names (None: the first), and the next cursor
    (None after the last page)."""
    start = 0 if cursor is None else _start(tools, cursor)
    end = start + page_size
    shown = list(tools[start:end])
    if end >= len(tools) or not shown:
        return shown, None
    return shown, _encode(end, shown[-1]["name"])


def _encode(position: int, name: str) -> str:
    text = json.dumps([position, name], ensure_ascii=False, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _start(tools: Sequence[dict[str, Any]], cursor: str) -> int:
    position, name = _decode(cursor)
    if 0 < position <= len(tools) and tools[position - 1].get("name") == name:
        return position
    for index, tool in enumerate(tools):  # the listing changed in front of the cursor
        if tool.get("name") == name:
            return index + 1
    raise _invalid(cursor, f"it names tool {name!r}, which is not listed any more; "
                           "list from the start (no cursor)")


def _decode(cursor: str) -> tuple[int, str]:
    if len(cursor) > MAX_CURSOR_CHARS:
        raise _invalid(cursor, "it is longer than any cursor this server gives")
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        position, name = json.loads(text)
    except (binascii.Error, UnicodeDecodeError, ValueError, TypeError):
        raise _invalid(cursor, "this server gave no such cursor") from None
    if type(position) is not int or not isinstance(name, str):
        raise _invalid(cursor, "this server gave no such cursor")
    return position, name


def _invalid(cursor: str, why: str) -> MCPError:
    shown = cursor if len(cursor) <= 40 else cursor[:40] + "..."
    return MCPError(types.INVALID_PARAMS, f"Invalid cursor {shown!r}: {why}")
