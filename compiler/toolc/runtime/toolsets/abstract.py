"""The toolset contract, documented once.

A toolset is an ordered collection of tools for a turn. Every kind implements:

- `async list_tools(ctx) -> list[ToolDefinition]`: the tools to show in this turn, in
  order. The list is the caller's to keep (a fresh list), its `ToolDefinition`s are
  shared and immutable. A toolset whose own logic fails (a predicate or prepare
  function that raises, two members giving the same name) raises `ToolsetError` with a
  message naming the part that failed; listing has no other way to fail.
- `async call_tool(ctx, name, args) -> ToolResult`: run one call, `name` as
  `list_tools` showed it in the same turn. Every failure the model could act on is an
  error result (`is_error=True`), never an exception: an unknown or hidden name
  ("Unknown tool"), invalid arguments (the validator's message), a handler that raised,
  a lazily imported reference that does not import, a predicate that raised, an MCP
  server that timed out or died. Two exceptions are part of the contract, because the
  caller must act on them: `ApprovalRequiredError` and `ExternalCallRequired` (see
  `toolc.runtime.deferred`).
- `async get_instructions(ctx) -> str | None`: text for the model's system prompt (MCP
  servers' instructions); None by default.
- `async with toolset:`: enter and leave the resources behind the set (MCP
  connections); wrapping kinds enter their inner sets, combined kinds every member.
  Entering is optional: an MCP toolset also connects at first use. Entering twice is
  allowed and counted. A kind says what entering and leaving do by overriding
  `enter_resources()` and `exit_resources(exc_info)`; the dunders are written once, in
  `AbstractToolset`.
- `static_names() -> frozenset[str] | None`: every name the set could ever show, when
  that is known without a context (a superset: a filtered set may hide them); None when
  only a listing can tell (MCP). Combined sets use it to route a call without listing
  their members.
- `listing_is_fixed() -> bool`: True when the set lists the same tools in every turn,
  so a server need not list it again after each call to find a change; False by
  default (filtered, prepared and MCP sets, or anything unknown, may change it). A kind
  answers for its exact class only: a subclass may override `list_tools`.

Per-turn state lives in the context (`RunContext.turn_memo`), never in the toolset, so
one toolset object serves many conversations at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

from toolc.runtime.context import RunContext
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.results import ToolResult

DepsT = TypeVar("DepsT")

# Why an ``async with`` block ended: ``__aexit__``'s three arguments, kept together.
ExitInfo = tuple[type[BaseException] | None, BaseException | None, TracebackType | None]


class ToolsetError(Exception):
    """A toolset cannot list its tools: a collision, or user code that failed."""


class AbstractToolset(ABC, Generic[DepsT]):
    """Base of every toolset kind; the contract is this module's text, above."""

    id: str | None = None
    """The set's name in messages (a generated module's sets: `module.attr`)."""

    @abstractmethod
    async def list_tools(self, ctx: RunContext[DepsT]) -> list[ToolDefinition]:
        """The tools to show in this turn, in order (a fresh list, shared definitions);
        raises `ToolsetError` when the set's own logic fails."""

    @abstractmethod
    async def call_tool(
        self, ctx: RunContext[DepsT], name: str, args: dict[str, Any]
    ) -> ToolResult:
        """Run one call; every failure the model could act on is an error result. Raises
        only `ApprovalRequiredError` or `ExternalCallRequired`, when the call pauses."""

    async def get_instructions(self, ctx: RunContext[DepsT]) -> str | None:
        """Text for the model's system prompt (MCP servers' instructions); None here."""
        return None

    def static_names(self) -> frozenset[str] | None:
        """Every name the set could ever show, if known without a context; None here."""
        return None

    def listing_is_fixed(self) -> bool:
        """Whether the set lists the same tools in every turn; False here."""
        return False

    # `async with toolset:` is written once, here; a kind with resources overrides the two
    # hooks below, never the dunders.
    async def __aenter__(self) -> Self:
        await self.enter_resources()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.exit_resources((exc_type, exc, tb))

    async def enter_resources(self) -> None:
        """Acquire what the set holds (connections, inner sets); nothing by default. If
        this raises, the set is not entered and must release what it took."""

    async def exit_resources(self, exc_info: ExitInfo) -> None:
        """Release it again; ``exc_info`` is why the ``async with`` block ended, as
        ``__aexit__`` got it (to pass on to inner sets)."""

    @property
    def label(self) -> str:
        """How error messages name this set: its id, or a short description."""
        return self.id if self.id is not None else self.describe()

    def describe(self) -> str:
        """A short description of the set, for `label` when it has no id."""
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{self.label}>"


class DelegatingToolset(AbstractToolset[DepsT]):
    """The base of every wrapping kind: forwards everything to `inner`.

    Each wrapping kind overrides one or two methods; entering the wrapper enters `inner`.
    """

    def __init__(self, inner: AbstractToolset[DepsT], *, id: str | None = None) -> None:
        self.inner = inner
        """The wrapped set."""
        self.id = id

    async def list_tools(self, ctx: RunContext[DepsT]) -> list[ToolDefinition]:
        return await self.inner.list_tools(ctx)

    async def call_tool(
        self, ctx: RunContext[DepsT], name: str, args: dict[str, Any]
    ) -> ToolResult:
        return await self.inner.call_tool(ctx, name, args)

    async def get_instructions(self, ctx: RunContext[DepsT]) -> str | None:
        return await self.inner.get_instructions(ctx)

    def static_names(self) -> frozenset[str] | None:
        return self.inner.static_names()

    async def enter_resources(self) -> None:
        await self.inner.__aenter__()

    async def exit_resources(self, exc_info: ExitInfo) -> None:
        await self.inner.__aexit__(*exc_info)

    def describe(self) -> str:
        return f"{type(self).__name__}({self.inner.label})"
