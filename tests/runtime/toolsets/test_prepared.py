from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import toolc.runtime as rt
from runtime_support import function_set, names

pytestmark = pytest.mark.anyio
Tools = list[rt.ToolDefinition]


async def test_may_remove_reorder_and_edit(ctx: rt.RunContext[None]) -> None:
    def prepare(ctx: rt.RunContext[Any], tools: Tools) -> Tools:
        kept = [t for t in tools if t.name != "b"]
        return [dataclasses.replace(t, description=t.description.upper()) for t in reversed(kept)]

    toolset = rt.PreparedToolset(function_set("a", "b", "c"), prepare)
    listed = await toolset.list_tools(ctx)
    assert names(listed) == ["c", "a"]
    assert [t.description for t in listed] == ["THE C TOOL.", "THE A TOOL."]


async def test_a_removed_tool_cannot_be_called(ctx: rt.RunContext[None]) -> None:
    toolset = rt.PreparedToolset(function_set("a", "b"), lambda ctx, tools: tools[:1])
    assert (await toolset.call_tool(ctx, "a", {"text": "x"})).text_content == "x"
    removed = await toolset.call_tool(ctx, "b", {"text": "x"})
    assert removed.is_error and removed.text_content == "Unknown tool 'b'."


async def test_an_edit_does_not_change_validation(ctx: rt.RunContext[None]) -> None:
    def loosen(ctx: rt.RunContext[Any], tools: Tools) -> Tools:
        return [dataclasses.replace(t, input_schema={"type": "object"}) for t in tools]

    toolset = rt.PreparedToolset(function_set("a"), loosen)
    assert (await toolset.list_tools(ctx))[0].input_schema == {"type": "object"}
    assert (await toolset.call_tool(ctx, "a", {})).is_error


async def test_inventing_a_tool_is_an_error(ctx: rt.RunContext[None]) -> None:
    def invent(ctx: rt.RunContext[Any], tools: Tools) -> Tools:
        return [*tools, rt.ToolDefinition("sneaky", "New.", {"type": "object"})]

    toolset = rt.PreparedToolset(function_set("a"), invent, id="prep")
    with pytest.raises(rt.ToolsetError, match="returned a tool 'sneaky' that its inner set"):
        await toolset.list_tools(ctx)
    result = await toolset.call_tool(ctx, "a", {"text": "x"})
    assert result.is_error and "'sneaky'" in result.text_content


async def test_renaming_counts_as_inventing(ctx: rt.RunContext[None]) -> None:
    toolset = rt.PreparedToolset(
        function_set("a"), lambda ctx, tools: [t.renamed("b") for t in tools]
    )
    with pytest.raises(rt.ToolsetError, match="not add or rename them"):
        await toolset.list_tools(ctx)


async def test_a_tool_twice_or_a_wrong_type_is_an_error(ctx: rt.RunContext[None]) -> None:
    twice = rt.PreparedToolset(function_set("a"), lambda ctx, tools: tools + tools)
    with pytest.raises(rt.ToolsetError, match="returned 'a' twice"):
        await twice.list_tools(ctx)
    wrong = rt.PreparedToolset(function_set("a"), lambda ctx, tools: None)
    with pytest.raises(rt.ToolsetError, match="must return a list of ToolDefinition, not NoneType"):
        await wrong.list_tools(ctx)


async def test_a_raising_prepare_is_named(ctx: rt.RunContext[None]) -> None:
    async def prepare(ctx: rt.RunContext[Any], tools: Tools) -> Tools:
        raise RuntimeError("db down")

    toolset = rt.PreparedToolset(function_set("a"), prepare, id="prep")
    with pytest.raises(
        rt.ToolsetError,
        match=r"prepare function .*prepare of prep failed: "
        r"RuntimeError: db down",
    ):
        await toolset.list_tools(ctx)


async def test_prepare_runs_once_per_turn() -> None:
    calls: list[int] = []

    async def prepare(ctx: rt.RunContext[Any], tools: Tools) -> Tools:
        calls.append(ctx.step)
        return tools

    toolset = rt.PreparedToolset(function_set("a"), prepare)
    ctx = rt.RunContext(deps=None)
    await toolset.list_tools(ctx)
    await toolset.call_tool(ctx.for_call("c"), "a", {"text": "x"})
    await toolset.list_tools(ctx.next_turn())
    assert calls == [0, 1]


async def test_the_listing_is_the_callers_to_keep(ctx: rt.RunContext[None]) -> None:
    toolset = rt.PreparedToolset(function_set("a"), lambda ctx, tools: tools)
    first = await toolset.list_tools(ctx)
    first.clear()
    assert names(await toolset.list_tools(ctx)) == ["a"]
