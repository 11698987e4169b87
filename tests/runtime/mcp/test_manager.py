"""MCPManager over real MCP servers: stdio subprocesses and streamable HTTP."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import toolc.runtime as rt
from runtime_support import TOY_SERVER, HttpToy, names, toy_module

pytestmark = pytest.mark.anyio


def paired_stdio(prefix: str, log: Path, other: Path) -> rt.MCPToolset:
    """A toy stdio server that answers nothing until the `other` one has started too."""
    args = [str(TOY_SERVER), "stdio", "--prefix", prefix, "--log", str(log), "--after", str(other)]
    # Generous: on a busy machine two interpreters may take long to start; the toy
    # server itself gives up waiting after AWAIT_OTHER_S, well within this.
    return rt.MCPToolset(stdio=rt.StdioServer(sys.executable, args), connect_timeout_s=180)


async def test_servers_connect_in_parallel_and_their_tools_merge(
    tmp_path: Path, http_toy: Callable[[str], HttpToy], ctx: rt.RunContext[None]
) -> None:
    web = http_toy("h_")
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    manager = rt.MCPManager(
        {
            "alpha": paired_stdio("a_", logs[0], logs[1]),
            "web": rt.MCPToolset(http=rt.HttpServer(web.url)),
            "beta": paired_stdio("b_", logs[1], logs[0]),
        }
    )
    async with manager:
        # Each server became ready only once the other had started: the connects
        # overlapped (one after the other, the first would have waited alone).
        assert [log.read_text().splitlines() for log in logs] == [["start", "ready"]] * 2

        listed = names(await manager.list_tools(ctx))
        toy = toy_module()
        expected = [t["name"] for p in ("a_", "h_", "b_") for t in toy.tool_list(p)]
        assert listed == expected

        assert (await manager.call_tool(ctx, "a_echo", {"text": "1"})).text_content == "1"
        assert (await manager.call_tool(ctx, "h_echo", {"text": "2"})).text_content == "2"
        sums = await manager.call_tool(ctx, "b_add", {"a": 1, "b": 2})
        assert sums.structured_content == {"sum": 3}
        assert (await manager.call_tool(ctx, "zz", {})).text_content == "Unknown tool 'zz'."

        assert await manager.get_instructions(ctx) == (
            "alpha:\nToy server a_: echo and add.\n\n"
            "web:\nToy server h_: echo and add.\n\n"
            "beta:\nToy server b_: echo and add."
        )
    assert all(server._conn is None for server in manager.servers.values())


async def test_a_name_two_servers_give_is_an_error_naming_both(
    http_toy: Callable[[str], HttpToy], ctx: rt.RunContext[None]
) -> None:
    one, two = http_toy("x_"), http_toy("x_")
    manager = rt.MCPManager(
        {
            "first": rt.MCPToolset(http=rt.HttpServer(one.url)),
            "second": rt.MCPToolset(http=rt.HttpServer(two.url)),
        },
        id="servers",
    )
    async with manager:
        with pytest.raises(rt.ToolsetError) as info:
            await manager.list_tools(ctx)
    assert str(info.value).startswith(
        "servers: tool 'x_echo' is given by member 0 (first) and member 1 (second)"
    )


async def test_with_last_wins_the_later_server_answers(
    http_toy: Callable[[str], HttpToy], ctx: rt.RunContext[None]
) -> None:
    """The seed's behaviour, as an opt-in like `combined`'s: the later server wins."""
    one, two = http_toy("x_"), http_toy("x_")
    manager = rt.MCPManager(
        {
            "first": rt.MCPToolset(http=rt.HttpServer(one.url, {"X-Toolc-Test": "first"})),
            "second": rt.MCPToolset(http=rt.HttpServer(two.url, {"X-Toolc-Test": "second"})),
        },
        conflicts="last_wins",
        id="servers",
    )
    async with manager:
        names = [t.name for t in await manager.list_tools(ctx)]
        result = await manager.call_tool(ctx, "x_header", {})
    assert len(names) == len(set(names)) and "x_header" in names
    assert (result.is_error, result.text_content) == (False, "second")


async def test_a_failed_connect_names_the_server_and_closes_the_others(
    http_toy: Callable[[str], HttpToy],
) -> None:
    web = rt.MCPToolset(http=rt.HttpServer(http_toy("h_").url))
    manager = rt.MCPManager(
        {"web": web, "ghost": rt.MCPToolset(stdio=rt.StdioServer("/nonexistent/mcp-server"))}
    )
    with pytest.raises(ExceptionGroup) as info:
        await manager.__aenter__()
    assert info.value.message == "connecting MCP servers failed: ghost"
    (error,) = info.value.exceptions
    assert isinstance(error, rt.MCPServerError) and error.server == "ghost"
    assert str(error).startswith("MCP server ghost: cannot connect: ")
    assert web._conn is None


async def test_a_failed_disconnect_raises_a_group_naming_the_server(
    http_toy: Callable[[str], HttpToy], ctx: rt.RunContext[None]
) -> None:
    web, spare = http_toy("w_"), http_toy("s_")
    manager = rt.MCPManager(
        {
            "web": rt.MCPToolset(http=rt.HttpServer(web.url)),
            "spare": rt.MCPToolset(http=rt.HttpServer(spare.url)),
        }
    )
    with pytest.raises(ExceptionGroup) as info:
        async with manager:
            assert len(await manager.list_tools(ctx)) == 2 * len(toy_module().tool_list(""))
            web.stop()  # the server goes away mid-session
            lost = await manager.call_tool(ctx, "w_echo", {"text": "x"})
            assert lost.is_error and "closed the connection" in lost.text_content
    assert info.value.message == "disconnecting MCP servers failed: web"
    (error,) = info.value.exceptions
    assert isinstance(error, rt.MCPServerError) and error.server == "web"
    assert str(error).startswith("MCP server web: disconnect failed: "), str(error)
    assert manager.servers["spare"]._conn is None
