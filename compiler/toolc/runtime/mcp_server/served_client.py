"""The MCP client of a served call, as its handler's `RunContext.client`.

What a handler asks (`toolc.runtime.client`) goes to the client through the SDK's
request context of the `tools/call`, in the call's protocol era:

- progress: `notifications/progress` against the call's progress token (none sent
  when the client gave none);
- log messages: `notifications/message` on the call's own stream; before 2026-07-28 at
  or above the level the connection set with `logging/setLevel` (every level until it
  does), from 2026-07-28 at or above the level the request itself asks for (none when
  it asks for none), as the SDK decides;
- a form (elicitation) and the client's model (sampling), when the client declared
  the capability: before 2026-07-28 a request to the client in the middle of the call
  (`elicitation/create`, `sampling/createMessage`); from 2026-07-28, which has no such
  requests, the call answers with an `InputRequiredResult` holding the question, and
  the client calls again with the answer: the handler then runs again from the start
  and, asking the same question, gets that answer. Answers given earlier, and that the
  user approved the call, ride along in the `requestState` (`Questions`): signed under
  the server's state keys (those the replicas share, `approval_state.py`), bound to the
  tool, its arguments and the token's principal, expiring, and redeemed once, so the
  same answered request sent again is refused. Put side effects after the questions;
- cancellation: the client's `notifications/cancelled` for the call.

Stateless HTTP (`toolc serve --stateless`) answers with JSON: notifications have no
stream to ride (the SDK drops them), and before 2026-07-28 nothing can be asked.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
from mcp.server.connection import allowed_log_levels
from mcp.server.context import ServerRequestContext
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from toolc.runtime.client import LOG_LEVELS, CallClient, ClientUnavailable, Elicited, Sampled
from toolc.runtime.mcp_server.approval import principal, refusal
from toolc.runtime.mcp_server.approval_state import (
    MAX_STATE_CHARS,
    QUESTIONS,
    ApprovalStates,
    StateRefused,
)
from toolc.runtime.results import ToolResult

ASK_KEY = "toolc/ask/"      # input request keys: toolc/ask/0, toolc/ask/1, ...


class InputRequired(BaseException):  # a pause, not an error: past `except Exception`
    """From 2026-07-28: the handler asked what the client has not answered yet."""

    def __init__(self, key: str, request: types.InputRequest, digest: str) -> None:
        super().__init__(key)
        self.key, self.request, self.digest = key, request, digest


@dataclass(slots=True)
class Asked:
    """What a retry carries: input key -> (question digest, answer in wire shape), and
    whether the user approved the call in an earlier round."""

    answers: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    approved: bool = False


class LogLevels:
    """The level each handshake-era connection asked for with `logging/setLevel`."""

    def __init__(self) -> None:
        self._levels: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()

    async def on_set_level(self, ctx: ServerRequestContext[Any],
                           params: types.SetLevelRequestParams) -> types.EmptyResult:
        connection = getattr(ctx.session, "_connection", None)  # (see toolset_server)
        if connection is not None:
            self._levels[connection] = params.level
        return types.EmptyResult()

    def allowed(self, ctx: ServerRequestContext[Any], level: str) -> bool:
        if level not in allowed_log_levels(ctx.protocol_version, ctx.meta):
            return False  # 2026-07-28: not asked for by this request
        wanted = self._levels.get(getattr(ctx.session, "_connection", None) or self, "debug")
        return LOG_LEVELS.index(level) >= LOG_LEVELS.index(wanted)


class ServedClient(CallClient):
    """The client of one `tools/call` (see the module's docstring)."""

    where = "to this MCP client"

    def __init__(self, ctx: ServerRequestContext[Any], levels: LogLevels,
                 asked: Asked | None = None) -> None:
        self.ctx = ctx
        self.levels = levels
        self.asked = asked or Asked()
        self.modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
        self._questions = 0

    async def report_progress(self, progress: float, total: float | None = None,
                              message: str | None = None) -> None:
        await self.ctx.session.report_progress(progress, total, message)

    async def log(self, level: Any, data: Any, logger: str | None = None) -> None:
        if not self.levels.allowed(self.ctx, level):
            return
        note = types.LoggingMessageNotification(
            params=types.LoggingMessageNotificationParams(level=level, data=data, logger=logger))
        await self.ctx.session.send_notification(note, related_request_id=self.ctx.request_id)

    async def elicit(self, message: str, schema: Mapping[str, Any]) -> Elicited:
        self._require("elicitation", "ctx.elicit", "ask the user")
        params = types.ElicitRequestFormParams(message=message, requested_schema=dict(schema))
        answer = await self._ask(types.ElicitRequest(params=params), types.ElicitResult)
        return Elicited(answer.action, answer.content)

    async def sample(self, messages: list[dict[str, Any]], *, max_tokens: int,
                     options: Mapping[str, Any]) -> Sampled:
        self._require("sampling", "ctx.sample", "sample its model")
        params = types.CreateMessageRequestParams.model_validate(
            {"messages": messages, "maxTokens": max_tokens, **options}, by_name=False)
        result = await self._ask(types.CreateMessageRequest(params=params),
                                 types.CreateMessageResult)
        content = result.content if isinstance(result.content, list) else [result.content]
        return Sampled(result.role, [_wire(c) for c in content], result.model,
                       result.stop_reason)

    def cancel_requested(self) -> bool:
        # The SDK's per-request channel holds the event (no public accessor yet).
        outbound = getattr(self.ctx.session, "_request_outbound", None)
        event = getattr(outbound, "cancel_requested", None)
        return bool(event is not None and event.is_set())

    def _require(self, capability: str, what: str, doing: str) -> None:
        if not self.modern and not self.ctx.session.can_send_request:  # (nor its capabilities)
            raise ClientUnavailable(
                f"{what} is not available {self.where}: this server answers each request on "
                f"its own (stateless HTTP), so it cannot ask in the middle of a call; a "
                f"client of the 2026-07-28 protocol can be asked")
        caps = self.ctx.session.client_capabilities
        declared = getattr(caps, capability, None) if caps is not None else None
        if declared is None:
            raise ClientUnavailable(f"{what} is not available {self.where}: it cannot "
                                    f"{doing} (it declared no {capability} support)")

    async def _ask(self, request: Any, answer_type: type[Any]) -> Any:
        """The client's answer: asked now (before 2026-07-28), or carried by this retry,
        or asked by pausing the call (2026-07-28)."""
        if not self.modern:
            metadata = ServerMessageMetadata(related_request_id=self.ctx.request_id)
            return await self.ctx.session.send_request(request, answer_type, metadata=metadata)
        key = f"{ASK_KEY}{self._questions}"
        self._questions += 1
        digest = _digest(request.model_dump(by_alias=True, mode="json", exclude_none=True))
        known = self.asked.answers.get(key)
        if known is not None and hmac.compare_digest(known[0], digest):
            return answer_type.model_validate(known[1], by_name=False)
        raise InputRequired(key, request, digest)


class Questions:
    """The `requestState` of a call's questions from 2026-07-28, under `states`' keys."""

    def __init__(self, states: ApprovalStates) -> None:
        self.states = states

    async def resume(self, params: types.CallToolRequestParams) -> Asked | ToolResult:
        """The answers this retry carries (its state redeemed: this call, once), or an
        error result saying why they do not count; a state of another kind (an
        approval's) is left to the approval."""
        state = params.request_state
        if state is None or self.states.kind_of(state) != QUESTIONS:
            return Asked()
        try:
            carried = await self.states.redeem(state, params.name, params.arguments or {},
                                               principal(), kind=QUESTIONS)
        except StateRefused as refused:
            return refusal(self.states, refused, params.name, what="The answers",
                           serves="counts for")
        answers = {k: (d, a) for k, (d, a) in carried.get("answers", {}).items()}
        for key, digest in carried.get("asked", {}).items():
            response = (params.input_responses or {}).get(key)
            if response is not None:
                answers[key] = (digest, _wire(response))
        return Asked(answers, carried.get("approved") is True)

    def ask(self, params: types.CallToolRequestParams, pending: InputRequired,
            asked: Asked) -> types.InputRequiredResult | ToolResult:
        """Pause the call on `pending`: the question, and a state with what is known."""
        carried = {"asked": {pending.key: pending.digest},
                   "answers": {k: list(v) for k, v in asked.answers.items()},
                   "approved": asked.approved}
        state = self.states.issue(params.name, params.arguments or {}, principal(),
                                  kind=QUESTIONS, carried=carried)
        if len(state) > MAX_STATE_CHARS:
            return ToolResult.error(
                f"{params.name} asked more than one call can carry: the answers so far take "
                f"{len(state)} characters of requestState, at most {MAX_STATE_CHARS}; ask "
                f"for less (fewer questions, a smaller max_tokens)")
        return types.InputRequiredResult(input_requests={pending.key: pending.request},
                                         request_state=state)


def _wire(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()
