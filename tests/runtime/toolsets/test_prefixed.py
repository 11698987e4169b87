from __future__ import annotations

import pytest
import toolc.runtime as rt
from runtime_support import function_set, make_tool, names

pytestmark = pytest.mark.anyio


async def test_every_name_gets_the_literal_prefix(ctx: rt.RunContext[None]) -> None:
    toolset = rt.PrefixedToolset(function_set("read", "save"), "wb.")
    listed = await toolset.list_tools(ctx)
    assert names(listed) == ["wb.read", "wb.save"]
    assert listed[0].input_schema is (await function_set("read").list_tools(ctx))[0].input_schema
    assert toolset.static_names() == {"wb.read", "wb.save"}


async def test_calls_strip_the_prefix(ctx: rt.RunContext[None]) -> None:
    toolset = rt.PrefixedToolset(function_set("read"), "wb_")
    assert (await toolset.call_tool(ctx, "wb_read", {"text": "ok"})).text_content == "ok"


async def test_unknown_names_are_reported_as_the_caller_wrote_them(
    ctx: rt.RunContext[None],
) -> None:
    toolset = rt.PrefixedToolset(function_set("read"), "wb_")
    assert (await toolset.call_tool(ctx, "read", {})).text_content == "Unknown tool 'read'."
    assert (await toolset.call_tool(ctx, "wb_nope", {})).text_content == "Unknown tool 'wb_nope'."


async def test_paused_calls_carry_the_prefixed_name() -> None:
    inner = rt.FunctionToolset([make_tool("save", requires_approval=True)])
    toolset = rt.PrefixedToolset(inner, "wb_")
    with pytest.raises(rt.ApprovalRequiredError) as info:
        await toolset.call_tool(
            rt.RunContext(deps=None, tool_call_id="c"), "wb_save", {"text": "x"}
        )
    assert info.value.requests == [rt.DeferredToolRequest("c", "wb_save", {"text": "x"})]


async def test_listing_follows_the_inner_set(ctx: rt.RunContext[None]) -> None:
    shown = {"on": True}
    inner = rt.FilteredToolset(function_set("a"), lambda ctx: shown["on"])
    toolset = rt.PrefixedToolset(inner, "p_")
    assert names(await toolset.list_tools(ctx)) == ["p_a"]
    shown["on"] = False
    assert await toolset.list_tools(ctx.next_turn()) == []
