from __future__ import annotations

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
