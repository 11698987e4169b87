from __future__ import annotations

import pytest
import toolc.runtime as rt
from runtime_support import function_set, make_tool, names

pytestmark = pytest.mark.anyio


async def test_named_tools_are_renamed_others_pass(ctx: rt.RunContext[None]) -> None:
    toolset = rt.RenamedToolset(function_set("read", "save"), {"read": "fetch"})
    assert names(await toolset.list_tools(ctx)) == ["fetch", "save"]
    assert toolset.static_names() == {"fetch", "save"}
    assert (await toolset.call_tool(ctx, "fetch", {"text": "f"})).text_content == "f"
    assert (await toolset.call_tool(ctx, "save", {"text": "s"})).text_content == "s"


async def test_the_old_name_is_gone(ctx: rt.RunContext[None]) -> None:
    toolset = rt.RenamedToolset(function_set("read"), {"read": "fetch"})
    result = await toolset.call_tool(ctx, "read", {"text": "x"})
    assert result.is_error and result.text_content == "Unknown tool 'read'."


async def test_renaming_onto_a_shown_name_is_a_collision(ctx: rt.RunContext[None]) -> None:
    toolset = rt.RenamedToolset(function_set("read", "fetch"), {"read": "fetch"}, id="ren")
    with pytest.raises(rt.ToolsetError, match="ren renames a tool to 'fetch'"):
        await toolset.list_tools(ctx)


def test_two_tools_renamed_to_one_name_are_refused() -> None:
    with pytest.raises(ValueError, match="two tools renamed to the same name"):
        rt.RenamedToolset(function_set("a", "b"), {"a": "c", "b": "c"})


async def test_paused_calls_carry_the_new_name() -> None:
    inner = rt.FunctionToolset([make_tool("save", requires_approval=True)])
    toolset = rt.RenamedToolset(inner, {"save": "store"})
    with pytest.raises(rt.ApprovalRequiredError) as info:
        await toolset.call_tool(rt.RunContext(deps=None, tool_call_id="c"), "store", {"text": "x"})
    assert info.value.requests[0].tool_name == "store"
