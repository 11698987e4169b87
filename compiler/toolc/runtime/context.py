"""The run context handed to every toolset call, predicate, prepare function and handler.

A `RunContext` stands for one turn of a conversation: the caller's dependencies, the
step number, the id of the tool call being run, and the caller's answers to calls that
paused earlier (approvals and external results, see `toolc.runtime.deferred`).

Through its `client` it reaches whoever made the call (`toolc.runtime.client`): progress,
log messages, a form for the user (elicitation), the client's model (sampling), and
whether the call was cancelled.

It also carries `turn_memo`, where toolsets memoise what they compute once per turn
(a predicate's verdict, a prepared listing, a name-to-member map): listing the tools and
then calling one of them in the same turn evaluates a predicate once, and a call does
not list every inner toolset again. Contexts made from one another with
`dataclasses.replace` or `for_call` share the memo; `next_turn()` starts a fresh one.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from toolc.runtime.client import CallClient, Elicited, LogLevel, Sampled
    from toolc.runtime.deferred import Approved, Denied

DepsT = TypeVar("DepsT")


@dataclass(slots=True)
class RunContext(Generic[DepsT]):
    """Everything a toolset may know about the turn it serves.

    Attributes:
        deps: The caller's dependencies (a user, a database handle, flags): whatever
            predicates, prepare functions, wrappers and handlers need.
        step: The turn's number; memoised per-turn answers are keyed by it.
        tool_call_id: The model's id for the call being run; a paused call is reported
            under it (or under a fresh one, when None).
        approvals: The caller's answers to calls that paused for approval: a call id
            to `Approved(...)` or `Denied(...)`.
        external_results: The results of external tool calls, by call id (a
            `ToolResult`, a string, a dict or a pydantic model).
        turn_memo: What toolsets compute once per turn (shared by the contexts made
            from this one with `for_call` and `resume`).
        client: Whoever made the call, as the handler may address it (a served call's
            MCP client; None: nobody, see `toolc.runtime.client`).
    """

    deps: DepsT
    step: int = 0
    tool_call_id: str | None = None
    approvals: Mapping[str, Approved | Denied] = field(default_factory=dict)
    external_results: Mapping[str, Any] = field(default_factory=dict)
    turn_memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    client: CallClient | None = field(default=None, repr=False, compare=False)

    @staticmethod
    def empty() -> RunContext[None]:
        """A context without dependencies: for tests and scripts."""
        return RunContext(deps=None)

    def for_call(self, tool_call_id: str | None) -> RunContext[DepsT]:
        """The same turn, for the call `tool_call_id` (the memo is shared)."""
        if type(self) is not RunContext:  # a subclass may have fields of its own
            return dataclasses.replace(self, tool_call_id=tool_call_id)
        # (made directly: dataclasses.replace reads the fields at every call, and an agent
        # makes one context per tool call)
        return RunContext(self.deps, self.step, tool_call_id, self.approvals,
                          self.external_results, self.turn_memo, self.client)

    def next_turn(self) -> RunContext[DepsT]:
        """The next step: a fresh memo, no call id, no pending answers."""
        return RunContext(deps=self.deps, step=self.step + 1, client=self.client)

    def resume(
        self,
        *,
        approvals: Mapping[str, Approved | Denied] | None = None,
        external_results: Mapping[str, Any] | None = None,
    ) -> RunContext[DepsT]:
        """This turn again, carrying the caller's answers to paused calls."""
        return dataclasses.replace(
            self,
            approvals=approvals if approvals is not None else self.approvals,
            external_results=external_results
            if external_results is not None
            else self.external_results,
        )

    # -- whoever made the call (toolc.runtime.client) ------------------------------------

    async def report_progress(self, progress: float, total: float | None = None,
                              message: str | None = None) -> None:
        """Tell the caller how far this call is (`progress` of `total`, both numbers that
        grow); nothing when nobody asked (an MCP client that sent no progress token)."""
        await _client(self).report_progress(progress, total, message)

    async def log(self, level: LogLevel, data: Any, *, logger: str | None = None) -> None:
        """A log message for the caller (`level`: MCP's, "debug" to "emergency"; `data`
        any JSON value). Served, the client gets it at the level it asked for (before
        2026-07-28: `logging/setLevel`; from 2026-07-28: the request's own); in process,
        Python's `logging` (logger `toolc.client`)."""
        # lazy: 1 more toolc module(s), only when this runs
        from toolc.runtime.client import LOG_LEVELS

        if level not in LOG_LEVELS:
            raise ValueError(f"ctx.log: {level!r} is not an MCP log level "
                             f"({', '.join(LOG_LEVELS)})")
        await _client(self).log(level, data, logger)

    async def elicit(self, message: str, schema: Mapping[str, Any]) -> Elicited:
        """Ask the user to fill in a form: `schema` a flat object of primitive properties,
        as MCP elicitation allows (anything else: `ValueError`, saying what). Returns the
        user's `Elicited` answer; accepted content that does not fit the form raises
        `InvalidAnswer` (a `ToolError`); nobody to ask raises `ClientUnavailable`."""
        # lazy: 2 more toolc module(s), only when this runs
        from toolc.runtime.client import Elicited
        from toolc.runtime.elicitation import check_answer, check_schema

        check_schema(schema)
        answer = await _client(self).elicit(message, schema)
        if answer.action != "accept":
            return Elicited(answer.action)
        return Elicited("accept", check_answer(schema, answer.content))

    async def sample(self, messages: str | Sequence[Mapping[str, Any]], *, max_tokens: int,
                     system_prompt: str | None = None, temperature: float | None = None,
                     stop_sequences: Sequence[str] | None = None,
                     model_preferences: Mapping[str, Any] | None = None,
                     metadata: Mapping[str, Any] | None = None) -> Sampled:
        """Ask the caller's model (MCP sampling): `messages` a prompt (one user message)
        or MCP sampling messages (`{"role": "user", "content": {"type": "text", ...}}`).
        Returns its `Sampled` message; no client model raises `ClientUnavailable`."""
        # lazy: 1 more toolc module(s), only when this runs
        from toolc.runtime.client import sampling_messages

        options = {"systemPrompt": system_prompt, "temperature": temperature,
                   "stopSequences": list(stop_sequences) if stop_sequences else None,
                   "modelPreferences": model_preferences, "metadata": metadata}
        return await _client(self).sample(
            sampling_messages(messages), max_tokens=max_tokens,
            options={k: v for k, v in options.items() if v is not None})

    @property
    def cancelled(self) -> bool:
        """Whether the call has been cancelled: by the client (MCP `notifications/
        cancelled`), or by the caller's cancel scope (how the SDK stops a call whatever
        the protocol era; a plain `def` handler sees it from its worker thread). An
        `async def` handler is cancelled at its next `await` anyway; in its `finally` this
        says why it is ending."""
        if self.client is not None and self.client.cancel_requested():
            return True
        try:
            self.raise_if_cancelled()
        except BaseException:  # noqa: BLE001  # the backend's cancellation exception
            return True
        # lazy: loads anyio
        import anyio

        try:  # in the event loop: a cancelled scope's deadline is -inf
            return anyio.current_effective_deadline() == -math.inf
        except Exception:  # noqa: BLE001  # no event loop here (sniffio's error): not cancelled
            return False

    def raise_if_cancelled(self) -> None:
        """In a plain `def` handler's worker thread, raise the cancellation the caller's
        cancel scope has for it (a call cancelled by the client included); elsewhere
        nothing. Call it between steps of a long synchronous handler."""
        # lazy: loads anyio
        from anyio.from_thread import check_cancelled

        try:
            check_cancelled()
        except RuntimeError:  # not in a worker thread: an async handler's awaits see it
            return


def _client(ctx: RunContext[Any]) -> CallClient:
    if ctx.client is not None:
        return ctx.client
    # lazy: 1 more toolc module(s), only when this runs
    from toolc.runtime.client import NO_CLIENT

    return NO_CLIENT
