"""The run context handed to every toolset call, predicate, prepare function and handler.

A `RunContext` stands for one turn of a conversation: the caller's dependencies, the
step number, the id of the tool call being run, and the caller's answers to calls that
paused earlier (approvals and external results, see `toolc.runtime.deferred`).

It also carries `turn_memo`, where toolsets memoise what they compute once per turn
(a predicate's verdict, a prepared listing, a name-to-member map): listing the tools and
then calling one of them in the same turn evaluates a predicate once, and a call does
not list every inner toolset again. Contexts made from one another with
`dataclasses.replace` or `for_call` share the memo; `next_turn()` starts a fresh one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
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
    """

    deps: DepsT
    step: int = 0
    tool_call_id: str | None = None
    approvals: Mapping[str, Approved | Denied] = field(default_factory=dict)
    external_results: Mapping[str, Any] = field(default_factory=dict)
    turn_memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

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
                          self.external_results, self.turn_memo)

    def next_turn(self) -> RunContext[DepsT]:
        """The next step: a fresh memo, no call id, no pending answers."""
        return RunContext(deps=self.deps, step=self.step + 1)

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
