from __future__ import annotations

from typing import Any, Self

import pytest
import toolc.runtime as rt
from runtime_support import function_set, make_tool, names

pytestmark = pytest.mark.anyio


def tagged(tag: str, *tool_names: str, id: str | None = None) -> rt.FunctionToolset:
    async def handler(ctx: Any, text: str, times: int) -> str:
        return f"{tag}:{text}"

    return rt.FunctionToolset([make_tool(n, handler) for n in tool_names], id=id)


async def test_the_union_in_member_order(ctx: rt.RunContext[None]) -> None:
    toolset = rt.CombinedToolset([tagged("1", "b", "a"), tagged("2", "c")])
    assert names(await toolset.list_tools(ctx)) == ["b", "a", "c"]
    assert (await toolset.call_tool(ctx, "c", {"text": "x"})).text_content == "2:x"
    assert (await toolset.call_tool(ctx, "a", {"text": "x"})).text_content == "1:x"
    assert (await toolset.call_tool(ctx, "zz", {})).text_content == "Unknown tool 'zz'."
    assert toolset.static_names() == {"a", "b", "c"}


async def test_a_collision_names_both_members(ctx: rt.RunContext[None]) -> None:
    toolset = rt.CombinedToolset(
        [tagged("1", "a", id="notes"), tagged("2", "x"), tagged("3", "a", id="logs")], id="main"
    )
    with pytest.raises(rt.ToolsetError) as info:
        await toolset.list_tools(ctx)
    assert str(info.value) == (
        "main: tool 'a' is given by member 0 (notes) and member 2 (logs); "
        "rename one, or combine with conflicts='last_wins'"
    )


async def test_last_wins_keeps_the_later_tool_at_its_own_place(ctx: rt.RunContext[None]) -> None:
    toolset = rt.CombinedToolset(
        [tagged("1", "a", "b"), tagged("2", "c", "a", "d")], conflicts="last_wins"
    )
    assert names(await toolset.list_tools(ctx)) == ["b", "c", "a", "d"]
    assert (await toolset.call_tool(ctx, "a", {"text": "x"})).text_content == "2:x"
    assert (await toolset.call_tool(ctx, "b", {"text": "x"})).text_content == "1:x"


async def test_last_wins_falls_back_when_the_later_member_hides_it() -> None:
    shown = {"later": True}
    later = rt.FilteredToolset(tagged("2", "a"), lambda ctx: shown["later"])
    toolset = rt.CombinedToolset([tagged("1", "a"), later], conflicts="last_wins")
    ctx = rt.RunContext.empty()
    assert (await toolset.call_tool(ctx, "a", {"text": "x"})).text_content == "2:x"
    shown["later"] = False
    ctx = ctx.next_turn()
    assert (await toolset.call_tool(ctx, "a", {"text": "x"})).text_content == "1:x"


async def test_members_that_are_never_shown_together_do_not_collide() -> None:
    mode = {"admin": True}
    admin = rt.FilteredToolset(tagged("admin", "status"), lambda ctx: mode["admin"])
    guest = rt.FilteredToolset(tagged("guest", "status"), lambda ctx: not mode["admin"])
    toolset = rt.CombinedToolset([admin, guest])
    ctx = rt.RunContext.empty()
    assert (await toolset.call_tool(ctx, "status", {"text": "x"})).text_content == "admin:x"
    mode["admin"] = False
    ctx = ctx.next_turn()
    assert names(await toolset.list_tools(ctx)) == ["status"]
    assert (await toolset.call_tool(ctx, "status", {"text": "x"})).text_content == "guest:x"


async def test_a_call_routes_without_listing_when_names_are_known() -> None:
    listed: list[str] = []

    class Spy(rt.DelegatingToolset[Any]):
        async def list_tools(self, ctx: Any) -> list[rt.ToolDefinition]:
            listed.append(self.label)
            return await self.inner.list_tools(ctx)

    toolset = rt.CombinedToolset([Spy(tagged("1", "a"), id="one"), Spy(tagged("2", "b"), id="two")])
    for _ in range(3):
        ctx = rt.RunContext.empty()
        assert (await toolset.call_tool(ctx, "b", {"text": "x"})).text_content == "2:x"
    assert listed == []


async def test_a_failing_member_listing_is_an_error_result_on_call() -> None:
    def broken(ctx: Any) -> bool:
        raise RuntimeError("nope")

    dup = rt.FilteredToolset(tagged("2", "a"), broken, id="flaky")
    toolset = rt.CombinedToolset([tagged("1", "a"), dup], conflicts="last_wins")
    result = await toolset.call_tool(rt.RunContext.empty(), "a", {"text": "x"})
    assert (
        result.is_error
        and "the predicate" in result.text_content
        and "flaky" in result.text_content
    )


async def test_instructions_and_entering_reach_every_member(ctx: rt.RunContext[None]) -> None:
    events: list[str] = []

    class Member(rt.DelegatingToolset[Any]):
        async def get_instructions(self, ctx: Any) -> str | None:
            return f"use {self.label}"

        async def __aenter__(self) -> Self:
            events.append(f"enter {self.label}")
            return self

        async def __aexit__(self, *exc: object) -> None:
            events.append(f"exit {self.label}")

    toolset = rt.CombinedToolset(
        [Member(function_set("a"), id="m1"), Member(function_set("b"), id="m2")]
    )
    async with toolset:
        assert await toolset.get_instructions(ctx) == "use m1\n\nuse m2"
    assert events == ["enter m1", "enter m2", "exit m2", "exit m1"]


async def test_a_failed_enter_leaves_the_entered_members() -> None:
    events: list[str] = []

    class Member(rt.DelegatingToolset[Any]):
        async def __aenter__(self) -> Self:
            if self.label == "bad":
                raise OSError("cannot start")
            events.append(f"enter {self.label}")
            return self

        async def __aexit__(self, *exc: object) -> None:
            events.append(f"exit {self.label}")

    toolset = rt.CombinedToolset(
        [Member(function_set("a"), id="ok"), Member(function_set("b"), id="bad")]
    )
    with pytest.raises(OSError, match="cannot start"):
        await toolset.__aenter__()
    assert events == ["enter ok", "exit ok"]


def test_conflicts_must_be_error_or_last_wins() -> None:
    with pytest.raises(ValueError, match="conflicts must be"):
        rt.CombinedToolset([], conflicts="first_wins")  # type: ignore[arg-type]
