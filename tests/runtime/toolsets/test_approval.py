from __future__ import annotations

from typing import Any

import pytest
import toolc.runtime as rt
from runtime_support import function_set

pytestmark = pytest.mark.anyio


def approval_set() -> tuple[rt.ApprovalRequiredToolset, list[str]]:
    ran: list[str] = []

    async def handler(ctx: Any, text: str, times: int) -> str:
        ran.append(text)
        return f"ran {text}"

    return rt.ApprovalRequiredToolset(function_set("drop", handler=handler)), ran


async def test_every_call_pauses_for_approval() -> None:
    toolset, ran = approval_set()
    ctx = rt.RunContext(deps=None, tool_call_id="call-1")
    with pytest.raises(rt.ApprovalRequiredError) as info:
        await toolset.call_tool(ctx, "drop", {"text": "users"})
    assert info.value.requests == [rt.DeferredToolRequest("call-1", "drop", {"text": "users"})]
    assert ran == []


async def test_approved_runs_optionally_with_other_args() -> None:
    toolset, ran = approval_set()
    ctx = rt.RunContext(deps=None, tool_call_id="c")
    ok = await toolset.call_tool(ctx.resume(approvals={"c": rt.Approved()}), "drop", {"text": "a"})
    assert ok.text_content == "ran a"
    edited = ctx.resume(approvals={"c": rt.Approved(override_args={"text": "b"})})
    assert (await toolset.call_tool(edited, "drop", {"text": "a"})).text_content == "ran b"
    assert ran == ["a", "b"]


async def test_denied_is_an_error_result_saying_why() -> None:
    toolset, ran = approval_set()
    ctx = rt.RunContext(deps=None, tool_call_id="c", approvals={"c": rt.Denied("prod is frozen")})
    result = await toolset.call_tool(ctx, "drop", {"text": "a"})
    assert (
        result.is_error and result.text_content == "The call to 'drop' was not run: prod is frozen"
    )
    assert ran == []


async def test_a_denial_names_the_tool_as_the_model_called_it() -> None:
    toolset, ran = approval_set()
    outer = rt.RenamedToolset(rt.PrefixedToolset(toolset, "db_"), {"db_drop": "dropTable"})
    ctx = rt.RunContext(deps=None, tool_call_id="c", approvals={"c": rt.Denied("no")})
    result = await outer.call_tool(ctx, "dropTable", {"text": "a"})
    assert result.is_error and result.text_content == "The call to 'dropTable' was not run: no"
    assert ran == []


async def test_unknown_names_do_not_ask(ctx: rt.RunContext[None]) -> None:
    toolset, _ = approval_set()
    result = await toolset.call_tool(ctx, "nope", {})
    assert result.text_content == "Unknown tool 'nope'."


async def test_paused_calls_through_outer_sets_carry_the_outer_name() -> None:
    toolset, _ = approval_set()
    outer = rt.RenamedToolset(rt.PrefixedToolset(toolset, "db_"), {"db_drop": "dropTable"})
    with pytest.raises(rt.ApprovalRequiredError) as info:
        await outer.call_tool(
            rt.RunContext(deps=None, tool_call_id="c"), "dropTable", {"text": "t"}
        )
    assert info.value.requests[0].tool_name == "dropTable"
