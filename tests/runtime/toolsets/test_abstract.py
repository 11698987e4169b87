from __future__ import annotations

from typing import Any, Self

import pytest
import toolc.runtime as rt


class Recording(rt.AbstractToolset[Any]):
    def __init__(self) -> None:
        self.events: list[str] = []

    async def list_tools(self, ctx: rt.RunContext[Any]) -> list[rt.ToolDefinition]:
        return []

    async def call_tool(
        self, ctx: rt.RunContext[Any], name: str, args: dict[str, Any]
    ) -> rt.ToolResult:
        return rt.ToolResult.text(name)

    async def get_instructions(self, ctx: rt.RunContext[Any]) -> str | None:
        return "be brief"

    async def __aenter__(self) -> Self:
        self.events.append("enter")
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.events.append("exit")


@pytest.mark.anyio
async def test_delegating_base_forwards_everything(ctx: rt.RunContext[None]) -> None:
    inner = Recording()
    outer = rt.DelegatingToolset(inner, id="outer")
    async with outer as entered:
        assert entered is outer
        assert inner.events == ["enter"]
        assert (await outer.call_tool(ctx, "x", {})).text_content == "x"
        assert await outer.get_instructions(ctx) == "be brief"
    assert inner.events == ["enter", "exit"]
    assert outer.label == "outer"
    assert rt.DelegatingToolset(inner).label == "DelegatingToolset(Recording)"


@pytest.mark.anyio
async def test_defaults_of_the_contract(ctx: rt.RunContext[None]) -> None:
    toolset = Recording()
    assert rt.AbstractToolset.static_names(toolset) is None
    assert await rt.AbstractToolset.get_instructions(toolset, ctx) is None


class _Held(rt.AbstractToolset[None]):
    """A kind with a resource: only the two hooks are its own."""

    def __init__(self) -> None:
        self.events: list[object] = []

    async def list_tools(self, ctx: rt.RunContext[None]) -> list[rt.ToolDefinition]:
        return []

    async def call_tool(self, ctx: rt.RunContext[None], name: str,
                        args: dict[str, Any]) -> rt.ToolResult:
        raise AssertionError("not called")

    async def enter_resources(self) -> None:
        self.events.append("enter")

    async def exit_resources(self, exc_info: Any) -> None:
        self.events.append(exc_info[1])


def test_a_kind_says_what_entering_and_leaving_do_and_wrappers_pass_the_reason_on() -> None:
    import anyio

    held = _Held()
    wrapped = rt.PrefixedToolset(held, "p")

    async def scenario() -> None:
        async with wrapped as entered:
            assert entered is wrapped
        with pytest.raises(KeyError):
            async with wrapped:
                raise KeyError("why")

    anyio.run(scenario)
    assert held.events[:2] == ["enter", None]
    assert held.events[2] == "enter" and isinstance(held.events[3], KeyError)


def test_the_async_with_dunders_are_written_once_in_the_contract() -> None:
    import toolc.runtime.mcp.pinned  # noqa: F401 - its PinnedToolset is a kind too

    def kinds(cls: type) -> list[type]:
        return [cls, *(k for sub in cls.__subclasses__() for k in kinds(sub))]

    toolc_kinds = [k for k in kinds(rt.AbstractToolset) if k.__module__.startswith("toolc.")]
    assert len(toolc_kinds) > 5
    own = [k.__qualname__ for k in toolc_kinds[1:] if {"__aenter__", "__aexit__"} & vars(k).keys()]
    assert own == []
