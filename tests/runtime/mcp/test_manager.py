"""MCPManager over real MCP servers: stdio subprocesses and streamable HTTP."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import toolc.runtime as rt
from forkserver_support import python_args
from runtime_support import TOY_SERVER, HttpToy, names, toy_module

pytestmark = pytest.mark.anyio


def paired_stdio(prefix: str, log: Path, other: Path) -> rt.MCPToolset:
    """A toy stdio server that answers nothing until the `other` one has started too."""
    args = [str(TOY_SERVER), "stdio", "--prefix", prefix, "--log", str(log), "--after", str(other)]
    # Generous: on a busy machine two interpreters may take long to start; the toy
    # server itself gives up waiting after AWAIT_OTHER_S, well within this.
    return rt.MCPToolset(stdio=rt.StdioServer(sys.executable, python_args(*args)), connect_timeout_s=180)


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


@pytest.mark.parametrize("how", ["enter", "connect"])
async def test_a_failed_connect_names_the_server_and_closes_the_others(
    http_toy: Callable[[str], HttpToy], how: str
) -> None:
    """Entering `async with` and `connect()` alike."""
    web = rt.MCPToolset(http=rt.HttpServer(http_toy("h_").url))
    manager = rt.MCPManager(
        {"web": web, "ghost": rt.MCPToolset(stdio=rt.StdioServer("/nonexistent/mcp-server"))}
    )
    with pytest.raises(ExceptionGroup) as info:
        await (manager.__aenter__() if how == "enter" else manager.connect())
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


async def test_servers_added_before_first_use_are_counted_and_connected_by_connect(
    tmp_path: Path, http_toy: Callable[[str], HttpToy], ctx: rt.RunContext[None]
) -> None:
    """The design's addServer, serverCount, connect() and disconnect(): connect() is
    `async with`'s entering (in parallel: each stdio server waits for the other)."""
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    manager = rt.MCPManager()
    assert (manager.server_count, dict(manager.servers)) == (0, {})
    manager.add_server("alpha", paired_stdio("a_", logs[0], logs[1]))
    manager.add_server("beta", paired_stdio("b_", logs[1], logs[0]))
    web = rt.MCPToolset(http=rt.HttpServer(http_toy("h_").url), id="the web")
    manager.add_server("web", web)
    assert manager.server_count == 3 and list(manager.servers) == ["alpha", "beta", "web"]
    assert [s.label for s in manager.servers.values()] == ["alpha", "beta", "the web"]
    await manager.connect()
    try:
        assert [log.read_text().splitlines() for log in logs] == [["start", "ready"]] * 2
        assert all(server._conn is not None for server in manager.servers.values())
        listed = names(await manager.list_tools(ctx))
        assert listed[0] == "a_echo" and "b_echo" in listed and listed[-1].startswith("h_")
        assert (await manager.call_tool(ctx, "b_echo", {"text": "1"})).text_content == "1"
    finally:
        await manager.disconnect()
    assert all(server._conn is None for server in manager.servers.values())


def test_a_name_taken_and_a_view_written_to_are_refused(http_toy: Callable[[str], HttpToy]) -> None:
    url = http_toy("x_").url
    manager = rt.MCPManager({"one": rt.MCPToolset(http=rt.HttpServer(url))})
    with pytest.raises(ValueError, match="two MCP servers named 'one'"):
        manager.add_server("one", rt.MCPToolset(http=rt.HttpServer(url)))
    with pytest.raises(TypeError):
        manager.servers["two"] = rt.MCPToolset(http=rt.HttpServer(url))  # type: ignore[index]
    assert manager.server_count == 1


async def test_after_first_use_adding_a_server_is_an_error_saying_why(
    http_toy: Callable[[str], HttpToy], ctx: rt.RunContext[None]
) -> None:
    url = http_toy("x_").url
    manager = rt.MCPManager({"one": rt.MCPToolset(http=rt.HttpServer(url))}, id="servers")
    async with manager:
        await manager.list_tools(ctx)
    with pytest.raises(RuntimeError) as info:
        manager.add_server("late", rt.MCPToolset(http=rt.HttpServer(url)))
    assert str(info.value) == (
        "servers: cannot add server 'late': the manager is fixed once used (connected, "
        "entered, listed or called); add every server before first use, or combine this "
        "manager with another in a CombinedToolset"
    )
    assert list(manager.servers) == ["one"]
    for use in ("connect", "call"):
        fresh = rt.MCPManager({"one": rt.MCPToolset(http=rt.HttpServer(url))})
        if use == "connect":
            await fresh.connect()
            await fresh.disconnect()
        else:
            await fresh.call_tool(ctx, "x_echo", {"text": "x"})
            await fresh.disconnect()
        with pytest.raises(RuntimeError, match="cannot add server 'late'"):
            fresh.add_server("late", rt.MCPToolset(http=rt.HttpServer(url)))


async def test_disconnect_tries_every_server_and_raises_a_group_naming_the_failed(
    http_toy: Callable[[str], HttpToy], ctx: rt.RunContext[None]
) -> None:
    web, spare = http_toy("w_"), http_toy("s_")
    manager = rt.MCPManager({"web": rt.MCPToolset(http=rt.HttpServer(web.url)),
                             "spare": rt.MCPToolset(http=rt.HttpServer(spare.url))})
    await manager.connect()
    web.stop()  # the server goes away mid-session
    lost = await manager.call_tool(ctx, "w_echo", {"text": "x"})
    assert lost.is_error
    with pytest.raises(ExceptionGroup) as info:
        await manager.disconnect()
    assert info.value.message == "disconnecting MCP servers failed: web"
    assert manager.servers["spare"]._conn is None


async def test_invalidate_cache_drops_every_servers_listing(
    http_toy: Callable[[str], HttpToy], ctx: rt.RunContext[None]
) -> None:
    manager = rt.MCPManager({"one": rt.MCPToolset(http=rt.HttpServer(http_toy("a_").url)),
                             "two": rt.MCPToolset(http=rt.HttpServer(http_toy("b_").url))})
    async with manager:
        first = await manager.list_tools(ctx)
        cached = await manager.list_tools(ctx.next_turn())
        assert all(a is b for a, b in zip(first, cached, strict=True))
        manager.invalidate_cache()
        fresh = await manager.list_tools(ctx.next_turn())
        assert fresh == first and not any(a is b for a, b in zip(first, fresh, strict=True))
