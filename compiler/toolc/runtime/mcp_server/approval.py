"""Approval-required calls served over MCP: the user is asked through elicitation.

The question is a form with one boolean field, `confirm`: before 2026-07-28 an
`elicitation/create` request in the middle of the call (answered once, on that
connection); from 2026-07-28 an `InputRequiredResult` the client answers by calling
again, with a `requestState` that binds the answer to that one call: signed, expiring,
redeemed once (`approval_state.py`), so the same request sent again is refused. Accepted
with `confirm: true` -> the call runs; accepted without it (unticked, or missing) -> an
error result saying the user did not confirm; declined or cancelled -> one saying so; a
client that cannot be asked (no elicitation, or a stateless server's
handshake-era client, which has no channel back) -> an error result saying why.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import mcp_types as types
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import principal_components
from mcp.server.context import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from toolc.runtime.context import RunContext
from toolc.runtime.deferred import ApprovalRequiredError, Approved
from toolc.runtime.mcp_server.approval_state import APPROVAL, ApprovalStates, StateRefused
from toolc.runtime.results import ToolResult

APPROVAL_KEY = "toolc/approval"
CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "confirm": {"type": "boolean", "title": "Run it", "description": "Allow this tool call."}
    },
    "required": ["confirm"],
}

# Why a state was refused, completing "The approval (answers) sent with this call to X ...".
_REFUSED = {
    "malformed": "is not one this server gave",
    "other key": "was signed with another key (replicas behind a balancer need the same "
                 "state key: --state-key-file or TOOLC_STATE_KEY)",
    "other call": "was given for another call (another tool, other arguments or another user)",
    "expired": "has expired (an answer holds for {ttl:g} s after the question)",
    "used": "was used already: an answer {serves} one call, once",
    "unrecorded": "could not be recorded as used ({detail})",
}

# How the server runs a call (its toolset, every failure but a pause an error result).
Call = Callable[[RunContext[Any], str, dict[str, Any]], Awaitable[ToolResult]]


class Approvals:
    """Asks the user about the paused calls of one server; `states` signs and redeems the
    2026-07-28 questions' states (by default under a key of this process)."""

    def __init__(self, states: ApprovalStates | None = None) -> None:
        self.states = states if states is not None else ApprovalStates()

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
        cannot = _cannot_ask(ctx, name)
        if cannot is not None:
            return cannot
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            outcome = await self._answer_in(params)
            if not isinstance(outcome, types.ElicitResult):
                return outcome
            answer = outcome
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
        refused = _refusal(name, answer)
        if refused is not None:
            return refused
        return await run_approved(run_ctx, params, paused, call)

    async def _answer_in(
        self, params: types.CallToolRequestParams
    ) -> types.ElicitResult | ToolResult | types.InputRequiredResult:
        """2026-07-28: the user's answer this retry carries (its state redeemed: this call,
        once), an error result saying why it does not count, or the question to ask."""
        name, args = params.name, params.arguments or {}
        answer = (params.input_responses or {}).get(APPROVAL_KEY)
        state = params.request_state
        if not isinstance(answer, types.ElicitResult) or state is None:
            return self._ask(name, args)
        try:
            await self.states.redeem(state, name, args, principal(), kind=APPROVAL)
        except StateRefused as refused:
            return refusal(self.states, refused, name)
        return answer

    def _ask(self, name: str, args: dict[str, Any]) -> types.InputRequiredResult:
        """2026-07-28: ask by answering with the question; the client calls again."""
        question = types.ElicitRequest(
            params=types.ElicitRequestFormParams(
                message=_question(name, args), requested_schema=CONFIRM_SCHEMA
            )
        )
        state = self.states.issue(name, args, principal(), kind=APPROVAL)
        return types.InputRequiredResult(input_requests={APPROVAL_KEY: question},
                                         request_state=state)


async def run_approved(run_ctx: RunContext[Any], params: types.CallToolRequestParams,
                       paused: ApprovalRequiredError, call: Call) -> ToolResult:
    """The call run with the approvals it paused for (the user said yes: in this request,
    or, from 2026-07-28, in an earlier round of the same call's questions)."""
    approved = run_ctx.resume(approvals={r.call_id: Approved() for r in paused.requests})
    try:
        return await call(approved, params.name, params.arguments or {})
    except ApprovalRequiredError:
        return ToolResult.error(f"{params.name} asked for approval twice; it was not run.")


def refusal(states: ApprovalStates, refused: StateRefused, name: str, *,
            what: str = "The approval", serves: str = "approves") -> ToolResult:
    """The error result of a refused state: why, and that the call did not run."""
    why = _REFUSED[refused.reason].format(ttl=states.ttl, detail=refused.detail, serves=serves)
    return ToolResult.error(f"{what} sent with this call to {name!r} {why}; the call was not "
                            f"run. Call the tool again to be asked anew.")


def _refusal(name: str, answer: types.ElicitResult) -> ToolResult | None:
    """The error result for an answer that does not approve the call; None if it does."""
    if answer.action == "accept":
        if (answer.content or {}).get("confirm") is True:
            return None
        return ToolResult.error(f"The user did not confirm the call to {name!r}; it was not run.")
    done = "cancelled" if answer.action == "cancel" else "declined"
    return ToolResult.error(f"The user {done} the call to {name!r}; it was not run.")


def principal() -> str | None:
    """Who the bearer token says is calling (its client, issuer and subject); None when
    the server checks no tokens."""
    token = get_access_token()
    return None if token is None else json.dumps(principal_components(token))


def _cannot_ask(ctx: ServerRequestContext[Any], name: str) -> ToolResult | None:
    """Why this client cannot be asked, if it cannot."""
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS and not ctx.session.can_send_request:
        return ToolResult.error(
            f"{name} needs the user's approval, and this server answers each request on "
            f"its own (stateless HTTP), so it cannot ask in the middle of a call: a client "
            f"of the 2026-07-28 protocol can be asked; the call was not run."
        )
    caps = ctx.session.client_capabilities
    elicitation = caps.elicitation if caps is not None else None
    # A bare `elicitation: {}` (before modes existed) means form support.
    if elicitation is not None and (elicitation.form is not None or elicitation.url is None):
        return None
    return ToolResult.error(
        f"{name} needs the user's approval, and this client cannot ask for it "
        f"(no elicitation support); the call was not run."
    )


def _question(name: str, args: Mapping[str, Any]) -> str:
    shown = json.dumps(args, ensure_ascii=False, indent=2)
    return f"Allow the tool {name!r} to run with these arguments?\n{shown}"
