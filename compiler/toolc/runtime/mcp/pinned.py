"""Pinned MCP servers as toolsets: what a compiled module publishes, without the server.

An ``mcp`` toolset with pinned tools runs, in the generated module, as the runtime's
``MCPToolset``: it lists the live server. Certification and ``toolc serve --pinned``
need what the *module publishes* instead, offline: the pinned definitions. They get it
by standing a :class:`PinnedToolset` in for each such ``MCPToolset`` before anything
of the module is built. Generated modules build each toolset at first use and keep it
as a module attribute (``mod.server``); every other toolset reaches it through that
attribute, so setting the attribute first is all a stand-in takes, and the generated
code needs nothing for it.

A stand-in lists the pinned definitions (every field, the server's own extra ones
included) and never connects to list. Calls go to the live server when one is given
(``toolc serve --pinned``: it connects at the first call) and are error results
otherwise (certification makes none).

The runtime never imports the compiler: what these functions read of the resolved
project (``toolc.ir``: a pinned tool, an ``mcp`` toolset) is described here by
protocols, which the IR's records satisfy; which sets to stand in for, the compiler
chooses (``toolc.ir.ProjectIR.stand_in_targets``).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from toolc.runtime.context import RunContext
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.metakeys import ALWAYS_LOAD
from toolc.runtime.results import ToolResult
from toolc.runtime.toolsets.abstract import AbstractToolset, ExitInfo


class PinnedTool(Protocol):
    """A pinned tool as the resolved project holds it (``toolc.ir.ToolIR``)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]  # a dataclass: ``listed_tools`` replaces

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def has_description(self) -> bool: ...
    @property
    def input_schema(self) -> dict[str, Any]: ...
    @property
    def output_schema(self) -> dict[str, Any] | None: ...
    @property
    def title(self) -> str | None: ...
    @property
    def annotations(self) -> dict[str, Any] | None: ...
    @property
    def meta(self) -> dict[str, Any] | None: ...
    @property
    def extra(self) -> dict[str, Any] | None: ...


ToolT = TypeVar("ToolT", bound=PinnedTool)
ToolT_co = TypeVar("ToolT_co", bound=PinnedTool, covariant=True)


class PinnedSet(Protocol[ToolT_co]):
    """A toolset of the resolved project (``toolc.ir.ToolsetIR``), as far as pins go."""

    @property
    def name(self) -> str: ...
    @property
    def always_load(self) -> bool: ...
    @property
    def pinned(self) -> tuple[ToolT_co, ...] | None: ...




def definition(tool: PinnedTool) -> ToolDefinition:
    """A pinned tool as the runtime lists it: every other field kept in ``extra``."""
    return ToolDefinition(
        name=tool.name, description=tool.description if tool.has_description else None,
        input_schema=tool.input_schema, output_schema=tool.output_schema, title=tool.title,
        annotations=tool.annotations, meta=tool.meta, extra=tool.extra)


class PinnedToolset(AbstractToolset[Any]):
    """The pinned tools of an ``mcp`` toolset; calls go to ``live`` if given."""

    def __init__(self, tools: tuple[PinnedTool, ...], *, id: str | None = None,
                 live: AbstractToolset[Any] | None = None) -> None:
        self.definitions = [definition(t) for t in tools]
        self.id = id
        self.live = live

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        return list(self.definitions)

    def static_names(self) -> frozenset[str] | None:
        return frozenset(d.name for d in self.definitions)

    async def call_tool(self, ctx: RunContext[Any], name: str,
                        args: dict[str, Any]) -> ToolResult:
        if name not in self.static_names():  # type: ignore[operator]
            return ToolResult.error(f"Unknown tool {name!r}")
        if self.live is None:
            return ToolResult.error(f"{name} is a pinned definition of MCP server "
                                    f"{self.label}; no server is connected here")
        return await self.live.call_tool(ctx, name, args)

    # Entering takes nothing: listing needs no connection, a call makes one.
    async def exit_resources(self, exc_info: ExitInfo) -> None:
        disconnect = getattr(self.live, "disconnect", None)
        if disconnect is not None:
            await disconnect()

    def describe(self) -> str:
        return f"pinned {self.live.label}" if self.live is not None else "pinned MCP server"


def listed_tools(ts: PinnedSet[ToolT]) -> tuple[ToolT, ...]:
    """The pinned tools of ``ts`` as the runtime's MCPToolset lists them: with
    ``always_load``, each carries `_meta` `anthropic/alwaysLoad: true`. A set that pins
    nothing lists nothing: certification never contacts its server."""
    if ts.pinned is None:
        return ()
    if not ts.always_load:
        return ts.pinned
    return tuple(dataclasses.replace(t, meta={**(t.meta or {}), ALWAYS_LOAD: True})
                 for t in ts.pinned)


def stand_in_pinned(package: str | None,
                    targets: Mapping[str, Sequence[tuple[str, PinnedSet[PinnedTool]]]], *,
                    forward_calls: bool = False) -> int:
    """Put a PinnedToolset in place of each chosen ``mcp`` toolset of the generated
    modules (``package.<module>``, or top-level modules when ``package`` is None), before
    any of their toolsets is built. ``targets``: per module name, (module attribute, set)
    (the compiler chooses them: ``toolc.ir.ProjectIR.stand_in_targets``).
    ``forward_calls``: calls go to the live server. Returns how many were stood in."""
    count = 0
    for name, sets in targets.items():
        try:
            mod = importlib.import_module(f"{package}.{name}" if package else name)
        except Exception:  # noqa: BLE001, S112 - whoever serves the module says why it fails
            continue
        for attribute, ts in sets:
            live = getattr(mod, attribute) if forward_calls else None
            setattr(mod, attribute, PinnedToolset(listed_tools(ts), live=live))
            count += 1
    return count
