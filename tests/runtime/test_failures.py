"""ToolError as written; other exceptions masked behind a ref when served, as before in process."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
import toolc.runtime as rt
from mcp import Client
from runtime_support import make_tool
from toolc.runtime.failures import FailurePolicy, failure_result, reporting_failures

pytestmark = pytest.mark.anyio
SECRET = "/home/ada/.aws/credentials: token=hunter2"


async def leaky(ctx: rt.RunContext[Any], text: str, times: int) -> str:
    raise OSError(SECRET)


async def refusing(ctx: rt.RunContext[Any], text: str, times: int) -> str:
    raise rt.ToolError(f"No note called {text!r}; try listNotes first.")


async def erring(ctx: rt.RunContext[Any], text: str, times: int) -> rt.ToolResult:
    return rt.ToolResult.error(f"{text} is read-only here.")


def sync_leaky(ctx: rt.RunContext[Any], text: str, times: int) -> str:
    raise KeyError(SECRET)  # run in a worker thread: the policy must still apply


def served() -> rt.AbstractToolset[Any]:
    return rt.FunctionToolset([make_tool("leaky", leaky), make_tool("refusing", refusing),
                               make_tool("syncLeaky", sync_leaky), make_tool("erring", erring)])


async def test_a_served_exception_is_masked_and_its_traceback_logged_under_the_ref(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="toolc.runtime")
    async with Client(rt.to_mcp_server(served())) as client:
        first = await client.call_tool("leaky", {"text": "x"})
        second = await client.call_tool("syncLeaky", {"text": "x"})
    assert first.is_error and first.content[0].text == "internal error in tool leaky (ref 1)"
    assert second.is_error and second.content[0].text == "internal error in tool syncLeaky (ref 2)"
    assert "hunter2" not in str(first) + str(second)
    logged = {r.getMessage(): r for r in caplog.records}
    record = logged["internal error in tool leaky (ref 1)"]
    assert record.exc_info and SECRET in str(record.exc_info[1])  # the details: server side
    assert "internal error in tool syncLeaky (ref 2)" in logged


async def test_a_tool_error_and_an_error_result_reach_the_client_as_written() -> None:
    async with Client(rt.to_mcp_server(served())) as client:
        result = await client.call_tool("refusing", {"text": "todo"})
        returned = await client.call_tool("erring", {"text": "notes"})
    assert result.is_error
    assert result.content[0].text == "No note called 'todo'; try listNotes first."
    assert (returned.is_error, returned.content[0].text) == (True, "notes is read-only here.")


async def test_expose_errors_sends_the_type_and_message() -> None:
    async with Client(rt.to_mcp_server(served(), expose_errors=True)) as client:
        result = await client.call_tool("leaky", {"text": "x"})
        refused = await client.call_tool("refusing", {"text": "a"})
    assert result.is_error and result.content[0].text == f"leaky failed: OSError: {SECRET}"
    assert refused.content[0].text == "No note called 'a'; try listNotes first."


async def test_in_process_calls_keep_the_exception_text(ctx: rt.RunContext[None]) -> None:
    toolset = served()
    result = await toolset.call_tool(ctx, "leaky", {"text": "x"})
    assert result.text_content == f"leaky failed: OSError: {SECRET}"
    refused = await toolset.call_tool(ctx, "refusing", {"text": "b"})
    assert refused.text_content == "No note called 'b'; try listNotes first."


async def test_the_policy_applies_only_inside_reporting_failures(
        ctx: rt.RunContext[None]) -> None:
    policy = FailurePolicy()
    with reporting_failures(policy):
        inside = await served().call_tool(ctx, "leaky", {"text": "x"})
    outside = failure_result("leaky", OSError(SECRET))
    assert re.fullmatch(r"internal error in tool leaky \(ref \d+\)", inside.text_content)
    assert SECRET in outside.text_content


def test_tool_error_is_public() -> None:
    assert rt.ToolError.__module__ == "toolc.runtime.failures"
    assert issubclass(rt.ToolError, Exception)
    assert failure_result("t", rt.ToolError("as written")).text_content == "as written"


def flaky_predicate(ctx: rt.RunContext[Any]) -> bool:
    raise LookupError(SECRET)


async def test_a_call_whose_toolset_cannot_start_is_masked_alike(
        ctx: rt.RunContext[None]) -> None:
    gated = rt.FilteredToolset(rt.FunctionToolset([make_tool("echo")]), flaky_predicate,
                               id="admin")
    async with Client(rt.to_mcp_server(gated)) as client:
        served = await client.call_tool("echo", {"text": "x"})
    assert served.is_error and served.content[0].text == "internal error in tool echo (ref 1)"
    in_process = await gated.call_tool(ctx, "echo", {"text": "x"})
    assert in_process.text_content.startswith("echo cannot run: ")
    assert SECRET in in_process.text_content
