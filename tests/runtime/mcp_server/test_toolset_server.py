"""to_mcp_server through a real mcp Client, in process, in both protocol eras:
"auto" negotiates 2026-07-28, "legacy" the 2025-11-25 initialize handshake."""

from __future__ import annotations

import json
from typing import Any, Self

import anyio
import mcp_types as types
import pytest
import toolc.runtime as rt
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types.methods import serialize_server_result
from pydantic import BaseModel, Field
from runtime_support import ECHO_SCHEMA, EchoParams, make_tool

pytestmark = pytest.mark.anyio
ERAS = pytest.mark.parametrize("mode", ["auto", "legacy"])
EXPECTED_VERSION = {"auto": "2026-07-28", "legacy": "2025-11-25"}


class Saved(BaseModel):
    line: int = Field(description="Line number of the note.")


SAVED_SCHEMA = {
    "type": "object",
    "properties": {"line": {"type": "integer", "description": "Line number of the note."}},
    "required": ["line"],
}


async def save(ctx: rt.RunContext[Any], text: str, times: int) -> Saved:
    return Saved(line=len(text))


async def boom(ctx: rt.RunContext[Any], text: str, times: int) -> str:
    raise RuntimeError(f"kaput {text}")


async def media(ctx: rt.RunContext[Any], text: str, times: int) -> list[rt.ContentBlock]:
    return [
        rt.ImageContent("aW1n", "image/png"),
        rt.EmbeddedResource("file:///n.txt", text=text, mime_type="text/plain"),
        rt.ResourceLink("file:///all", "all", description="Every note"),
    ]


async def whoami(ctx: rt.RunContext[Any], text: str, times: int) -> str:
    return f"{ctx.deps['user']} at step {ctx.step}"


STATE = {"extra": False}


async def toggle(ctx: rt.RunContext[Any], text: str, times: int) -> str:
    STATE["extra"] = not STATE["extra"]
    return "toggled"


def toolset() -> rt.AbstractToolset[Any]:
    STATE["extra"] = False
    app = rt.FunctionToolset(
        [
            make_tool(
                "echo",
                title="Echo",
                annotations={"readOnlyHint": True, "idempotentHint": True},
                meta={"com.example/null": None, "nested": {"keep": None, "list": [1, None]}},
            ),
            make_tool("saveNote", save, output_schema=SAVED_SCHEMA),
            make_tool("boom", boom),
            make_tool("media", media),
            make_tool("whoami", whoami),
            make_tool("toggle", toggle),
            make_tool("dropAll", requires_approval=True),
        ]
    )
    extra = rt.FilteredToolset(
        rt.FunctionToolset([make_tool("extra")]), lambda ctx: STATE["extra"], id="extra"
    )
    external = rt.ExternalToolset([rt.ExternalTool("openFile", "Open.", {"type": "object"})])
    return rt.CombinedToolset([app, extra, external])


def wire(tools: list[types.Tool]) -> list[dict[str, Any]]:
    return [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tools]


@ERAS
async def test_tools_list_is_the_definitions_exactly(mode: str) -> None:
    ts = toolset()
    definitions = [t.published() for t in await ts.list_tools(rt.RunContext.empty())]
    async with Client(rt.to_mcp_server(ts), mode=mode) as client:
        assert client.protocol_version == EXPECTED_VERSION[mode]
        listed = wire((await client.list_tools()).tools)
    assert listed == definitions
    echo = listed[0]
    assert echo["_meta"] == {"com.example/null": None, "nested": {"keep": None, "list": [1, None]}}
    assert echo["title"] == "Echo" and echo["annotations"] == {
        "readOnlyHint": True,
        "idempotentHint": True,
    }
    assert listed[1]["outputSchema"] == SAVED_SCHEMA
    # Key order too: the wire keeps the order written.
    assert json.dumps(echo["inputSchema"]) == json.dumps(ECHO_SCHEMA)


def test_the_sdks_own_result_pass_would_drop_a_null_in_meta() -> None:
    """Why the server puts definitions back after the SDK's per-version pass."""
    tool = {"name": "t", "inputSchema": {"type": "object"}, "_meta": {"k": None}}
    result = {"tools": [tool], "ttlMs": 0, "cacheScope": "private", "resultType": "complete"}
    sieved = serialize_server_result("tools/list", "2026-07-28", result)
    assert sieved["tools"][0].get("_meta", {}) == {}


@ERAS
async def test_calls_run_the_toolset(mode: str) -> None:
    server = rt.to_mcp_server(toolset(), deps={"user": "ada"})
    async with Client(server, mode=mode) as client:
        echo = await client.call_tool("echo", {"text": "hi", "times": 2})
        assert (echo.is_error, echo.content[0].text) == (False, "hi hi")

        saved = await client.call_tool("saveNote", {"text": "four"})
        assert saved.structured_content == {"line": 4}
        assert saved.content[0].text == '{"line": 4}'

        blocks = (await client.call_tool("media", {"text": "body"})).content
        assert [b.type for b in blocks] == ["image", "resource", "resource_link"]
        assert (blocks[0].data, blocks[0].mime_type) == ("aW1n", "image/png")
        assert blocks[1].resource.text == "body" and blocks[2].description == "Every note"

        who = await client.call_tool("whoami", {"text": "x"})
        assert who.content[0].text == "ada at step 4"


@ERAS
async def test_a_deps_factory_makes_each_sessions_deps(mode: str) -> None:
    made: list[dict[str, str]] = []

    def session_deps() -> dict[str, str]:
        made.append({"user": f"user{len(made) + 1}"})
        return made[-1]

    server = rt.to_mcp_server(toolset(), deps_factory=session_deps)
    async with Client(server, mode=mode) as first, Client(server, mode=mode) as second:
        one = await first.call_tool("whoami", {"text": "x"})
        two = await second.call_tool("whoami", {"text": "x"})
        again = await first.call_tool("whoami", {"text": "x"})
    users = [r.content[0].text.split(" at ")[0] for r in (one, two, again)]
    if mode == "legacy":  # sessions: one deps each, kept for the session
        assert users[0] == users[2] != users[1]
    else:  # 2026-07-28 has no sessions: one deps for the server
        assert users[0] == users[1] == users[2] and len(made) == 1


@ERAS
async def test_bad_args_and_failures_are_error_results_and_serving_goes_on(mode: str) -> None:
    async with Client(rt.to_mcp_server(toolset()), mode=mode) as client:
        bad = await client.call_tool("echo", {"text": "x" * 30, "times": 0})
        assert bad.is_error
        assert bad.content[0].text == (
            "Invalid arguments:\n"
            '- text: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" is longer than 20 characters\n'
            "- times: 0 is less than the minimum of 1"
        )
        failed = await client.call_tool("boom", {"text": "now"})
        # the exception's text stays on the server (toolc.runtime.failures)
        assert failed.is_error and failed.content[0].text == "internal error in tool boom (ref 1)"
        with pytest.raises(MCPError) as unknown:  # a protocol error (2025-11-25), not a result
            await client.call_tool("nope", {})
        assert (unknown.value.error.code, unknown.value.error.message) == (
            types.INVALID_PARAMS, "Unknown tool 'nope'.")
        external = await client.call_tool("openFile", {})
        assert external.is_error and "is an external tool" in external.content[0].text
        after = await client.call_tool("echo", {"text": "still"})
        assert not after.is_error and after.content[0].text == "still"


@ERAS
async def test_tools_that_need_approval_say_so_in_meta_on_the_wire(mode: str) -> None:
    own = make_tool("dropAll", requires_approval=True, meta={"com.example/owner": "db"})
    gated = rt.ApprovalRequiredToolset(rt.FunctionToolset([make_tool("wipe")]))
    ts = rt.CombinedToolset([rt.FunctionToolset([own, make_tool("echo")]), gated])
    async with Client(rt.to_mcp_server(ts), mode=mode) as client:
        listed = {t["name"]: t for t in wire((await client.list_tools()).tools)}
    assert listed["dropAll"]["_meta"] == {"com.example/owner": "db",
                                          "toolc/requiresApproval": True}
    assert listed["wipe"]["_meta"] == {"toolc/requiresApproval": True}
    assert "_meta" not in listed["echo"]


async def test_a_changed_list_is_announced_on_a_handshake_connection() -> None:
    heard: list[Any] = []

    async def on_message(message: Any) -> None:
        heard.append(message)

    server = rt.to_mcp_server(toolset())
    async with Client(server, mode="legacy", message_handler=on_message) as client:
        assert client.server_capabilities.tools.list_changed is True
        before = [t.name for t in (await client.list_tools()).tools]
        await client.call_tool("echo", {"text": "no change"})
        await anyio.sleep(0.05)
        assert heard == []
        await client.call_tool("toggle", {"text": "x"})
        with anyio.fail_after(60):
            while not heard:
                await anyio.sleep(0.01)
        assert isinstance(heard[0], types.ToolListChangedNotification)
        after = [t.name for t in (await client.list_tools()).tools]
    assert "extra" not in before and "extra" in after


async def test_a_changed_list_is_published_to_listen_streams() -> None:
    async with Client(rt.to_mcp_server(toolset())) as client:
        assert client.protocol_version == "2026-07-28"
        assert client.server_capabilities.tools.list_changed is True
        await client.list_tools()
        async with client.listen(tools_list_changed=True) as subscription:
            await client.call_tool("toggle", {"text": "x"})
            with anyio.fail_after(60):
                event = await subscription.__anext__()
        assert type(event).__name__ == "ToolsListChanged"
        assert "extra" in [t.name for t in (await client.list_tools()).tools]


async def test_a_replaced_toolset_is_announced_to_every_handshake_connection() -> None:
    from toolc.runtime.mcp_server.toolset_server import replace_toolset

    server = rt.to_mcp_server(rt.FunctionToolset([make_tool("echo")]))
    heard: dict[str, list[Any]] = {"a": [], "b": []}

    def recorder(key: str) -> Any:
        async def on_message(message: Any) -> None:
            heard[key].append(message)
        return on_message

    async with (Client(server, mode="legacy", message_handler=recorder("a")) as first,
                Client(server, mode="legacy", message_handler=recorder("b")) as second):
        await first.list_tools()
        await second.list_tools()
        await replace_toolset(server, rt.FunctionToolset([make_tool("echo"), make_tool("more")]))
        with anyio.fail_after(60):
            while not (heard["a"] and heard["b"]):
                await anyio.sleep(0.01)
        assert all(isinstance(h[0], types.ToolListChangedNotification) for h in heard.values())
        assert [t.name for t in (await second.list_tools()).tools] == ["echo", "more"]


async def test_a_replaced_toolset_is_published_to_listen_streams() -> None:
    from toolc.runtime.mcp_server.toolset_server import replace_toolset

    server = rt.to_mcp_server(rt.FunctionToolset([make_tool("echo")]))
    async with Client(server) as client:
        assert client.protocol_version == "2026-07-28"
        async with client.listen(tools_list_changed=True) as subscription:
            await replace_toolset(server, rt.FunctionToolset([make_tool("more")]))
            with anyio.fail_after(60):
                event = await subscription.__anext__()
        assert type(event).__name__ == "ToolsListChanged"
        assert [t.name for t in (await client.list_tools()).tools] == ["more"]


async def test_replace_toolset_needs_a_toolc_server() -> None:
    from mcp.server import Server
    from toolc.runtime.mcp_server.toolset_server import replace_toolset

    with pytest.raises(TypeError):
        await replace_toolset(Server("plain"), rt.FunctionToolset([]))


class Instructed(rt.DelegatingToolset[Any]):
    entered = 0

    async def get_instructions(self, ctx: Any) -> str | None:
        return "Use the notes tools."

    async def __aenter__(self) -> Self:
        Instructed.entered += 1
        return await super().__aenter__()  # type: ignore[return-value]


@ERAS
async def test_given_instructions_come_first_then_the_toolsets(mode: str) -> None:
    """A module's description never hides the upstream servers' instructions (issue 16)."""
    ts = Instructed(rt.FunctionToolset([make_tool("echo")]))
    async with Client(rt.to_mcp_server(ts), mode=mode) as client:
        assert client.instructions == "Use the notes tools."
        assert Instructed.entered >= 1  # the lifespan entered the toolset
    async with Client(rt.to_mcp_server(ts, instructions="Given."), mode=mode) as client:
        assert client.instructions == "Given.\n\nUse the notes tools."
    plain = rt.FunctionToolset([make_tool("echo")])
    async with Client(rt.to_mcp_server(plain, instructions="Given."), mode=mode) as client:
        assert client.instructions == "Given."


@ERAS
async def test_a_listing_failure_is_an_mcp_error_and_serving_goes_on(mode: str) -> None:
    failing = {"now": True}

    def flaky(ctx: Any) -> bool:
        if failing["now"]:
            raise LookupError("no session")
        return True

    ts = rt.CombinedToolset(
        [
            rt.FunctionToolset([make_tool("echo")]),
            rt.FilteredToolset(rt.FunctionToolset([make_tool("more")]), flaky, id="admin"),
        ]
    )
    async with Client(rt.to_mcp_server(ts), mode=mode) as client:
        with pytest.raises(MCPError, match=r"^internal error listing the tools \(ref 1\)$"):
            await client.list_tools()
    async with Client(rt.to_mcp_server(ts, expose_errors=True), mode=mode) as client:
        with pytest.raises(MCPError, match=r"the predicate .*flaky of admin failed: LookupError"):
            await client.list_tools()
        failing["now"] = False
        assert [t.name for t in (await client.list_tools()).tools] == ["echo", "more"]
        assert (await client.call_tool("echo", {"text": "ok"})).content[0].text == "ok"


def test_deps_default_and_params_model_are_independent() -> None:
    # The validator is the params model; the published schema is what the compiler wrote.
    tool = make_tool("echo", input_schema={"type": "object", "properties": {}})
    assert tool.definition.input_schema == {"type": "object", "properties": {}}
    assert EchoParams.model_validate({"text": "x"}).times == 1


class _Wrap(rt.WrapperToolset):
    async def call_tool(self, ctx: Any, name: str, args: dict[str, Any],
                        next: rt.CallNext) -> rt.ToolResult:
        return await next(ctx, name, args)


class _Relabel(rt.WrapperToolset):
    async def list_tools(self, ctx: Any) -> list[rt.ToolDefinition]:
        return await super().list_tools(ctx)


class _CountingSet(rt.FunctionToolset):
    listings = 0

    async def list_tools(self, ctx: Any) -> list[rt.ToolDefinition]:
        type(self).listings += 1
        return await super().list_tools(ctx)


def test_which_listings_are_fixed() -> None:
    """The toolset contract answers (``listing_is_fixed()``); the server only asks."""
    app = rt.FunctionToolset([make_tool("echo")])
    shown = rt.FilteredToolset(rt.FunctionToolset([make_tool("x")]), lambda ctx: True)
    external = rt.ExternalToolset([rt.ExternalTool("openFile", "Open.", {"type": "object"})])
    fixed = [app, external, rt.PrefixedToolset(app, "p_"), rt.RenamedToolset(app, {"echo": "e"}),
             rt.ApprovalRequiredToolset(app), rt.CombinedToolset([app, external]), _Wrap(app),
             rt.lazy_wrapper(app, _Wrap)]
    changing = [shown, rt.PreparedToolset(app, lambda ctx, tools: tools),
                rt.CombinedToolset([app, shown]), rt.PrefixedToolset(shown, "p_"),
                _Relabel(app), rt.lazy_wrapper(app, _Relabel), _CountingSet([make_tool("y")])]
    assert [t.listing_is_fixed() for t in fixed] == [True] * len(fixed)
    assert [t.listing_is_fixed() for t in changing] == [False] * len(changing)


async def test_a_fixed_listing_is_not_listed_again_after_each_call() -> None:
    counted = _CountingSet([make_tool("echo")])
    _CountingSet.listings = 0
    async with Client(rt.to_mcp_server(rt.PrefixedToolset(counted, "p_"))) as client:
        await client.list_tools()
        for _ in range(3):
            assert not (await client.call_tool("p_echo", {"text": "hi"})).is_error
    # A subclass may change its listing: listed after every call (1 + 3).
    assert _CountingSet.listings == 4
    # A plain function set cannot change: listed once, for the client's tools/list.
    app = rt.FunctionToolset([make_tool("echo")])
    listings: list[int] = []
    list_tools = app.list_tools

    async def counting(ctx: Any) -> list[rt.ToolDefinition]:
        listings.append(1)
        return await list_tools(ctx)

    app.list_tools = counting  # type: ignore[method-assign]
    async with Client(rt.to_mcp_server(rt.PrefixedToolset(app, "p_"))) as client:
        listed = (await client.list_tools()).tools
        for _ in range(3):
            assert not (await client.call_tool("p_echo", {"text": "hi"})).is_error
    assert [t.name for t in listed] == ["p_echo"] and len(listings) == 1
