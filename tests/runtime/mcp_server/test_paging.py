"""tools/list in pages: cursors followed to the end, in order; invalid cursors refused
(-32602); a listing that changed in front of a cursor continues after its tool. Through
a real mcp Client in process, in both protocol eras (over real transports:
tests/serving/test_run_protocol.py)."""

from __future__ import annotations

from typing import Any

import mcp_types as types
import pytest
import toolc.runtime as rt
from mcp import Client
from mcp.shared.exceptions import MCPError
from runtime_support import make_tool
from toolc.runtime.mcp_server.paging import DEFAULT_PAGE_SIZE, MAX_CURSOR_CHARS, _encode, page

pytestmark = pytest.mark.anyio


def tools(*names: str) -> list[dict[str, Any]]:
    return [{"name": n} for n in names]


def names(listed: list[dict[str, Any]]) -> list[str]:
    return [t["name"] for t in listed]


def follow(listing: list[dict[str, Any]], size: int) -> list[list[str]]:
    pages, cursor = [], None
    while True:
        shown, cursor = page(listing, cursor, size)
        pages.append(names(shown))
        if cursor is None:
            return pages


def test_pages_follow_one_another_to_the_end() -> None:
    listing = tools(*"abcdefg")
    assert follow(listing, 3) == [["a", "b", "c"], ["d", "e", "f"], ["g"]]
    assert follow(listing, 7) == [list("abcdefg")]  # one full page: no cursor after it
    assert follow(listing, 100) == [list("abcdefg")]
    assert follow([], 3) == [[]]


def test_a_listing_changed_in_front_of_the_cursor_continues_after_its_tool() -> None:
    first, cursor = page(tools(*"abcdef"), None, 2)
    assert names(first) == ["a", "b"] and cursor is not None
    assert names(page(tools(*"xabcdef"), cursor, 2)[0]) == ["c", "d"]  # one added in front
    assert names(page(tools(*"bcdef"), cursor, 2)[0]) == ["c", "d"]  # one removed in front


@pytest.mark.parametrize("cursor", [
    "garbage", "", "!!!!", _encode(2, "gone"), "W10", "WzEsMl0", "WyJ4IiwiYiJd",
    "x" * (MAX_CURSOR_CHARS + 1)])
def test_an_invalid_cursor_is_invalid_params(cursor: str) -> None:
    # not base64 JSON; [], [1, 2], ["x", "b"]: not [position, name]; a tool now gone
    with pytest.raises(MCPError) as refused:
        page(tools(*"abc"), cursor, 2)
    assert refused.value.error.code == types.INVALID_PARAMS
    assert refused.value.error.message.startswith("Invalid cursor ")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_client_following_cursors_gets_a_thousand_tools_in_order(mode: str) -> None:
    made = [f"t{i:04d}" for i in range(1000)]
    server = rt.to_mcp_server(rt.FunctionToolset([make_tool(n) for n in made]))
    async with Client(server, mode=mode) as client:
        pages, cursor = [], None
        while True:
            listed = await client.list_tools(cursor=cursor)
            pages.append([t.name for t in listed.tools])
            cursor = listed.next_cursor
            if cursor is None:
                break
        with pytest.raises(MCPError) as refused:
            await client.list_tools(cursor="not-a-cursor")
    assert [len(p) for p in pages] == [DEFAULT_PAGE_SIZE] * 10
    assert [n for p in pages for n in p] == made
    assert refused.value.error.code == types.INVALID_PARAMS


async def test_the_page_size_is_the_servers_to_choose() -> None:
    server = rt.to_mcp_server(rt.FunctionToolset([make_tool(f"t{i}") for i in range(5)]),
                              page_size=2)
    async with Client(server) as client:
        first = await client.list_tools()
        assert [t.name for t in first.tools] == ["t0", "t1"] and first.next_cursor
    with pytest.raises(ValueError, match="at least 1"):
        rt.to_mcp_server(rt.FunctionToolset([]), page_size=0)
