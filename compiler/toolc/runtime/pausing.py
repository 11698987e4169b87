"""How a call pauses and reads its answer: the id it is reported under, the approval gate.

A paused call raises a `DeferredCallError` (see `toolc.runtime.deferred`) naming the
call id the caller answers under: the context's `tool_call_id`, or a fresh one. The gate
is shared by `ApprovalRequiredToolset` and `Tool(requires_approval=True)`: with no answer
for this call it pauses, with `Denied` it gives the denial result, with `Approved` the
arguments to run with. `PausedResult` is a pause held as a value, for the wrappers that
ask to see pauses (`WrapperToolset.pauses_as_results`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolc.runtime.context import RunContext
from toolc.runtime.deferred import (
    ApprovalRequiredError,
    Approved,
    DeferredCallError,
    DeferredToolRequest,
    Denied,
)
from toolc.runtime.results import DeniedResult, TextContent, ToolResult


class PausedResult(ToolResult):
    """A call that paused, held as a result: what `next` returns to a wrapper whose class
    sets `pauses_as_results = True`, instead of raising the pause.

    `pause` is the `DeferredCallError` (an `ApprovalRequiredError` or an
    `ExternalCallRequired`), `requests` its paused calls. A wrapper that returns it
    passes the pause on to its caller, raised as before. Its text says that the call has
    not run, so that a wrapper which turns it into another result misleads nobody.
    """

    __slots__ = ("pause",)

    def __init__(self, pause: DeferredCallError) -> None:
        calls = ", ".join(f"{r.tool_name!r} (call {r.call_id})" for r in pause.requests)
        super().__init__([TextContent(f"Paused, {pause.reason}: {calls}; not run yet.")],
                         None, True)
        self.pause = pause
        """The pause: an `ApprovalRequiredError` or an `ExternalCallRequired`."""

    @property
    def requests(self) -> list[DeferredToolRequest]:
        """The paused calls: what the caller must approve, or run itself."""
        return self.pause.requests


def call_id_of(ctx: RunContext[Any]) -> str:
    """The id a paused call is reported under: the context's, or a fresh one."""
    if ctx.tool_call_id is not None:
        return ctx.tool_call_id
    # lazy: uuid, only when this runs
    import uuid

    return uuid.uuid4().hex


def approval_gate(
    ctx: RunContext[Any], tool_name: str, args: dict[str, Any]
) -> dict[str, Any] | ToolResult:
    """The arguments to run with, or the denial result; raises when no answer exists yet.

    Shared by `ApprovalRequiredToolset` and `Tool(requires_approval=True)`.
    """
    decision = _decision_for(ctx.approvals, ctx.tool_call_id)
    if decision is None:
        raise ApprovalRequiredError([DeferredToolRequest(call_id_of(ctx), tool_name, args)])
    if isinstance(decision, Denied):
        return DeniedResult(tool_name, decision.message)
    return decision.override_args if decision.override_args is not None else args


def _decision_for(
    approvals: Mapping[str, Approved | Denied], call_id: str | None
) -> Approved | Denied | None:
    if call_id is None or not approvals:
        return None
    decision = approvals.get(call_id)
    if decision is not None and not isinstance(decision, Approved | Denied):
        raise TypeError(
            f"ctx.approvals[{call_id!r}] must be Approved(...) or Denied(...), "
            f"not {type(decision).__name__}"
        )
    return decision
