"""Pinned stand-ins: the pinned definitions as a toolset, every field published."""

from __future__ import annotations

import dataclasses
from typing import Any

import anyio
import toolc.runtime as rt
from pydantic import BaseModel
from toolc.diagnostics import Span
from toolc.ir import (
    FunctionToolsetIR,
    MCPToolsetIR,
    ModuleIR,
    ProjectIR,
    PythonNames,
    ToolIR,
    ToolsetIR,
)
from toolc.runtime.mcp.pinned import PinnedToolset, definition, listed_tools


def pinned(name: str, **fields: Any) -> ToolIR:
    return ToolIR(name=name, module="m", description=fields.pop("description", ""),
                  input_schema={"type": "object"}, span=Span("s", 1, 1), pinned_by="server",
                  **fields)


TOOLS = (pinned("a", description="A.", extra={"icons": [], "x": None}),
         pinned("b", has_description=False, annotations={"x-hint": 1}))


def test_definitions_publish_the_servers_fields_and_no_made_up_description() -> None:
    assert definition(TOOLS[0]).published() == {
        "name": "a", "description": "A.", "inputSchema": {"type": "object"}, "icons": [],
        "x": None}
    assert definition(TOOLS[1]).published() == {
        "name": "b", "inputSchema": {"type": "object"}, "annotations": {"x-hint": 1}}
    assert definition(TOOLS[0]).renamed("p_a").published()["icons"] == []


class EchoParams(BaseModel):
    text: str


async def echo(ctx: rt.RunContext[Any], text: str) -> str:
    return f"live: {text}"


def test_listing_needs_no_server_and_calls_go_to_the_live_one_if_any() -> None:
    live = rt.FunctionToolset([rt.Tool("a", "A.", params_model=EchoParams, handler=echo,
                                       input_schema={"type": "object", "properties": {
                                           "text": {"type": "string"}}})])

    async def scenario() -> tuple[Any, ...]:
        ctx = rt.RunContext(deps=None)
        offline, online = PinnedToolset(TOOLS), PinnedToolset(TOOLS, live=live)
        async with rt.PrefixedToolset(offline, "p_") as prefixed:
            names = [t.published()["name"] for t in await prefixed.list_tools(ctx)]
        return (names, await offline.call_tool(ctx, "a", {}),
                await online.call_tool(ctx, "a", {"text": "hi"}),
                await online.call_tool(ctx, "zz", {}))

    names, refused, forwarded, unknown = anyio.run(scenario)
    assert names == ["p_a", "p_b"]
    assert refused.is_error and "pinned definition" in refused.to_wire()["content"][0]["text"]
    assert not forwarded.is_error and forwarded.to_wire()["content"][0]["text"] == "live: hi"
    assert unknown.is_error


def _module(*toolsets: ToolsetIR) -> ModuleIR:
    return ModuleIR(name="m", path="s", description=None, types={}, tools={},
                    toolsets={ts.name: ts for ts in toolsets}, export=toolsets[0].name)


def test_mcp_sets_are_chosen_once_every_one_or_only_those_that_pin() -> None:
    base = FunctionToolsetIR(name="base", module="m", span=Span("s", 1, 1), tools=())
    live = MCPToolsetIR(name="live", module="m", span=Span("s", 2, 1))
    held = MCPToolsetIR(name="held", module="m", span=Span("s", 3, 1), pinned=TOOLS)
    module = _module(base, live, held)
    assert module.mcp_sets() == [live, held]
    assert module.mcp_sets(pinning_only=True) == [held]
    assert [listed_tools(ts) for ts in module.mcp_sets()] == [(), TOOLS]
    named = dataclasses.replace(module, python_names=PythonNames(
        toolsets={"base": "base", "live": "live_", "held": "held_"}))
    project = ProjectIR(modules={"m": named})
    assert project.stand_in_targets() == {"m": [("held_", held)]}  # by module attribute
    assert project.stand_in_targets(unpinned=True) == {"m": [("live_", live), ("held_", held)]}
