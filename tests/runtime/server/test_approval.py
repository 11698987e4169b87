"""Approval-required calls served through a real mcp Client, in both protocol eras: the
user asked by elicitation (a request mid-call before 2026-07-28, an answer the client
retries with from 2026-07-28)."""

from __future__ import annotations

from typing import Any

import mcp_types as types
import pytest
import toolc.runtime as rt
from mcp import Client
from runtime_support import make_tool

pytestmark = pytest.mark.anyio
ERAS = pytest.mark.parametrize("mode", ["auto", "legacy"])


def answering(action: str, content: dict[str, Any] | None, asked: list[Any]) -> Any:
    async def callback(context: Any, params: types.ElicitRequestFormParams) -> types.ElicitResult:
        asked.append(params)
        return types.ElicitResult(action=action, content=content)  # type: ignore[arg-type]

    return callback


@ERAS
async def test_approval_asks_the_user_by_elicitation(mode: str) -> None:
    ran: list[str] = []

    async def drop(ctx: rt.RunContext[Any], text: str, times: int) -> str:
        ran.append(text)
        return f"dropped {text}"

    ts = rt.FunctionToolset([make_tool("dropAll", drop, requires_approval=True)])
    asked: list[Any] = []
    yes = answering("accept", {"confirm": True}, asked)
    async with Client(rt.to_mcp_server(ts), mode=mode, elicitation_callback=yes) as client:
        result = await client.call_tool("dropAll", {"text": "users"})
    assert (result.is_error, result.content[0].text, ran) == (False, "dropped users", ["users"])
    (question,) = asked
    assert "'dropAll'" in question.message and '"text": "users"' in question.message
    assert question.requested_schema["properties"]["confirm"]["type"] == "boolean"
    assert question.requested_schema["required"] == ["confirm"]

    for action, content in [("decline", None), ("cancel", None), ("accept", {"confirm": False})]:
        no = answering(action, content, [])
        async with Client(rt.to_mcp_server(ts), mode=mode, elicitation_callback=no) as client:
            result = await client.call_tool("dropAll", {"text": "orders"})
        assert result.is_error
        assert result.content[0].text == "The user declined the call to 'dropAll'; it was not run."
    assert ran == ["users"]


@ERAS
async def test_a_client_without_elicitation_hears_that_approval_is_needed(mode: str) -> None:
    ts = rt.FunctionToolset([make_tool("dropAll", requires_approval=True)])
    async with Client(rt.to_mcp_server(ts), mode=mode) as client:
        result = await client.call_tool("dropAll", {"text": "x"})
    assert result.is_error
    assert result.content[0].text == (
        "dropAll needs the user's approval, and this client cannot ask for it "
        "(no elicitation support); the call was not run."
    )


async def test_a_client_whose_elicitation_fails_hears_that_asking_failed() -> None:
    async def broken(context: Any, params: Any) -> types.ErrorData:
        return types.ErrorData(code=types.INTERNAL_ERROR, message="no UI available")

    ts = rt.FunctionToolset([make_tool("dropAll", requires_approval=True)])
    server = rt.to_mcp_server(ts)
    async with Client(server, mode="legacy", elicitation_callback=broken) as client:
        result = await client.call_tool("dropAll", {"text": "x"})
        assert result.is_error
        assert result.content[0].text == (
            "dropAll needs the user's approval, and asking for it failed "
            "(MCPError: no UI available); the call was not run."
        )
