"""MCPToolset against the toy MCP server: a stdio subprocess and streamable HTTP."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest
import toolc.runtime as rt
from runtime_support import HttpToy, names, toy_module, toy_stdio

pytestmark = pytest.mark.anyio


async def test_stdio_server_lists_calls_and_caches(ctx: rt.RunContext[None]) -> None:
    toolset = toy_stdio(id="toy")
    async with toolset:
        listed = await toolset.list_tools(ctx)
        # What the server published, exactly: schemas, title, annotations, _meta.
        assert [t.published() for t in listed] == toy_module().tool_list("")
        assert await toolset.get_instructions(ctx) == "Toy server (no prefix): echo and add."

        echo = await toolset.call_tool(ctx, "echo", {"text": "hi"})
        assert echo == rt.ToolResult([rt.TextContent("hi")])
        add = await toolset.call_tool(ctx, "add", {"a": 2, "b": 3})
        assert add.structured_content == {"sum": 5} and add.text_content == "5"
        picture = await toolset.call_tool(ctx, "picture", {})
        assert picture.content == [rt.ImageContent(toy_module().PIXEL, "image/png")]
        fail = await toolset.call_tool(ctx, "fail", {})
        assert fail.is_error and fail.text_content == "it failed on purpose"

        again = await toolset.list_tools(ctx)
        assert again == listed and all(a is b for a, b in zip(again, listed, strict=True))
        toolset.invalidate_cache()
        fresh = await toolset.list_tools(ctx)
        assert fresh == listed and fresh[0] is not listed[0]
    assert toolset._conn is None


async def test_a_server_that_never_answers_times_out_and_one_that_dies_is_reported(
    ctx: rt.RunContext[None],
) -> None:
    toolset = toy_stdio(id="toy", call_timeout_s=0.5)
    async with toolset:
        # The server would answer in an hour: only the timeout can end this call.
        late = await toolset.call_tool(ctx, "sleep", {"seconds": 3600})
        assert late.is_error
        assert late.text_content == "MCP server toy did not answer the call to 'sleep' within 0.5 s"
        toolset.call_timeout_s = 120  # the calls below must not time out on a busy machine
        # The timeout cancelled that request only: the connection still works.
        assert (await toolset.call_tool(ctx, "echo", {"text": "still here"})).text_content == (
            "still here"
        )

        died = await toolset.call_tool(ctx, "crash", {})
        assert died.is_error
        assert died.text_content == (
            "MCP server toy closed the connection during the call to 'crash' "
            "(it may have crashed); the next call reconnects"
        )
        back = await toolset.call_tool(ctx, "echo", {"text": "reconnected"})
        assert back.text_content == "reconnected"


async def test_connects_lazily_at_first_use(ctx: rt.RunContext[None]) -> None:
    toolset = toy_stdio(id="toy")
    assert toolset._conn is None
    try:
        assert (await toolset.call_tool(ctx, "echo", {"text": "lazy"})).text_content == "lazy"
        assert toolset._conn is not None
    finally:
        await toolset.disconnect()
    assert toolset._conn is None


async def test_http_server_with_headers_and_no_cache(
    http_toy: Callable[[str], HttpToy], ctx: rt.RunContext[None]
) -> None:
    toy = http_toy("h_")
    server = rt.HttpServer(toy.url, headers={"X-Toolc-Test": "sent"})
    toolset = rt.MCPToolset(http=server, tool_cache_ttl_ms=0, instructions=False, id="web")
    async with toolset:
        assert await toolset.get_instructions(ctx) is None  # instructions=False
        first = await toolset.list_tools(ctx)
        assert names(first) == [t["name"] for t in toy_module().tool_list("h_")]
        second = await toolset.list_tools(ctx)
        assert second == first and second[0] is not first[0]  # ttl 0: listed again
        assert (await toolset.call_tool(ctx, "h_header", {})).text_content == "sent"
        add = await toolset.call_tool(ctx, "h_add", {"a": 1, "b": 1})
        assert add.structured_content == {"sum": 2}


async def test_a_server_that_cannot_start_is_a_clear_error(ctx: rt.RunContext[None]) -> None:
    toolset = rt.MCPToolset(stdio=rt.StdioServer("/nonexistent/toolc-server"), id="ghost")
    with pytest.raises(rt.MCPServerError, match="MCP server ghost: cannot connect: "):
        await toolset.list_tools(ctx)
    result = await toolset.call_tool(ctx, "echo", {})
    assert result.is_error and result.text_content.startswith(
        "echo cannot run: MCP server ghost: cannot connect"
    )
    with pytest.raises(rt.MCPServerError):
        async with toolset:
            pass


async def test_a_server_that_never_speaks_times_out_at_connect(ctx: rt.RunContext[None]) -> None:
    # Reads everything and answers nothing: only the connect timeout can end the wait
    # (had the process exited, the error would say the connection closed, not Timeout).
    # It ends when its stdin is closed, so the client need not wait for it to exit.
    silent = rt.StdioServer(sys.executable, ["-c", "import sys; sys.stdin.read()"])
    toolset = rt.MCPToolset(stdio=silent, connect_timeout_s=0.5, id="mute")
    with pytest.raises(rt.MCPServerError, match="mute: cannot connect: Timeout"):
        await toolset.list_tools(ctx)


def test_exactly_one_transport() -> None:
    with pytest.raises(ValueError, match="exactly one of stdio= or http="):
        rt.MCPToolset()
    with pytest.raises(ValueError, match="exactly one"):
        rt.MCPToolset(stdio=rt.StdioServer("x"), http=rt.HttpServer("http://x"))
    assert rt.MCPToolset(http=rt.HttpServer("http://h/mcp")).label == "http: http://h/mcp"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_serving_an_mcp_set_republishes_every_field_its_server_sent(mode: str) -> None:
    """A proxy of a third-party server: fields the SDK's Tool model does not know (icons'
    own keys, x-vendor, an unknown annotation hint) reach the proxy's clients unchanged."""
    from mcp import Client
    from toolc.runtime.mcp.listing import list_raw_tools

    sent = toy_module().tool_list("")
    async with Client(rt.to_mcp_server(toy_stdio(id="toy")), mode=mode) as client:
        raw = await list_raw_tools(client)
        through_sdk = (await client.list_tools()).tools[0].model_dump(by_alias=True)
    assert raw == sent
    assert raw[0]["x-vendor"] == {"tier": "gold", "limits": [1, None]}
    assert raw[0]["annotations"] == {"readOnlyHint": True, "x-vendorHint": {"level": 2}}
    assert raw[0]["icons"] == [{"src": "https://example.com/echo.png", "x-theme": "dark"}]
    # What the SDK's own model shows, and why listing raw matters.
    assert "x-vendor" not in through_sdk and "x-theme" not in through_sdk["icons"][0]


async def test_always_load_marks_every_tool_of_the_server_for_clients_with_tool_search() -> None:
    from mcp import Client
    from toolc.runtime.mcp.listing import list_raw_tools

    sent = toy_module().tool_list("")
    async with Client(rt.to_mcp_server(toy_stdio(id="toy", always_load=True))) as client:
        raw = await list_raw_tools(client)
    assert [t["name"] for t in raw] == [t["name"] for t in sent]
    for got, given in zip(raw, sent, strict=True):
        assert got["_meta"] == {**given.get("_meta", {}), "anthropic/alwaysLoad": True}
        assert {k: v for k, v in got.items() if k != "_meta"} == \
            {k: v for k, v in given.items() if k != "_meta"}


def test_known_fields_of_another_type_are_kept_as_sent_and_no_input_schema_fails() -> None:
    from toolc.runtime.mcp.listing import ListingError
    from toolc.runtime.mcp.toolset import _definition

    sent = {"name": "t", "title": None, "inputSchema": {}, "annotations": [], "x": 1}
    definition = _definition(sent)
    assert definition.title is None and definition.annotations is None
    assert definition.extra == {"title": None, "annotations": [], "x": 1}
    assert definition.published() == sent
    with pytest.raises(ListingError, match="tool 't' has no inputSchema object"):
        _definition({"name": "t"})
