"""Calls that pause: approval-required and external tools.

A call that needs a human's approval raises `ApprovalRequiredError`; a call to a tool
that runs outside the process raises `ExternalCallRequired`. Both are
`DeferredCallError`s, the one exception a toolset's `call_tool` raises by contract:
`except DeferredCallError` handles every pause (an `except ApprovalRequiredError` alone
misses external tools). Both carry
`requests: list[DeferredToolRequest]` (call id, tool name, arguments). The caller
resumes by calling again, in a context (`RunContext.resume`) whose `approvals` maps the
call id to `Approved(override_args=None)` or `Denied(message)`, or whose
`external_results` maps it to the external result.

A denied call is answered with an error result (`is_error=True`): the tool did not run,
and the text says so and why, addressed to the model so it can choose another way.

When the context has no `tool_call_id`, a fresh id is made up and reported in the
request; resume with a context whose `tool_call_id` is that id.

These are records only (they import nothing of the runtime, so the run context can
name the answers it carries); how a call pauses and reads its answer is
`toolc.runtime.pausing`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class DeferredToolRequest:
    """One paused call: what the caller must approve, or run itself."""

    call_id: str
    """The id to answer under (`ctx.approvals[call_id]`, `ctx.external_results[call_id]`)."""
    tool_name: str
    """The tool's name, as the toolset that was called shows it."""
    args: dict[str, Any]
    """The arguments of the call (validated, for an external tool)."""


@dataclass(frozen=True, slots=True)
class Approved:
    """The call may run; `override_args` (when given) replace the model's arguments."""

    override_args: dict[str, Any] | None = None
    """Arguments to run with instead of the model's (validated like them); None: the
    model's own."""


@dataclass(frozen=True, slots=True)
class Denied:
    """The call must not run; `message` tells the model why."""

    message: str = "The user denied this tool call."
    """Why, as the model reads it in the error result."""


class DeferredCallError(Exception):
    """A call paused; `requests` says what the caller must provide to resume it."""

    def __init__(self, requests: list[DeferredToolRequest]) -> None:
        self.requests = requests
        """The paused calls, each with the id to answer it under."""
        names = ", ".join(f"{r.tool_name} (call {r.call_id})" for r in requests)
        super().__init__(f"{self.reason}: {names}")

    reason = "tool calls deferred"
    """What kind of pause this is, in the exception's message."""

    def with_tool_names(self, rename: Callable[[str], str]) -> DeferredCallError:
        """The same pause, with tool names as an outer toolset publishes them."""
        renamed = [
            DeferredToolRequest(r.call_id, rename(r.tool_name), r.args) for r in self.requests
        ]
        return type(self)(renamed)


class ApprovalRequiredError(DeferredCallError):
    """A call needs approval: resume with `Approved(...)` or `Denied(...)` per call id."""

    reason = "approval required"


class ExternalCallRequired(DeferredCallError):
    """A call runs outside the process: resume with its result per call id."""

    reason = "external call required"
