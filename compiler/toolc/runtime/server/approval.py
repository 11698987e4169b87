"""Approval-required calls served over MCP: the user is asked through elicitation.

The question is a form with one boolean field, `confirm`: before 2026-07-28 an
`elicitation/create` request in the middle of the call; from 2026-07-28 an
`InputRequiredResult` the client answers by calling again, its `requestState` an HMAC
of the call (tool name and arguments) under a key of this server, so that an answer
counts only for the call it was asked about. Accepted with `confirm: true` -> the call
runs; anything else -> an error result saying it was declined; a client without
elicitation -> an error result saying the tool needs approval.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from toolc.runtime.context import RunContext
from toolc.runtime.deferred import ApprovalRequiredError, Approved
from toolc.runtime.results import ToolResult

APPROVAL_KEY = "toolc/approval"
CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "confirm": {"type": "boolean", "title": "Run it", "description": "Allow this tool call."}
    },
    "required": ["confirm"],
}

# How the server runs a call (its toolset, every failure but a pause an error result).
Call = Callable[[RunContext[Any], str, dict[str, Any]], Awaitable[ToolResult]]


class Approvals:
    """Asks the user about the paused calls of one server, under that server's key."""

    def __init__(self) -> None:
        self._secret = secrets.token_bytes(16)

    async def approve(
        self,
        ctx: ServerRequestContext[Any],
        params: types.CallToolRequestParams,
        run_ctx: RunContext[Any],
        paused: ApprovalRequiredError,
        call: Call,
    ) -> ToolResult | types.InputRequiredResult:
        """The call's result once the user approved it, an error result saying why it did
        not run, or (2026-07-28) the question the client answers by calling again."""
        name, args = params.name, params.arguments or {}
        if not _can_elicit(ctx):
            return ToolResult.error(
                f"{name} needs the user's approval, and this client cannot ask for it "
                f"(no elicitation support); the call was not run."
            )
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            answer = self._answer_in(params)
            if answer is None:
                return self._ask(name, args)
        else:
            try:
                answer = await ctx.session.elicit_form(
                    _question(name, args), CONFIRM_SCHEMA, related_request_id=ctx.request_id
                )
            except Exception as exc:  # noqa: BLE001  # the client failed to ask: say so
                return ToolResult.error(
                    f"{name} needs the user's approval, and asking for it failed "
                    f"({type(exc).__name__}: {exc}); the call was not run."
                )
        confirmed = answer.action == "accept" and (answer.content or {}).get("confirm") is True
        if not confirmed:
            return ToolResult.error(f"The user declined the call to {name!r}; it was not run.")
        approved = run_ctx.resume(approvals={r.call_id: Approved() for r in paused.requests})
        try:
            return await call(approved, name, args)
        except ApprovalRequiredError:
            return ToolResult.error(f"{name} asked for approval twice; it was not run.")

    def _digest(self, name: str, args: Mapping[str, Any]) -> str:
        payload = json.dumps([name, args], sort_keys=True, ensure_ascii=False).encode()
        return hmac.new(self._secret, payload, hashlib.sha256).hexdigest()

    def _ask(self, name: str, args: dict[str, Any]) -> types.InputRequiredResult:
        """2026-07-28: ask by answering with the question; the client calls again."""
        question = types.ElicitRequest(
            params=types.ElicitRequestFormParams(
                message=_question(name, args), requested_schema=CONFIRM_SCHEMA
            )
        )
        return types.InputRequiredResult(
            input_requests={APPROVAL_KEY: question}, request_state=self._digest(name, args)
        )

    def _answer_in(self, params: types.CallToolRequestParams) -> types.ElicitResult | None:
        """The user's answer carried by this retry, if it answers this very call."""
        answer = (params.input_responses or {}).get(APPROVAL_KEY)
        state = params.request_state
        expected = self._digest(params.name, params.arguments or {})
        if not isinstance(answer, types.ElicitResult) or state is None:
            return None
        return answer if hmac.compare_digest(state, expected) else None


def _can_elicit(ctx: ServerRequestContext[Any]) -> bool:
    caps = ctx.session.client_capabilities
    elicitation = caps.elicitation if caps is not None else None
    # A bare `elicitation: {}` (before modes existed) means form support.
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def _question(name: str, args: Mapping[str, Any]) -> str:
    shown = json.dumps(args, ensure_ascii=False, indent=2)
    return f"Allow the tool {name!r} to run with these arguments?\n{shown}"
