"""A server's `tools/list`, every page, as the JSON it sent.

The mcp SDK's `Tool` model drops every field it does not know (a server's vendor
fields, annotation hints newer than the SDK), so an `mcp` toolset served again, or a
server imported into a spec, would show less than the server said. Both list through
`list_raw_tools` instead. `mcp` is imported only when a listing is made.
"""

from __future__ import annotations

from typing import Any

MAX_PAGES = 1000  # a server whose cursors never end is refused, not followed forever


class ListingError(Exception):
    """A `tools/list` answer that is not a listing; the message says where and why."""


async def list_raw_tools(client: Any, where: str = "the server") -> list[dict[str, Any]]:
    """Every page of `tools/list` through an entered `mcp.Client`, as the JSON the server
    sent; `where` names the server in a ListingError."""
    # lazy: loads mcp (about a second)
    import mcp_types as types

    # lazy: loads pydantic
    from pydantic import TypeAdapter

    raw_result: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    seen: set[str] = set()
    for _ in range(MAX_PAGES):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await client.session.send_request(
            types.ListToolsRequest(params=params), raw_result
        )
        tools += tools_of(page, where)
        cursor = page.get("nextCursor")
        if not isinstance(cursor, str) or not cursor:
            return tools
        if cursor in seen:
            raise ListingError(f"{where} repeats the cursor {cursor!r} while listing its tools")
        seen.add(cursor)
    raise ListingError(f"{where} lists more than {MAX_PAGES} pages of tools")


def tools_of(result: Any, where: str) -> list[dict[str, Any]]:
    """The `tools` of one listing page, each checked to be an object with a name."""
    tools = result.get("tools") if isinstance(result, dict) else None
    if not isinstance(tools, list):
        raise ListingError(f'{where}: "tools" is not a list')
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise ListingError(f"{where}: tool {i + 1} is {json_shape(tool)}, not an object")
        name = tool.get("name")
        if not isinstance(name, str) or not name:
            raise ListingError(f'{where}: tool {i + 1} has no "name"')
    return tools


def json_shape(value: Any) -> str:
    """What kind of JSON value this is, in words, for messages."""
    if isinstance(value, dict):
        return 'an object without "tools"'
    kinds: dict[type, str] = {list: "a list", str: "a string", bool: "a boolean",
                              type(None): "null"}
    return kinds.get(type(value), "a number")
