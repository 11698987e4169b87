from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest
import toolc.runtime as rt
from runtime_support import function_set, make_tool, names

pytestmark = pytest.mark.anyio


async def test_lists_the_tools_in_the_given_order(ctx: rt.RunContext[None]) -> None:
    toolset = function_set("b", "a", "c")
    assert names(await toolset.list_tools(ctx)) == ["b", "a", "c"]
    assert toolset.static_names() == {"a", "b", "c"}
    assert toolset.describe() == "FunctionToolset[b, a, c]"


async def test_calls_the_named_tool(ctx: rt.RunContext[None]) -> None:
    result = await function_set("a", "b").call_tool(ctx, "b", {"text": "x", "times": 2})
    assert result.text_content == "x x"


async def test_unknown_name_is_an_error_result(ctx: rt.RunContext[None]) -> None:
    result = await function_set("a").call_tool(ctx, "nope", {})
    assert result.is_error and result.text_content == "Unknown tool 'nope'."


def test_two_tools_with_one_name_are_refused() -> None:
    with pytest.raises(ValueError, match="two tools named 'a'"):
        rt.FunctionToolset([make_tool("a"), make_tool("a")])


async def test_tools_added_before_first_use_are_listed_after_the_given_ones(
    ctx: rt.RunContext[None],
) -> None:
    toolset = rt.FunctionToolset([make_tool("a")])
    toolset.add_tool(make_tool("b"))
    assert list(toolset.tools) == ["a", "b"]
    assert names(await toolset.list_tools(ctx)) == ["a", "b"]
    assert (await toolset.call_tool(ctx, "b", {"text": "x"})).text_content == "x"
    empty = rt.FunctionToolset()
    empty.add_tool(make_tool("c"))
    assert empty.static_names() == {"c"}


def test_adding_a_name_the_set_has_is_refused() -> None:
    toolset = rt.FunctionToolset([make_tool("a")])
    with pytest.raises(ValueError, match="two tools named 'a'"):
        toolset.add_tool(make_tool("a"))
    assert list(toolset.tools) == ["a"]


def first_uses() -> list[tuple[str, Callable[[rt.FunctionToolset, rt.RunContext[None]], Any]]]:
    async def enter(ts: rt.FunctionToolset, ctx: rt.RunContext[None]) -> None:
        async with ts:
            pass

    return [
        ("list", lambda ts, ctx: ts.list_tools(ctx)),
        ("call", lambda ts, ctx: ts.call_tool(ctx, "a", {"text": "x"})),
        ("enter", enter),
        ("names", lambda ts, ctx: ts.static_names()),
        ("fixed", lambda ts, ctx: ts.listing_is_fixed()),
        # inside another set: a combined set routes by the names it asked for once
        ("combined", lambda ts, ctx: rt.CombinedToolset([ts]).call_tool(ctx, "a", {"text": "x"})),
    ]


@pytest.mark.parametrize(("use", "how"), first_uses(), ids=[u for u, _ in first_uses()])
async def test_after_first_use_adding_a_tool_is_an_error_saying_why(
    use: str, how: Callable[[rt.FunctionToolset, rt.RunContext[None]], Any],
    ctx: rt.RunContext[None],
) -> None:
    toolset = rt.FunctionToolset([make_tool("a")], id="mine")
    outcome = how(toolset, ctx)
    if inspect.isawaitable(outcome):
        await outcome
    with pytest.raises(RuntimeError) as info:
        toolset.add_tool(make_tool("late"))
    assert str(info.value) == (
        "mine: cannot add tool 'late': the set is fixed once used (listed, called, entered, "
        "or asked for its names); add every tool before first use, or combine this set with "
        "a FunctionToolset of the new tools in a CombinedToolset"
    )
    assert list(toolset.tools) == ["a"]
    assert names(await toolset.list_tools(ctx)) == ["a"]


def test_the_tools_view_is_read_only() -> None:
    toolset = rt.FunctionToolset([make_tool("a")])
    with pytest.raises(TypeError):
        toolset.tools["b"] = make_tool("b")  # type: ignore[index]
